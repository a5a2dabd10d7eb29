// Dev A/B: the store side of persist alone — a block's span puts and orphan deletes applied to
// the MemoryStores of two builds of @bintrie/core holding the same committed tree, alternating
// which goes first block by block. Usage: node bench/span-batch.mjs DIST_A DIST_B [N] [BLOCKS]
// (DIST_* is a core dist folder). The tree is built with B; its full persist and every block's
// node set go to both stores, so both tables hold the same entries in the same order.
// Prints CPU-ms medians of A and B for the span puts and the deletes, the first block's figures
// (cold: right after the full persist) and the median of the per-block B/A ratios. SPAN_TRACE=1
// prints each block's figures to stderr; SPAN_PROFILE=FILE writes a .cpuprofile of the blocks.
import { writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";
import { blockKeyGenerator, cpuMs, workload } from "./rows/workload.mjs";
import { loadTwoBuilds, median } from "./two-builds.mjs";

const { libs, n, blocks } = await loadTwoBuilds("span-batch.mjs");
const stores = libs.map((lib) => new lib.MemoryStore());

/** Forwards every write to both stores (reads from the first). */
class TeeStore {
  get(key) {
    return stores[0].get(key);
  }
  getMany(keys) {
    return stores[0].getMany(keys);
  }
  async batch(ops) {
    for (const s of stores) await s.batch(ops);
  }
  async batchWithSpans(ops, puts, at) {
    for (const s of stores) await s.batchWithSpans(ops, puts, at);
  }
  async close() {}
}

const { key, value } = workload(n, 0);
const tree = new libs[1].BinaryTree({ groupDepth: 5, store: new TeeStore() });
for (let i = 0; i < n; i++) tree.put(key(i), value(i));
await tree.persist();
const blockKeys = blockKeyGenerator(key, n);
const res = stores.map(() => ({ spans: [], deletes: [] }));
const v = new Uint8Array(32);
let puts = 0;
let deletes = 0;
const profile = process.env.SPAN_PROFILE;
const session = profile ? new Session() : undefined;
if (session) {
  session.connect();
  await session.post("Profiler.enable");
  await session.post("Profiler.setSamplingInterval", { interval: 50 });
  await session.post("Profiler.start");
}
for (let b = 0; b < blocks; b++) {
  for (const k of blockKeys()) {
    v[0] = b;
    v[1] = k[3];
    tree.put(k, v);
  }
  tree.hash();
  const set = tree.commit();
  const dels = tree.nodeSetOperations(set).filter((op) => op.type === "del");
  const spans = { chunks: set.chunks, spans: set.entries, count: set.count };
  puts += set.count;
  deletes += dels.length;
  for (const s of b % 2 === 0 ? [0, 1] : [1, 0]) {
    const c0 = cpuMs();
    await stores[s].batchWithSpans([], spans, 0);
    const c1 = cpuMs();
    await stores[s].batch(dels);
    const c2 = cpuMs();
    res[s].spans.push(c1 - c0);
    if (process.env.SPAN_TRACE)
      console.error(b, s, set.count, dels.length, (c1 - c0).toFixed(2), (c2 - c1).toFixed(2));
    res[s].deletes.push(c2 - c1);
  }
}
if (session) {
  const { profile: data } = await session.post("Profiler.stop");
  writeFileSync(profile, JSON.stringify(data));
}
if (stores[0].size !== stores[1].size) throw new Error("the stores differ in size");
const out = {
  n,
  blocks,
  entries: stores[1].size,
  puts_per_block: Math.round(puts / blocks),
  deletes_per_block: Math.round(deletes / blocks),
};
for (const p of ["spans", "deletes"]) {
  out[`${p}_cold_ms_a`] = res[0][p][0];
  out[`${p}_cold_ms_b`] = res[1][p][0];
  out[`${p}_ms_a`] = median(res[0][p].slice(1));
  out[`${p}_ms_b`] = median(res[1][p].slice(1));
  out[`${p}_b_over_a`] = median(res[0][p].slice(1).map((x, i) => res[1][p][i + 1] / x));
}
console.log(JSON.stringify(out));
