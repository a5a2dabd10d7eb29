// In Node, IndexedDB comes from fake-indexeddb (installed next to the package for this check);
// in a browser bundle the same code uses the real one.
import "fake-indexeddb/auto";
import { BinaryTree, openTree } from "@bintrie/core";
import { createIdbStore } from "@bintrie/store-idb";

const key = new Uint8Array(32).fill(7);
const store = createIdbStore({ database: "try", storeName: "nodes" });
const tree = new BinaryTree({ store });
tree.put(key, new Uint8Array(32).fill(9));
const root = await tree.persist();
const reopened = await openTree(createIdbStore({ database: "try", storeName: "nodes" }));
const [value] = await reopened.getMany([key]);
if (value?.[0] !== 9 || reopened.hash().join() !== root.join())
  throw new Error("store-idb: reopen failed");
console.log("store-idb ok");
