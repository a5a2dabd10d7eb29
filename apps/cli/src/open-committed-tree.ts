import type { BinaryTree, KVStore } from "@bintrie/core";

/** The latest committed tree of `store` (its root node loaded; the rest loads on demand). */
export async function openCommittedTree(store: KVStore): Promise<BinaryTree> {
  const { openTree } = await import("@bintrie/core");
  return openTree(store);
}
