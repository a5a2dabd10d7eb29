// Dev tool: block phase breakdown (node bench/phase-block.mjs N BLOCKS)

import { committedTreeWithBlocks } from "./rows/random-blocks.mjs";
import { cpuMs } from "./rows/workload.mjs";

const n = Number(process.argv[2] ?? 200_000);
const blocks = Number(process.argv[3] ?? 20);
const { tree, store, blockKeys: mk } = await committedTreeWithBlocks(n);
const ph = { put_hash: [], commit: [], ops: [], batch: [], total: [] };
const v = new Uint8Array(32);
for (let b = 0; b < blocks + 5; b++) {
  const ks = mk();
  const t0 = cpuMs();
  for (const k of ks) {
    v[0]++;
    tree.put(k, v);
  }
  tree.hash();
  const t1 = cpuMs();
  const set = tree.commit();
  const t2 = cpuMs();
  const ops = tree.nodeSetOperations(set);
  const t3 = cpuMs();
  await store.batch(ops);
  const t4 = cpuMs();
  if (b < 5) continue;
  ph.put_hash.push(t1 - t0);
  ph.commit.push(t2 - t1);
  ph.ops.push(t3 - t2);
  ph.batch.push(t4 - t3);
  ph.total.push(t4 - t0);
}
const med = (a) => a.sort((x, y) => x - y)[a.length >> 1].toFixed(2);
console.log(Object.fromEntries(Object.entries(ph).map(([k, a]) => [k, med(a)])));
