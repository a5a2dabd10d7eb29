// Dev A/B: the tail of the block time — the random block (900 updates, 100 new keys, hash,
// persist to a MemoryStore) on two builds of @bintrie/core in one process, alternating block by
// block. Usage: node bench/block-tail.mjs DIST_A DIST_B [N] [BLOCKS]. Prints, per build, the
// median, p99 and max of the whole block's wall time and of its persist() alone over the blocks
// after the first WARM (3: their JIT warm-up, reported apart as warm_max_*), and the block with
// the max.
// A store that stops the world now and then (a table rebuild) shows in max and p99, not in the
// median. TAIL_TRACE=1 prints each block's figures to stderr.
import { blockKeyGenerator, workload } from "./rows/workload.mjs";
import { committedTrees, loadTwoBuilds, median } from "./two-builds.mjs";

const { libs, n, blocks } = await loadTwoBuilds("block-tail.mjs");
const { key, value } = workload(n, 0);
const trees = await committedTrees(libs, key, value, n);
const blockKeys = blockKeyGenerator(key, n);
/** Blocks left out of the figures: the JIT's warm-up (a build's first blocks vary most). */
const WARM = 3;
const res = trees.map(() => ({ total: [], persist: [] }));
const v = new Uint8Array(32);
for (let b = 0; b < blocks; b++) {
  const ks = blockKeys();
  const roots = [];
  for (const t of b % 2 === 0 ? [0, 1] : [1, 0]) {
    const tree = trees[t];
    const t0 = performance.now();
    for (const k of ks) {
      v[0] = b;
      v[1] = k[3];
      tree.put(k, v);
    }
    roots[t] = Buffer.from(tree.hash()).toString("hex");
    const t1 = performance.now();
    await tree.persist();
    const t2 = performance.now();
    res[t].total.push(t2 - t0);
    res[t].persist.push(t2 - t1);
    if (process.env.TAIL_TRACE) console.error(b, t, (t2 - t0).toFixed(2), (t2 - t1).toFixed(2));
  }
  if (roots[0] !== roots[1]) throw new Error(`block ${b}: roots differ`);
}
/** The value at quantile q of xs (nearest rank). */
const quantile = (xs, q) =>
  [...xs].sort((x, y) => x - y)[Math.min(xs.length - 1, Math.ceil(q * xs.length) - 1)];
const out = { n, blocks };
for (const [s, side] of [
  [0, "a"],
  [1, "b"],
]) {
  for (const p of ["total", "persist"]) {
    const xs = res[s][p].slice(WARM);
    out[`${p}_warm_max_ms_${side}`] = Math.max(...res[s][p].slice(0, WARM));
    out[`${p}_median_ms_${side}`] = median(xs);
    out[`${p}_p99_ms_${side}`] = quantile(xs, 0.99);
    out[`${p}_max_ms_${side}`] = Math.max(...xs);
    out[`${p}_max_block_${side}`] = WARM + xs.indexOf(Math.max(...xs));
  }
}
console.log(JSON.stringify(out));
