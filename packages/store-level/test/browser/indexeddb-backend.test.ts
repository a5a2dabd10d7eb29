import { BinaryTree, openTree } from "@bintrie/core";
import { describe, expect, it } from "vitest";
import { openLevelStore } from "../../src/index.js";

describe("LevelStore in Chromium", () => {
  it("lives in IndexedDB (browser-level) and hands out plain Uint8Arrays", async () => {
    const location = `bintrie-level-backend-${Date.now()}`;
    const store = await openLevelStore(location);
    await store.batch([{ type: "put", key: Uint8Array.of(1), value: Uint8Array.of(2, 3) }]);
    const value = await store.get(Uint8Array.of(1));
    expect(value?.constructor).toBe(Uint8Array);
    expect([...value!]).toEqual([2, 3]);
    const names = (await indexedDB.databases()).map((d) => d.name);
    expect(names).toContain(`level-js-${location}`);
    await store.close();
  });

  it("commits a tree and reopens it from a new handle with the same root and values", async () => {
    const location = `bintrie-level-tree-${Date.now()}`;
    const keys = Array.from({ length: 300 }, (_, i) => {
      const key = new Uint8Array(32);
      key[0] = (i * 97) & 0xff;
      key[1] = i >>> 8;
      key[31] = i & 0xff;
      return key;
    });
    const first = await openLevelStore(location);
    const tree = new BinaryTree({ store: first });
    for (const key of keys) tree.put(key, new Uint8Array(32).fill(key[0]! ^ key[31]!));
    const root = await tree.persist();
    await first.close();

    const second = await openLevelStore(location);
    const reopened = await openTree(second);
    expect([...reopened.hash()]).toEqual([...root]);
    const values = await reopened.getMany(keys);
    for (let i = 0; i < keys.length; i++) {
      expect(values[i]![0]).toBe(keys[i]![0]! ^ keys[i]![31]!);
    }
    await second.close();
  });
});
