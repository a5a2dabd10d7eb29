// Dev A/B: the random block on two builds of @bintrie/core in one process, alternating block by
// block, so both see the same machine (on a shared host, fresh processes minutes apart differ by
// more than most changes). Usage: node bench/ab-builds.mjs DIST_A DIST_B [N] [BLOCKS]
// (DIST_* is a core dist folder, e.g. a copy of packages/core/dist taken before a change).
// Prints the medians of A and B and the median of the per-block B/A ratios. Both trees share the
// process's allocator and garbage collector, so effects on either are split between the two.
import { blockKeyGenerator, cpuMs, workload } from "./rows/workload.mjs";
import { committedTrees, loadTwoBuilds, median } from "./two-builds.mjs";

const { libs, n, blocks } = await loadTwoBuilds("ab-builds.mjs");
const { key, value } = workload(n, 0);
const trees = await committedTrees(libs, key, value, n);
// 900 updates of existing keys and 100 new keys per block, as the other dev tools.
const blockKeys = blockKeyGenerator(key, n);
// put_hash_cpu: the process's CPU time over put + hash (a shared host's preemption left out).
const phases = ["write", "hash", "put_hash", "put_hash_cpu", "persist", "total"];
const res = trees.map(() => Object.fromEntries(phases.map((p) => [p, []])));
const v = new Uint8Array(32);
const warm = 5;
for (let b = 0; b < blocks + warm; b++) {
  const ks = blockKeys();
  const roots = [];
  for (const t of b % 2 === 0 ? [0, 1] : [1, 0]) {
    const tree = trees[t];
    const c0 = cpuMs();
    const t0 = performance.now();
    for (const k of ks) {
      v[0] = b;
      v[1] = k[3];
      tree.put(k, v);
    }
    const tw = performance.now();
    roots[t] = Buffer.from(tree.hash()).toString("hex");
    const t1 = performance.now();
    const c1 = cpuMs();
    await tree.persist();
    const t2 = performance.now();
    if (b >= warm) {
      res[t].write.push(tw - t0);
      res[t].hash.push(t1 - tw);
      res[t].put_hash.push(t1 - t0);
      res[t].put_hash_cpu.push(c1 - c0);
      res[t].persist.push(t2 - t1);
      res[t].total.push(t2 - t0);
    }
  }
  if (roots[0] !== roots[1]) throw new Error(`block ${b}: roots differ`);
}
const out = { n, blocks };
for (const p of phases) {
  out[`${p}_ms_a`] = median(res[0][p]);
  out[`${p}_ms_b`] = median(res[1][p]);
  out[`${p}_b_over_a`] = median(res[0][p].map((x, i) => res[1][p][i] / x));
}
console.log(JSON.stringify(out));
