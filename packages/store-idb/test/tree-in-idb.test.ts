import "fake-indexeddb/auto";
import { decodeNode, NODE_KEY_PREFIX } from "@bintrie/codec";
import { BinaryTree, openTree, TreeError } from "@bintrie/core";
import { hex } from "@bintrie/store-testkit";
import { random1000Checkpoints, sharedWorkload } from "@bintrie/store-testkit/node";
import { describe, expect, it, vi } from "vitest";
import { createIdbStore } from "../src/index.js";

const N = 1000;
const { keys, values } = sharedWorkload(N);
const expected = random1000Checkpoints().find((c) => c.inserted === N)!.expected_root;

describe("trees in IndexedDB (fake-indexeddb)", () => {
  it("persists the shared 1,000-key workload in one write transaction and reopens it from a new connection", async () => {
    const location = { database: "bintrie-tree-1000", storeName: "nodes" };
    const store = createIdbStore(location);
    const tree = new BinaryTree({ store });
    for (let i = 0; i < N; i++) tree.put(keys[i]!, values[i]!);
    await store.get(Uint8Array.of(0)); // opens (and creates) the database first
    const transaction = vi.spyOn(IDBDatabase.prototype, "transaction");
    const root = await tree.persist();
    // One write transaction holds the whole commit (persist may read the root record first, to
    // refuse a store that holds a tree of another layout).
    const modes = transaction.mock.calls.map((call) => call[1]);
    expect(modes.filter((mode) => mode === "readwrite")).toEqual(["readwrite"]);
    expect(modes.filter((mode) => mode !== "readwrite" && mode !== "readonly")).toEqual([]);
    transaction.mockRestore();
    expect(`0x${hex(root)}`).toBe(expected.sha256);
    await store.close();

    const again = createIdbStore(location);
    const reopened = await openTree(again);
    expect(`0x${hex(reopened.hash())}`).toBe(expected.sha256);
    expect((await reopened.getMany(keys)).map((v) => hex(v!))).toEqual(values.map(hex));

    // A second commit (updates and new keys) lands in place and reopens just as well.
    const updates = keys.slice(0, 100).map((key, i) => ({ key, value: values[N - 1 - i]! }));
    await reopened.putMany(updates);
    const root2 = await reopened.persist();
    await again.close();
    const third = await openTree(createIdbStore(location));
    expect(hex(third.hash())).toBe(hex(root2));
    expect((await third.getMany(keys.slice(0, 100))).map((v) => hex(v!))).toEqual(
      updates.map((u) => hex(u.value)),
    );
  });

  it("refuses a node blob altered in IndexedDB with HASH_MISMATCH, and a deleted one with MISSING_NODE", async () => {
    const location = { database: "bintrie-tree-corrupt", storeName: "nodes" };
    const store = createIdbStore(location);
    const tree = new BinaryTree({ store });
    for (let i = 0; i < 200; i++) tree.put(keys[i]!, values[i]!);
    await tree.persist();
    let stem: [Uint8Array, Uint8Array] | undefined;
    for await (const [key, blob] of store.entries({ gte: NODE_KEY_PREFIX })) {
      if (key.length > 4 && decodeNode(blob).kind === "stem") stem = [key, blob];
    }
    const [nodeKey, blob] = stem!;
    const altered = blob.slice();
    altered[altered.length - 1]! ^= 0x80;
    await store.batch([{ type: "put", key: nodeKey, value: altered }]);
    const corrupt = await openTree(store);
    const mismatch = await corrupt.getMany(keys.slice(0, 200)).catch((e: unknown) => e);
    expect(mismatch).toBeInstanceOf(TreeError);
    expect((mismatch as TreeError).code).toBe("HASH_MISMATCH");
    expect((mismatch as TreeError).message).toMatch(/node at path [01]+ \(\d+ bits\)/);

    await store.batch([{ type: "del", key: nodeKey }]);
    const missing = await (await openTree(store))
      .getMany(keys.slice(0, 200))
      .catch((e: unknown) => e);
    expect((missing as TreeError).code).toBe("MISSING_NODE");
    await store.close();
  });
});
