// In a browser, `level` resolves to browser-level: the location names an IndexedDB database.
import { BinaryTree, openTree } from "@bintrie/core";
import { openLevelStore } from "@bintrie/store-level";

const store = await openLevelStore("bintrie-try");
const tree = new BinaryTree({ store });
tree.put(new Uint8Array(32).fill(7), new Uint8Array(32).fill(9));
const root = await tree.persist();
const reopened = await openTree(store);
console.log(reopened.hash().join() === root.join());
