// Dev tool: the persist side of the random block split in its steps (CPU ms, medians):
// commit() (collection + marks) and the store's span batch of its node set.
// Usage: node bench/persist-split.mjs [N] [BLOCKS]
import { committedTreeWithBlocks } from "./rows/random-blocks.mjs";
import { cpuMs } from "./rows/workload.mjs";

const n = Number(process.argv[2] ?? 200_000);
const blocks = Number(process.argv[3] ?? 20);
const { tree, store, blockKeys } = await committedTreeWithBlocks(n);
const ph = { put_hash: [], collect: [], spans: [], persist: [] };
const v = new Uint8Array(32);
for (let b = 0; b < blocks + 5; b++) {
  const ks = blockKeys();
  const t0 = cpuMs();
  for (const k of ks) {
    v[0]++;
    tree.put(k, v);
  }
  tree.hash();
  const t1 = cpuMs();
  let t2;
  let t3;
  if (b % 2 === 0) {
    const set = tree.commit();
    t2 = cpuMs();
    // The orphan deletes as persist writes them (store keys), beside the span puts.
    const ops =
      set.deletes.length === 0 ? [] : tree.nodeSetOperations(set).filter((op) => op.type === "del");
    const t2b = cpuMs();
    await store.batchWithSpans(
      ops,
      { chunks: set.chunks, spans: set.entries, count: set.count },
      ops.length,
    );
    t3 = cpuMs() - (t2b - t2);
  } else {
    await tree.persist();
    t2 = t3 = cpuMs();
  }
  if (b < 5) continue;
  ph.put_hash.push(t1 - t0);
  if (b % 2 === 0) {
    ph.collect.push(t2 - t1);
    ph.spans.push(t3 - t2);
  } else ph.persist.push(t3 - t1);
}
const med = (a) => [...a].sort((x, y) => x - y)[a.length >> 1].toFixed(2);
console.log(JSON.stringify(Object.fromEntries(Object.entries(ph).map(([k, a]) => [k, med(a)]))));
