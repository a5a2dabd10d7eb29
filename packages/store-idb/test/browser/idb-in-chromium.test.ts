import { BinaryTree, openTree } from "@bintrie/core";
import { compareBytes } from "@bintrie/core/bytes";
import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
import { createIdbStore } from "../../src/index.js";

let databases = 0;
const freshStore = () =>
  createIdbStore({ database: `bintrie-chromium-${Date.now()}-${databases++}`, storeName: "nodes" });

const hex = (bytes: Uint8Array) => [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");

describe("IdbStore in Chromium's IndexedDB", () => {
  it("orders Uint8Array keys as binary keys, byte-wise like LevelDB (property)", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(fc.uint8Array({ minLength: 0, maxLength: 5 }), {
          minLength: 1,
          maxLength: 60,
          selector: hex,
        }),
        async (keys) => {
          const store = freshStore();
          await store.batch(keys.map((key) => ({ type: "put", key, value: Uint8Array.of(1) })));
          const seen: string[] = [];
          for await (const [key] of store.entries()) seen.push(hex(key));
          expect(seen).toEqual([...keys].sort(compareBytes).map(hex));
          // Every key reads back through getMany, the empty key included.
          expect((await store.getMany(keys)).every((v) => v?.[0] === 1)).toBe(true);
          await store.close();
        },
      ),
      { numRuns: 25 },
    );
  });

  it("commits a tree in one readwrite transaction and reopens it on a new connection", async () => {
    const location = { database: `bintrie-chromium-tree-${Date.now()}`, storeName: "nodes" };
    const keys = Array.from({ length: 500 }, (_, i) => {
      const key = new Uint8Array(32);
      key[0] = (i * 131) & 0xff;
      key[1] = i >>> 8;
      key[31] = i & 0xff;
      return key;
    });
    const store = createIdbStore(location);
    await store.get(Uint8Array.of(0)); // opens (and creates) the database first
    const tree = new BinaryTree({ store });
    for (const key of keys) tree.put(key, new Uint8Array(32).fill(key[0]! ^ key[31]!));
    const transaction = vi.spyOn(IDBDatabase.prototype, "transaction");
    const root = await tree.persist();
    // The first persist reads the root record once (it refuses a store holding another
    // layout), then writes everything in one readwrite transaction.
    expect(transaction.mock.calls.map((call) => call[1])).toEqual(["readonly", "readwrite"]);
    transaction.mockRestore();
    await store.close();

    const reopened = await openTree(createIdbStore(location));
    expect(hex(reopened.hash())).toBe(hex(root));
    const values = await reopened.getMany(keys);
    values.forEach((value, i) => {
      expect(value![0]).toBe(keys[i]![0]! ^ keys[i]![31]!);
    });
  });
});
