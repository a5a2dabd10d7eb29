import "fake-indexeddb/auto";
import type { BatchOperation } from "@bintrie/core";
import { collectEntries } from "@bintrie/store-testkit";
import { expectStoreError } from "@bintrie/store-testkit/vitest";
import { describe, expect, it, vi } from "vitest";
import { createIdbStore, IdbStore } from "../src/index.js";

let databases = 0;
const freshStore = () =>
  createIdbStore({ database: `bintrie-idb-review-${databases++}`, storeName: "nodes" });
const b = (...bytes: number[]) => Uint8Array.from(bytes);
const plain = (values: (Uint8Array | undefined)[]) => values.map((v) => v && [...v]);

describe("IdbStore takes its arguments at call time (review)", () => {
  it("batch: changing the keys, values or the array before it resolves changes nothing stored", async () => {
    const store = freshStore();
    const ops: BatchOperation[] = [1, 2, 3].map((k) => ({
      type: "put",
      key: b(k),
      value: new Uint8Array(4).fill(k),
    }));
    const written = store.batch(ops);
    for (const op of ops) {
      op.key[0] = op.key[0]! + 10;
      if (op.type === "put") op.value.fill(9);
    }
    // A value that is not bytes slipped in after validation must not reach the store either.
    ops.push({ type: "put", key: b(4), value: "text" as unknown as Uint8Array });
    await written;
    expect(plain(await store.getMany([b(1), b(2), b(3), b(4), b(11), b(12), b(13)]))).toEqual([
      [1, 1, 1, 1],
      [2, 2, 2, 2],
      [3, 3, 3, 3],
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
    await store.close();
  });

  it("get and getMany read the keys as they were at call time", async () => {
    const store = freshStore();
    await store.batch([1, 2, 3, 4].map((k) => ({ type: "put" as const, key: b(k), value: b(k) })));
    await store.close();
    // A new connection: the reads wait for the database to open, past the end of the call.
    const again = createIdbStore({ database: store.database, storeName: store.storeName });
    const key = b(1);
    const one = again.get(key);
    key[0] = 4;
    const keys = [b(1), b(2)];
    const many = again.getMany(keys);
    keys[0]![0] = 4;
    keys.push(b(3));
    expect(plain([await one])).toEqual([[1]]);
    expect(plain(await many)).toEqual([[1], [2]]);
    await again.close();
  });
  it("copies Node Buffers too (their slice() is a view): exact-size values, keys taken at call time", async () => {
    const store = freshStore();
    const key = Buffer.from([7]);
    const value = Buffer.from([1, 2, 3]); // a view into Node's shared 8 KiB pool
    const written = store.batch([{ type: "put", key, value }]);
    key[0] = 8;
    value.fill(9);
    await written;
    const read = await store.get(b(7));
    expect(plain([read])).toEqual([[1, 2, 3]]);
    expect(read!.buffer.byteLength).toBe(3);
    expect(await store.get(b(8))).toBeUndefined();
    await store.close();
  });
});

describe("IdbStore arguments and close (review)", () => {
  it("getMany of something that is not an array, and entries of a range that is not an object, are INVALID_ARGUMENT", async () => {
    const store = freshStore();
    for (const keys of [null, undefined, 5]) {
      const error = await expectStoreError(
        store.getMany(keys as unknown as Uint8Array[]),
        "INVALID_ARGUMENT",
      );
      expect(error.message).toMatch(/^getMany: keys must be an array/);
    }
    for (const range of [null, 5]) {
      const error = await expectStoreError(
        collectEntries(store.entries(range as unknown as { gte?: Uint8Array })),
        "INVALID_ARGUMENT",
      );
      expect(error.message).toMatch(/^entries: range must be \{ gte\?, lt\? \}/);
    }
    await store.close();
  });

  it("createIdbStore and the IdbStore constructor refuse anything else with INVALID_ARGUMENT", () => {
    const invalid = expect.objectContaining({ name: "StoreError", code: "INVALID_ARGUMENT" });
    expect(() => createIdbStore({ database: Object.create(null), storeName: "x" })).toThrow(
      invalid,
    );
    expect(() =>
      createIdbStore({ database: "x", storeName: Symbol("s") as unknown as string }),
    ).toThrow(/storeName must be a non-empty string, got a symbol/);
    expect(
      () => new IdbStore(null as unknown as { database: string; storeName: string }, null as never),
    ).toThrow(invalid);
  });

  it("close() of a store no call has used creates no database", async () => {
    const store = freshStore();
    await store.close();
    expect((await indexedDB.databases()).map((d) => d.name)).not.toContain(store.database);
    await expectStoreError(store.get(b(1)), "STORE_CLOSED");
  });

  it("close() after a NotFoundError (a database without this object store) closes the connection", async () => {
    const database = `bintrie-idb-review-notfound-${databases++}`;
    const a = createIdbStore({ database, storeName: "a" });
    await a.batch([{ type: "put", key: b(1), value: b(1) }]);
    await a.close();
    const other = createIdbStore({ database, storeName: "b" });
    await expectStoreError(other.get(b(1)), "STORE_IO");
    await other.close();
    // No connection is left open, so deleting (or upgrading) the database is not blocked.
    const outcome = await new Promise<string>((resolve, reject) => {
      const request = indexedDB.deleteDatabase(database);
      request.onblocked = () => resolve("blocked");
      request.onsuccess = () => resolve("deleted");
      request.onerror = () => reject(request.error);
    });
    expect(outcome).toBe("deleted");
  });

  it("a second close() called while the first runs resolves only once the connection is closed", async () => {
    const store = freshStore();
    await store.batch([{ type: "put", key: b(1), value: b(1) }]);
    const closes = vi.spyOn(IDBDatabase.prototype, "close");
    try {
      const first = store.close();
      await store.close();
      expect(closes).toHaveBeenCalledTimes(1);
      await first;
      await store.close();
      expect(closes).toHaveBeenCalledTimes(1);
    } finally {
      closes.mockRestore();
    }
  });
});
