// The dev A/B tools' common start: two builds of @bintrie/core given as dist folders on the
// command line (`node bench/<script> DIST_A DIST_B [N] [BLOCKS]`), loaded into one process.
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";

/** Parses DIST_A DIST_B [N] [BLOCKS] (usage printed as `script`'s) and imports both builds. */
export async function loadTwoBuilds(script) {
  const [distA, distB] = [process.argv[2], process.argv[3]];
  if (distA === undefined || distB === undefined) {
    console.error(`usage: node bench/${script} DIST_A DIST_B [N] [BLOCKS]`);
    process.exit(2);
  }
  const load = (dist) => import(pathToFileURL(resolve(dist, "index.js")).href);
  return {
    libs: [await load(distA), await load(distB)],
    n: Number(process.argv[4] ?? 200_000),
    blocks: Number(process.argv[5] ?? 30),
  };
}

/** The upper middle of `xs` (both tools' per-block medians). */
export const median = (xs) => [...xs].sort((x, y) => x - y)[xs.length >> 1];

/**
 * One committed tree per build: the shared workload's first `n` keys put into
 * `new BinaryTree({ groupDepth: 5 })` over a MemoryStore of the same build, and persisted.
 */
export async function committedTrees(libs, key, value, n) {
  const trees = [];
  for (const lib of libs) {
    const tree = new lib.BinaryTree({ groupDepth: 5, store: new lib.MemoryStore() });
    for (let i = 0; i < n; i++) tree.put(key(i), value(i));
    await tree.persist();
    trees.push(tree);
  }
  return trees;
}
