// The dev tools' block workload: a committed tree of the shared workload, then blocks of 900
// updates of existing keys and 100 new random keys from a fixed-seed generator.
import { BinaryTree, MemoryStore } from "@bintrie/core";
import { blockKeyGenerator, workload } from "./workload.mjs";

/**
 * A committed `n`-key tree (group depth 5, MemoryStore, `options` added to the tree's) and a
 * generator of block keys (the same sequence for every tree made here).
 */
export async function committedTreeWithBlocks(n, options = {}) {
  const { key, value } = workload(n, 0);
  const store = new MemoryStore();
  const tree = new BinaryTree({ groupDepth: 5, store, ...options });
  for (let i = 0; i < n; i++) tree.put(key(i), value(i));
  await tree.persist();
  const blockKeys = blockKeyGenerator(key, n);
  return { tree, store, blockKeys };
}
