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
