import { compareBytes } from "../store/bytes-order.js";
import type { BatchOperation, KVStore } from "../store/kv-store.js";
import { BinaryTree } from "../tree/binary-tree.js";
import { openTree } from "../tree/open-tree.js";
import {
  ConformanceFailure,
  equalValue,
  expectErrorCode,
  fail,
  hex,
} from "./conformance-assert.js";
import { randomScenarioOps, runOverlapScenario, type ScenarioOp } from "./overlap-scenario.js";

export { ConformanceFailure };

/** The test-runner functions the suite needs (vitest, node:test, mocha and jest all fit). */
export interface ConformanceRunner {
  describe(name: string, body: () => void): void;
  it(name: string, body: () => Promise<void>): void;
}

export interface StoreConformanceOptions {
  /** A name for the describe block. */
  readonly name?: string;
  /** Whether the store implements `entries()` (ordered iteration). Default: detected. */
  readonly ordered?: boolean;
}

/**
 * The contract every KVStore must meet, as a test suite a store package runs against its own
 * factory (the pattern of abstract-level's exported tests). The factory must return a fresh,
 * empty store each call.
 *
 * @example
 * ```ts
 * import { MemoryStore } from "@bintrie/core";
 * import { storeConformanceSuite } from "@bintrie/core/conformance";
 * import { describe, it } from "vitest";
 *
 * storeConformanceSuite({ describe, it }, () => new MemoryStore(), { name: "MemoryStore" });
 * ```
 *
 * Long by design: one `it` per clause of the contract, read top to bottom like the spec it is.
 */
export function storeConformanceSuite(
  runner: ConformanceRunner,
  factory: () => KVStore | Promise<KVStore>,
  options: StoreConformanceOptions = {},
): void {
  const { describe, it } = runner;
  const withStore = (body: (store: KVStore) => Promise<void>) => async () => {
    const store = await factory();
    try {
      await body(store);
    } finally {
      await store.close().catch(() => undefined);
    }
  };

  describe(`KVStore conformance${options.name ? `: ${options.name}` : ""}`, () => {
    it(
      "get of a missing key is undefined",
      withStore(async (store) => {
        equalValue(await store.get(b(1, 2, 3)), undefined, "missing key");
      }),
    );

    it(
      "put then get returns the same bytes, for binary keys and values",
      withStore(async (store) => {
        const entries: [Uint8Array, Uint8Array][] = [
          [b(0x76, 0x41), b(2, 1, 0xc0, 0)],
          [b(0x76, 0x41, 0x00, 0x01), filled(64, 0)],
          [b(0xff, 0xff, 0x00), filled(8256, 0xab)],
          [b(0x00), new Uint8Array(0)],
        ];
        await store.batch(entries.map(([key, value]) => ({ type: "put", key, value })));
        for (const [key, value] of entries)
          equalValue(await store.get(key), value, `key ${hex(key)}`);
      }),
    );

    it(
      "stored bytes are isolated from the caller's buffers",
      withStore(async (store) => {
        const key = b(1, 1);
        const value = filled(32, 7);
        await store.batch([{ type: "put", key, value }]);
        value.fill(9);
        key[0] = 2;
        const read = await store.get(b(1, 1));
        equalValue(read, filled(32, 7), "value after the caller mutated its buffer");
        read?.fill(1);
        equalValue(await store.get(b(1, 1)), filled(32, 7), "value after mutating a returned copy");
      }),
    );

    it(
      "arguments are taken when a call is made: changing them before it settles changes nothing",
      withStore(async (store) => {
        const key = b(1, 1);
        const value = filled(32, 7);
        const batch = store.batch([{ type: "put", key, value }]);
        key[0] = 2;
        value.fill(9);
        await batch;
        equalValue(await store.get(b(1, 1)), filled(32, 7), "batch() whose key and value changed");
        equalValue(await store.get(b(2, 1)), undefined, "the key as changed after batch()");
        const probe = b(1, 1);
        const read = store.get(probe);
        probe[0] = 2;
        equalValue(await read, filled(32, 7), "get() whose key changed after the call");
        const keys = [b(1, 1)];
        const reads = store.getMany(keys);
        keys[0]![0] = 2;
        keys.push(b(1, 1));
        const many = await reads;
        if (many.length !== 1) fail(`getMany of 1 key returned ${many.length} values`);
        equalValue(many[0], filled(32, 7), "getMany() whose keys changed after the call");
      }),
    );

    it(
      "ill-typed arguments reject with StoreError('INVALID_ARGUMENT') and change nothing",
      withStore(async (store) => {
        const bad = (value: unknown) => value as never;
        const attempts: [string, () => Promise<unknown>][] = [
          ['get("a")', () => store.get(bad("a"))],
          ["get(null)", () => store.get(bad(null))],
          ["getMany(null)", () => store.getMany(bad(null))],
          ['getMany([bytes, "a"])', () => store.getMany(bad([b(1), "a"]))],
          ["batch(null)", () => store.batch(bad(null))],
          [
            "batch([put with a string key])",
            () => store.batch(bad([{ type: "put", key: "a", value: b(1) }])),
          ],
        ];
        if (typeof store.entries === "function") {
          for (const range of [null, { gte: "a" }, { lt: 5 }, { gt: b(1) }]) {
            attempts.push([
              `entries(${JSON.stringify(range)})`,
              async () => {
                for await (const _ of store.entries!(bad(range))) break;
              },
            ]);
          }
        }
        for (const [name, attempt] of attempts) {
          await expectErrorCode(name, attempt, "INVALID_ARGUMENT");
        }
        equalValue(await store.get(b(1)), undefined, "after the rejected calls");
      }),
    );

    it(
      "getMany returns values in key order, undefined for missing keys",
      withStore(async (store) => {
        await store.batch([
          { type: "put", key: b(1), value: b(10) },
          { type: "put", key: b(3), value: b(30) },
        ]);
        const got = await store.getMany([b(3), b(2), b(1), b(3)]);
        if (got.length !== 4) fail(`getMany returned ${got.length} values for 4 keys`);
        equalValue(got[0], b(30), "getMany[0]");
        equalValue(got[1], undefined, "getMany[1]");
        equalValue(got[2], b(10), "getMany[2]");
        equalValue(got[3], b(30), "getMany[3]");
        const none = await store.getMany([]);
        if (none.length !== 0) fail("getMany([]) must return []");
      }),
    );

    it(
      "a batch applies puts and deletes in order; the last operation on a key wins",
      withStore(async (store) => {
        await store.batch([
          { type: "put", key: b(1), value: b(1) },
          { type: "put", key: b(2), value: b(2) },
        ]);
        await store.batch([
          { type: "del", key: b(1) },
          { type: "put", key: b(2), value: b(22) },
          { type: "put", key: b(3), value: b(3) },
          { type: "del", key: b(3) },
          { type: "put", key: b(4), value: b(4) },
          { type: "del", key: b(99) },
        ]);
        equalValue(await store.get(b(1)), undefined, "deleted key");
        equalValue(await store.get(b(2)), b(22), "overwritten key");
        equalValue(await store.get(b(3)), undefined, "put then deleted in one batch");
        equalValue(await store.get(b(4)), b(4), "new key");
        await store.batch([]);
      }),
    );

    it(
      "a batch with an invalid operation changes nothing",
      withStore(async (store) => {
        await store.batch([{ type: "put", key: b(1), value: b(1) }]);
        let threw = false;
        try {
          await store.batch([
            { type: "put", key: b(2), value: b(2) },
            { type: "put", key: b(3), value: "not bytes" as unknown as Uint8Array },
          ]);
        } catch {
          threw = true;
        }
        if (!threw) fail("a batch with a non-Uint8Array value must reject");
        equalValue(await store.get(b(2)), undefined, "first operation of the rejected batch");
      }),
    );

    it(
      "batchWithSpans (where offered): operations before `at`, the span puts in order, the rest",
      withStore(async (store) => {
        if (store.batchWithSpans === undefined) return;
        await store.batch([
          { type: "put", key: b(1), value: b(1) },
          { type: "put", key: b(2), value: b(2) },
        ]);
        // Two chunks; spans point anywhere in them (gaps, shared bytes, empty values).
        const one = b(9, 5, 5, 5, 9, 3, 30, 31, 9, 4, 40, 4, 41);
        const two = filled(300, 0x6a);
        two.set(b(1, 2), 0);
        const puts = {
          chunks: [one, two],
          spans: Uint32Array.of(
            ...[0, 1, 2, 5, 5], // key 5 → empty value
            ...[0, 5, 6, 6, 8], // key 3 → 30 31
            ...[1, 0, 2, 2, 300], // key 1 2 → 298 bytes of 6a
            ...[0, 9, 10, 10, 11], // key 4 → 40
            ...[0, 11, 12, 12, 13], // key 4 again → 41: the later put wins
            ...[1, 0, 1, 2, 3], // key 1 → 6a
          ),
          count: 6,
        };
        await store.batchWithSpans(
          [
            { type: "del", key: b(2) },
            { type: "put", key: b(5), value: b(50) },
            { type: "put", key: b(3), value: b(33) },
            { type: "del", key: b(1) },
          ],
          puts,
          2,
        );
        // The chunks belong to the caller again: changing them changes nothing stored.
        one.fill(0);
        two.fill(0);
        equalValue(await store.get(b(2)), undefined, "deleted before the spans");
        equalValue(await store.get(b(5)), new Uint8Array(0), "put before, then a span put");
        equalValue(await store.get(b(3)), b(33), "span put, then put after");
        equalValue(await store.get(b(1, 2)), filled(298, 0x6a), "span put of 298 bytes");
        equalValue(await store.get(b(4)), b(41), "two span puts of one key");
        equalValue(await store.get(b(1)), undefined, "span put, then deleted after");
        await store.batchWithSpans([], { chunks: [], spans: new Uint32Array(0), count: 0 }, 0);
      }),
    );

    it(
      "batchWithSpans (where offered) with a span outside its chunk, or a bad `at`, changes nothing",
      withStore(async (store) => {
        if (store.batchWithSpans === undefined) return;
        const chunk = b(7, 70, 8, 80);
        const bad = [
          { spans: Uint32Array.of(0, 0, 1, 1, 2, 0, 2, 3, 3, 5), at: 1 }, // value past the end
          { spans: Uint32Array.of(0, 0, 1, 1, 2, 1, 2, 3, 3, 4), at: 1 }, // no chunk 1
          { spans: Uint32Array.of(0, 0, 1, 1, 2, 0, 3, 2, 3, 4), at: 1 }, // key ends before it starts
          { spans: Uint32Array.of(0, 0, 1, 1, 2, 0, 2, 3, 3, 4), at: 2 }, // `at` past the operations
        ];
        for (const [i, { spans, at }] of bad.entries()) {
          let threw = false;
          try {
            await store.batchWithSpans(
              [{ type: "put", key: b(9), value: b(9) }],
              { chunks: [chunk], spans, count: 2 },
              at,
            );
          } catch {
            threw = true;
          }
          if (!threw) fail(`batchWithSpans case ${i} must reject`);
          equalValue(await store.get(b(9)), undefined, `case ${i}: the operation before the spans`);
          equalValue(await store.get(b(7)), undefined, `case ${i}: the first span put`);
        }
      }),
    );

    it(
      "ordered iteration (entries) is byte-wise and honours gte/lt",
      withStore(async (store) => {
        const ordered = options.ordered ?? typeof store.entries === "function";
        if (!ordered) return;
        if (typeof store.entries !== "function")
          fail("options.ordered is true but entries() is missing");
        const keys = [
          b(0x76, 0x41),
          b(0x76, 0x41, 0x80, 0x01),
          b(0x76, 0x41, 0x00, 0x01),
          b(0x76),
          b(0x77),
          b(0xff, 0),
        ];
        await store.batch(keys.map((key, i) => ({ type: "put" as const, key, value: b(i) })));
        const all: Uint8Array[] = [];
        for await (const [key] of store.entries!()) all.push(key);
        const expected = [...keys].sort(compareBytes);
        if (all.map(hex).join() !== expected.map(hex).join()) {
          fail(`entries() order ${all.map(hex)} differs from byte order ${expected.map(hex)}`);
        }
        const ranged: Uint8Array[] = [];
        for await (const [key] of store.entries!({ gte: b(0x76, 0x41), lt: b(0x76, 0x42) }))
          ranged.push(key);
        const inRange = expected.filter(
          (k) => compareBytes(k, b(0x76, 0x41)) >= 0 && compareBytes(k, b(0x76, 0x42)) < 0,
        );
        if (ranged.map(hex).join() !== inRange.map(hex).join()) {
          fail(
            `entries({gte: 7641, lt: 7642}) gave ${ranged.map(hex)}, expected ${inRange.map(hex)}`,
          );
        }
      }),
    );

    it(
      "a closed store rejects every operation with StoreError('STORE_CLOSED')",
      withStore(async (store) => {
        await store.batch([{ type: "put", key: b(1), value: b(1) }]);
        await store.close();
        const attempts: [string, () => Promise<unknown>][] = [
          ["get", () => store.get(b(1))],
          ["getMany", () => store.getMany([b(1)])],
          ["batch", () => store.batch([{ type: "put", key: b(2), value: b(2) }])],
        ];
        if (typeof store.entries === "function") {
          attempts.push([
            "entries",
            async () => {
              for await (const _ of store.entries!()) break;
            },
          ]);
        }
        for (const [name, attempt] of attempts) {
          await expectErrorCode(`${name} after close`, attempt, "STORE_CLOSED");
        }
      }),
    );

    it(
      "returns plain Uint8Array values (not Buffer subclasses)",
      withStore(async (store) => {
        await store.batch([{ type: "put", key: b(7), value: filled(40, 7) }]);
        const single = await store.get(b(7));
        const [many] = await store.getMany([b(7)]);
        for (const [name, value] of [
          ["get", single],
          ["getMany", many],
        ] as const) {
          if (value?.constructor !== Uint8Array) {
            fail(`${name} must return a plain Uint8Array, got ${value?.constructor?.name}`);
          }
        }
      }),
    );

    it(
      "a batch with an unknown operation type rejects and applies nothing",
      withStore(async (store) => {
        let threw = false;
        try {
          await store.batch([
            { type: "put", key: b(5), value: b(5) },
            { type: "merge", key: b(6), value: b(6) } as unknown as BatchOperation,
          ]);
        } catch {
          threw = true;
        }
        if (!threw) fail("a batch with an operation of type 'merge' must reject");
        equalValue(await store.get(b(5)), undefined, "first operation of the rejected batch");
      }),
    );

    it(
      "entries() pages through thousands of keys in order; empty or inverted ranges yield nothing",
      withStore(async (store) => {
        if (!(options.ordered ?? typeof store.entries === "function")) return;
        const keys: Uint8Array[] = [];
        for (let i = 0; i < 2500; i++) keys.push(b(0x10, i >>> 8, i & 0xff, (i * 7) & 0xff));
        await store.batch(keys.map((key) => ({ type: "put" as const, key, value: b(1) })));
        let count = 0;
        let previous: Uint8Array | undefined;
        for await (const [key] of store.entries!()) {
          if (previous !== undefined && compareBytes(previous, key) >= 0) {
            fail(`entries() is not strictly increasing at ${hex(previous)} → ${hex(key)}`);
          }
          previous = key;
          count++;
        }
        if (count !== 2500) fail(`entries() yielded ${count} entries, expected 2500`);
        const ranges: [Uint8Array, Uint8Array][] = [
          [b(0x10, 5), b(0x10, 5)],
          [b(0x10, 6), b(0x10, 5)],
        ];
        for (const [gte, lt] of ranges) {
          for await (const [key] of store.entries!({ gte, lt })) {
            fail(`entries({gte: ${hex(gte)}, lt: ${hex(lt)}}) must be empty, got ${hex(key)}`);
          }
        }
      }),
    );

    it(
      "holds a committed tree: reopen gives the same root and values, updates commit cleanly",
      withStore(async (store) => {
        for (const groupDepth of [0, 3, 5]) {
          const keys: Uint8Array[] = [];
          for (let i = 0; i < 64; i++) {
            const key = new Uint8Array(32);
            key[0] = i * 37;
            key[1] = groupDepth;
            key[2] = i & 3 ? 0x55 : 0xaa;
            key[31] = i;
            keys.push(key);
          }
          const prefix = b(0x70 + groupDepth);
          const rootRecordKey = b(0x50 + groupDepth);
          const tree = new BinaryTree({ groupDepth, store, keyPrefix: prefix, rootRecordKey });
          for (const key of keys) tree.put(key, filled(32, key[0]!));
          const root = await tree.persist();
          const reopened = await openTree(store, { keyPrefix: prefix, rootRecordKey });
          equalValue(reopened.hash(), root, `root after reopen (g=${groupDepth})`);
          const values = await reopened.getMany(keys);
          for (let i = 0; i < keys.length; i++)
            equalValue(values[i], filled(32, keys[i]![0]!), `value ${i}`);
          const extra = new Uint8Array(32);
          extra[0] = 0x13;
          await reopened.putMany([{ key: extra, value: filled(32, 1) }]);
          const root2 = await reopened.persist();
          const again = await openTree(store, { keyPrefix: prefix, rootRecordKey });
          equalValue(again.hash(), root2, `root after the second commit (g=${groupDepth})`);
          equalValue(
            (await again.getMany([extra]))[0],
            filled(32, 1),
            "value written by the second commit",
          );
        }
      }),
    );

    // ---- faults and overlap: the tree on this store never loses data ---------------------

    it(
      "fault: a batch rejected once leaves the tree dirty; the next persist writes everything",
      withStore(async (store) => {
        const entries = (from: number, to: number, v: number) =>
          Array.from({ length: to - from }, (_, i) => [from + i, v] as const);
        const ops: ScenarioOp[] = [
          { op: "putMany", entries: entries(0, 80, 7) },
          { op: "persist", fail: true },
          { op: "settle" },
          { op: "persist" },
          { op: "putMany", entries: entries(60, 110, 9) },
          { op: "deleteMany", keys: [3, 4, 5, 90] },
          { op: "persist", fail: true },
          { op: "settle" },
          { op: "getMany", keys: [1, 3, 70, 100] },
          { op: "persist" },
        ];
        await runOverlapScenario(prefixed(store, b(0x60)), {
          groupDepth: 0,
          initialKeys: 0,
          keySpace: 120,
          ops,
        });
        await runOverlapScenario(prefixed(store, b(0x65)), {
          groupDepth: 5,
          deletionMode: "remove",
          initialKeys: 100,
          keySpace: 120,
          ops,
        });
      }),
    );

    it(
      "overlap: random latency and out-of-order completion give some serial order",
      withStore(async (store) => {
        for (const [n, groupDepth] of [0, 5].entries()) {
          await runOverlapScenario(prefixed(store, b(0x50 + n)), {
            groupDepth,
            deletionMode: n === 1 ? "remove" : "zero",
            latencyMs: 2,
            seed: 11 + n,
            initialKeys: 120,
            keySpace: 160,
            ops: randomScenarioOps(100 + n, 20, 160, { failures: true }),
          });
        }
        // A tree built in memory: synchronous puts land in the middle of persists in flight.
        await runOverlapScenario(prefixed(store, b(0x58)), {
          groupDepth: 5,
          latencyMs: 2,
          seed: 17,
          initialKeys: 0,
          keySpace: 160,
          ops: randomScenarioOps(107, 25, 160, { failures: true, syncPuts: true }),
        });
      }),
    );

    it(
      "overlap under a memory bound: eviction never frees what a call in flight uses",
      withStore(async (store) => {
        const bounds = [{ maxNodes: 30 }, { maxBytes: 14_000 }];
        for (const [n, bound] of bounds.entries()) {
          await runOverlapScenario(prefixed(store, b(0x40 + n)), {
            groupDepth: [5, 0][n]!,
            deletionMode: n === 1 ? "remove" : "zero",
            ...bound,
            latencyMs: 1,
            seed: 21 + n,
            initialKeys: 200,
            keySpace: 220,
            ops: randomScenarioOps(200 + n, 20, 220, { failures: true, syncPuts: true }),
          });
        }
      }),
    );
  });
}

function b(...bytes: number[]): Uint8Array {
  return Uint8Array.from(bytes);
}

function filled(n: number, byte: number): Uint8Array {
  return new Uint8Array(n).fill(byte);
}

/**
 * The store seen under a key prefix (a fresh namespace per scenario, so several scenarios can
 * share one store and each still checks the exact node content of its own part).
 */
function prefixed(store: KVStore, prefix: Uint8Array): KVStore {
  const wrap = (key: Uint8Array) => {
    const out = new Uint8Array(prefix.length + key.length);
    out.set(prefix);
    out.set(key, prefix.length);
    return out;
  };
  const view: KVStore = {
    get: (key) => store.get(wrap(key)),
    getMany: (keys) => store.getMany(keys.map(wrap)),
    batch: (operations) =>
      store.batch(operations.map((op) => ({ ...op, key: wrap(op.key) }) as BatchOperation)),
    close: () => Promise.resolve(),
  };
  if (store.entries !== undefined) {
    const entries = store.entries.bind(store);
    return {
      ...view,
      async *entries(range = {}) {
        const gte = wrap(range.gte ?? new Uint8Array(0));
        const lt = range.lt === undefined ? increment(prefix) : wrap(range.lt);
        for await (const [key, value] of entries({ gte, lt })) {
          yield [key.slice(prefix.length), value] as const;
        }
      },
    };
  }
  return view;
}

/** The smallest key greater than every key starting with `prefix` (prefix bytes < 0xff). */
function increment(prefix: Uint8Array): Uint8Array {
  const out = prefix.slice();
  out[out.length - 1]!++;
  return out;
}
