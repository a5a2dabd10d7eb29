import "fake-indexeddb/auto";
import { type BatchOperation, StoreError } from "@bintrie/core";
import { compareBytes } from "@bintrie/core/bytes";
import { collectEntries, hex } from "@bintrie/store-testkit";
import { expectStoreError } from "@bintrie/store-testkit/vitest";
import fc from "fast-check";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createIdbStore, type IdbStore } from "../src/index.js";

let databases = 0;
const freshStore = () =>
  createIdbStore({ database: `bintrie-idb-${databases++}`, storeName: "nodes" });

/** Counts the IndexedDB transactions opened, by mode, while `body` runs. */
async function countTransactions(body: () => Promise<unknown>): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  const original = IDBDatabase.prototype.transaction;
  const spy = vi.spyOn(IDBDatabase.prototype, "transaction").mockImplementation(function (
    this: IDBDatabase,
    ...args: Parameters<typeof original>
  ) {
    const mode = args[1] ?? "readonly";
    counts[mode] = (counts[mode] ?? 0) + 1;
    return original.apply(this, args);
  });
  try {
    await body();
  } finally {
    spy.mockRestore();
  }
  return counts;
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("IdbStore", () => {
  it("writes a batch of puts and deletes in exactly one readwrite transaction", async () => {
    const store = freshStore();
    await store.batch([{ type: "put", key: Uint8Array.of(0), value: Uint8Array.of(0) }]);
    const ops: BatchOperation[] = [];
    for (let i = 1; i <= 200; i++) {
      ops.push({ type: "put" as const, key: Uint8Array.of(i), value: Uint8Array.of(i, i) });
    }
    ops.push({ type: "del" as const, key: Uint8Array.of(0) });
    ops.push({ type: "del" as const, key: Uint8Array.of(7) });
    const counts = await countTransactions(() => store.batch(ops));
    expect(counts).toEqual({ readwrite: 1 });
    expect(await store.get(Uint8Array.of(0))).toBeUndefined();
    expect(await store.get(Uint8Array.of(7))).toBeUndefined();
    expect(await store.get(Uint8Array.of(8))).toEqual(Uint8Array.of(8, 8));
    await store.close();
  });

  it("reads getMany in exactly one readonly transaction", async () => {
    const store = freshStore();
    await store.batch(
      Array.from({ length: 50 }, (_, i) => ({
        type: "put" as const,
        key: Uint8Array.of(i),
        value: Uint8Array.of(i),
      })),
    );
    const keys = Array.from({ length: 60 }, (_, i) => Uint8Array.of(i));
    let values: (Uint8Array | undefined)[] = [];
    const counts = await countTransactions(async () => {
      values = await store.getMany(keys);
    });
    expect(counts).toEqual({ readonly: 1 });
    expect(values.slice(0, 50)).toEqual(keys.slice(0, 50));
    expect(values.slice(50)).toEqual(new Array(10).fill(undefined));
    await store.close();
  });

  it("aborts the whole transaction when IndexedDB throws partway through a batch", async () => {
    const store = freshStore();
    await store.batch([{ type: "put", key: Uint8Array.of(1), value: Uint8Array.of(1) }]);
    const original = IDBObjectStore.prototype.put;
    let puts = 0;
    vi.spyOn(IDBObjectStore.prototype, "put").mockImplementation(function (
      this: IDBObjectStore,
      ...args: Parameters<typeof original>
    ) {
      if (++puts === 3) throw new DOMException("simulated quota failure", "QuotaExceededError");
      return original.apply(this, args);
    });
    const error = await expectStoreError(
      store.batch([
        { type: "del", key: Uint8Array.of(1) },
        { type: "put", key: Uint8Array.of(2), value: Uint8Array.of(2) },
        { type: "put", key: Uint8Array.of(3), value: Uint8Array.of(3) },
        { type: "put", key: Uint8Array.of(4), value: Uint8Array.of(4) },
      ]),
      "STORE_IO",
    );
    expect(error.message).toContain('"nodes"');
    expect(error.message).toContain("QuotaExceededError");
    vi.restoreAllMocks();
    expect(await store.getMany([1, 2, 3, 4].map((b) => Uint8Array.of(b)))).toEqual([
      Uint8Array.of(1),
      undefined,
      undefined,
      undefined,
    ]);
    await store.close();
  });

  it("iterates binary keys in byte order across chunk boundaries, honouring ranges (property)", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(fc.uint8Array({ minLength: 1, maxLength: 4 }), {
          maxLength: 80,
          selector: (k) => hex(k),
        }),
        fc.uint8Array({ minLength: 1, maxLength: 3 }),
        fc.uint8Array({ minLength: 1, maxLength: 3 }),
        async (keys, a, b) => {
          const store = freshStore();
          await store.batch(keys.map((key) => ({ type: "put", key, value: key })));
          const sorted = [...keys].sort(compareBytes);
          expect((await collectEntries(store.entries())).map(([k]) => k)).toEqual(sorted.map(hex));
          const [gte, lt] = compareBytes(a, b) <= 0 ? [a, b] : [b, a];
          const inRange = sorted.filter(
            (k) => compareBytes(k, gte) >= 0 && compareBytes(k, lt) < 0,
          );
          expect((await collectEntries(store.entries({ gte, lt }))).map(([k]) => k)).toEqual(
            inRange.map(hex),
          );
          expect((await collectEntries(store.entries({ gte }))).map(([k]) => k)).toEqual(
            sorted.filter((k) => compareBytes(k, gte) >= 0).map(hex),
          );
          expect((await collectEntries(store.entries({ lt }))).map(([k]) => k)).toEqual(
            sorted.filter((k) => compareBytes(k, lt) < 0).map(hex),
          );
          await store.close();
        },
      ),
      { numRuns: 40 },
    );
  });

  it("pages through more entries than one cursor chunk", async () => {
    const store = freshStore();
    const ops = Array.from({ length: 1500 }, (_, i) => ({
      type: "put" as const,
      key: Uint8Array.of(i >>> 8, i & 0xff),
      value: Uint8Array.of(i & 0xff),
    }));
    await store.batch(ops);
    const all = await collectEntries(store.entries());
    expect(all.length).toBe(1500);
    expect(all.map(([k]) => k)).toEqual(ops.map((op) => hex(op.key)));
    const tail = await collectEntries(store.entries({ gte: Uint8Array.of(5, 0x10) }));
    expect(tail.length).toBe(1500 - (5 * 256 + 0x10));
    await store.close();
  });

  it("stores only the viewed bytes of a value that views a larger buffer", async () => {
    const store = freshStore();
    const big = new Uint8Array(1 << 20).fill(9);
    const view = big.subarray(100, 104);
    view.set([1, 2, 3, 4]);
    await store.batch([{ type: "put", key: Uint8Array.of(1), value: view }]);
    const read = await store.get(Uint8Array.of(1));
    expect(read).toEqual(Uint8Array.of(1, 2, 3, 4));
    expect(read!.buffer.byteLength).toBe(4);
    await store.close();
  });

  it("rejects every operation after close with STORE_CLOSED naming the store", async () => {
    const store = freshStore();
    await store.batch([{ type: "put", key: Uint8Array.of(1), value: Uint8Array.of(1) }]);
    await store.close();
    await store.close();
    for (const promise of [
      store.get(Uint8Array.of(1)),
      store.getMany([Uint8Array.of(1)]),
      store.batch([]),
      collectEntries(store.entries()),
    ]) {
      const error = await expectStoreError(promise, "STORE_CLOSED");
      expect(error.message).toContain(store.database);
    }
  });

  it("keeps two object stores apart only in two databases (idb-keyval creates one per database)", async () => {
    const database = `bintrie-two-stores-${databases++}`;
    const a = createIdbStore({ database, storeName: "a" });
    await a.batch([{ type: "put", key: Uint8Array.of(1), value: Uint8Array.of(0xa) }]);
    await a.close();
    const b = createIdbStore({ database, storeName: "b" });
    const error = await expectStoreError(b.get(Uint8Array.of(1)), "STORE_IO");
    expect(error.message).toMatch(/exists without this object store/);
    expect(error.message).toContain(database);
  });

  it("reports a value that is not bytes as STORE_IO instead of handing it out", async () => {
    const store = freshStore();
    const { createStore, set } = await import("idb-keyval");
    await set(Uint8Array.of(5), "text", createStore(store.database, store.storeName));
    const error = await expectStoreError(store.get(Uint8Array.of(5)), "STORE_IO");
    expect(error.message).toContain("0x05");
  });

  it("validates arguments with StoreError INVALID_ARGUMENT before touching IndexedDB", async () => {
    expect(() => createIdbStore({ database: "", storeName: "x" })).toThrow(
      expect.objectContaining({ name: "StoreError", code: "INVALID_ARGUMENT" }),
    );
    expect(() =>
      createIdbStore({ database: "x", storeName: undefined as unknown as string }),
    ).toThrow(/storeName must be a non-empty string/);
    const store: IdbStore = freshStore();
    await expect(store.get("k" as unknown as Uint8Array)).rejects.toThrow(StoreError);
    await expect(
      store.batch([{ type: "put", key: Uint8Array.of(1), value: [1] as unknown as Uint8Array }]),
    ).rejects.toThrow(/operation 0 \(put\) value must be a Uint8Array/);
    await store.close();
  });

  it("is a StoreError class shared with core (instanceof works across packages)", async () => {
    const store = freshStore();
    await store.close();
    await expect(store.get(Uint8Array.of(1))).rejects.toBeInstanceOf(StoreError);
  });
});
