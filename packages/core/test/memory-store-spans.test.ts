// MemoryStore.batchWithSpans against batch: the same operations with the span puts spliced in
// at `at` as put operations must leave the same entries, and a rejected call changes nothing.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  type BatchOperation,
  BinaryTree,
  type KVStore,
  MemoryStore,
  StoreError,
} from "../src/index.js";

const keyArb = fc.uint8Array({ minLength: 1, maxLength: 3 }).map((k) => k.map((b) => b & 0x07));
const opArb: fc.Arbitrary<BatchOperation> = fc.oneof(
  fc.record({
    type: fc.constant("put" as const),
    key: keyArb,
    value: fc.uint8Array({ maxLength: 70 }),
  }),
  fc.record({ type: fc.constant("del" as const), key: keyArb }),
);
const putsArb = fc.array(fc.tuple(keyArb, fc.uint8Array({ maxLength: 70 })), { maxLength: 40 });

async function dump(store: MemoryStore): Promise<string[]> {
  const out: string[] = [];
  for await (const [k, v] of store.entries()) {
    out.push(`${Buffer.from(k).toString("hex")}=${Buffer.from(v).toString("hex")}`);
  }
  return out;
}

/** The puts packed into two chunks, key ‖ 32 filler bytes ‖ value, as a node set lays them out. */
function pack(puts: [Uint8Array, Uint8Array][]) {
  const chunks = [new Uint8Array(puts.length * 110), new Uint8Array(puts.length * 110)];
  const used = [0, 0];
  const spans = new Uint32Array(puts.length * 5);
  for (const [i, [key, value]] of puts.entries()) {
    const c = i % 2;
    const at = used[c]!;
    chunks[c]!.set(key, at);
    chunks[c]!.fill(0xaa, at + key.length, at + key.length + 32);
    chunks[c]!.set(value, at + key.length + 32);
    const end = at + key.length + 32 + value.length;
    spans.set([c, at, at + key.length, at + key.length + 32, end], i * 5);
    used[c] = end;
  }
  return { chunks, spans, count: puts.length };
}

describe("MemoryStore.batchWithSpans", () => {
  it("leaves the entries batch leaves with the span puts spliced in at `at`", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.array(opArb, { maxLength: 12 }), putsArb, fc.nat()), {
          maxLength: 6,
        }),
        async (batches) => {
          const spans = new MemoryStore();
          const plain = new MemoryStore();
          for (const [ops, puts, pick] of batches) {
            const at = pick % (ops.length + 1);
            const spliced: BatchOperation[] = [
              ...ops.slice(0, at),
              ...puts.map(([key, value]) => ({ type: "put" as const, key, value })),
              ...ops.slice(at),
            ];
            await plain.batch(spliced);
            await spans.batchWithSpans(ops, pack(puts), at);
          }
          expect(await dump(spans)).toEqual(await dump(plain));
          expect(spans.size).toBe(plain.size);
        },
      ),
      { numRuns: 200 },
    );
  });

  it("rejects a bad operation or span with StoreError('INVALID_ARGUMENT') and applies nothing", async () => {
    const store = new MemoryStore();
    const puts = pack([[Uint8Array.of(1), Uint8Array.of(1)]]);
    const bad = [
      () =>
        store.batchWithSpans(
          [{ type: "put", key: Uint8Array.of(2), value: "x" as unknown as Uint8Array }],
          puts,
          0,
        ),
      () => store.batchWithSpans([], { ...puts, count: 2 }, 0),
      () => store.batchWithSpans([], { ...puts, chunks: [puts.chunks[0]!.subarray(0, 3)] }, 0),
      () => store.batchWithSpans([], puts, -1),
      () => store.batchWithSpans([], { ...puts, chunks: ["x" as unknown as Uint8Array] }, 0),
    ];
    for (const call of bad) {
      await expect(call()).rejects.toSatisfy(
        (e) => e instanceof StoreError && e.code === "INVALID_ARGUMENT",
      );
    }
    expect(store.size).toBe(0);
  });
});

describe("persist through batchWithSpans", () => {
  it("writes what persist through batch writes (node puts, orphan deletes, root record)", async () => {
    const spans = new MemoryStore();
    const plain = new MemoryStore();
    let spanCalls = 0;
    const counted: KVStore = {
      get: (k) => spans.get(k),
      getMany: (ks) => spans.getMany(ks),
      batch: (ops) => spans.batch(ops),
      batchWithSpans: (ops, puts, at) => {
        spanCalls++;
        return spans.batchWithSpans(ops, puts, at);
      },
      close: () => spans.close(),
    };
    // Only the contract's required methods: persist must fall back to batch.
    const batchOnly: KVStore = {
      get: (k) => plain.get(k),
      getMany: (ks) => plain.getMany(ks),
      batch: (ops) => plain.batch(ops),
      close: () => plain.close(),
    };
    const trees = [counted, batchOnly].map((store) => new BinaryTree({ groupDepth: 3, store }));
    let seed = 11;
    const rand = () => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed >>> 24;
    };
    for (let round = 0; round < 6; round++) {
      // New keys split stored stems (orphan deletes); updates rewrite stored ones.
      for (let i = 0; i < 40; i++) {
        const key = new Uint8Array(32);
        key[0] = rand();
        key[1] = rand() & 0x03;
        key[31] = i;
        const value = new Uint8Array(32).fill(rand());
        for (const tree of trees) tree.put(key, value);
      }
      const roots = await Promise.all(
        trees.map((tree) => tree.persist({ extra: Uint8Array.of(round) })),
      );
      expect(Buffer.from(roots[0]!).toString("hex")).toBe(Buffer.from(roots[1]!).toString("hex"));
      expect(await dump(spans)).toEqual(await dump(plain));
    }
    expect(spanCalls).toBe(6);
  });
});

describe("persist() and a subclass that overrides batch() alone", () => {
  it("every persist goes through the override (a rejection there fails the persist, and the retry writes everything)", async () => {
    class RejectOnce extends MemoryStore {
      armed = false;
      batches = 0;
      override async batch(operations: readonly BatchOperation[]): Promise<void> {
        this.batches++;
        if (this.armed) {
          this.armed = false;
          throw new Error("batch rejected (test)");
        }
        return super.batch(operations);
      }
    }
    const store = new RejectOnce();
    const reference = new MemoryStore();
    const tree = new BinaryTree({ groupDepth: 4, store });
    const mirror = new BinaryTree({ groupDepth: 4, store: reference });
    for (let i = 0; i < 200; i++) {
      const key = new Uint8Array(32).fill(i);
      key[31] = i & 7;
      tree.put(key, new Uint8Array(32).fill(i + 1));
      mirror.put(key, new Uint8Array(32).fill(i + 1));
    }
    await tree.persist();
    await mirror.persist();
    expect(store.batches).toBe(1);
    for (let i = 0; i < 50; i++) {
      const key = new Uint8Array(32).fill(i * 3);
      tree.put(key, new Uint8Array(32).fill(7));
      mirror.put(key, new Uint8Array(32).fill(7));
    }
    store.armed = true;
    await expect(tree.persist()).rejects.toThrow("batch rejected");
    expect(store.batches).toBe(2);
    await tree.persist();
    await mirror.persist();
    expect(store.batches).toBe(3);
    expect(await dump(store)).toEqual(await dump(reference));
  });
});
