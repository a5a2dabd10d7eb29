// Dev tool: block phase breakdown (node bench/phase-block.mjs N BLOCKS)
const cpuMs = () => {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1000;
};

import { BinaryTree, MemoryStore } from "@bintrie/core";
import { workload } from "./rows/workload.mjs";

const n = Number(process.argv[2] ?? 200_000);
const blocks = Number(process.argv[3] ?? 20);
const { key, value } = workload(n, 0);
const store = new MemoryStore();
const tree = new BinaryTree({ groupDepth: 5, store });
for (let i = 0; i < n; i++) tree.put(key(i), value(i));
await tree.persist();
let seed = 12345;
const rand = () => {
  seed = (seed * 1103515245 + 12345) >>> 0;
  return seed / 2 ** 32;
};
const mk = () => {
  const ks = [];
  for (let u = 0; u < 900; u++) ks.push(key(Math.floor(rand() * n)));
  for (let u = 0; u < 100; u++) ks.push(Uint8Array.from({ length: 32 }, () => (rand() * 256) | 0));
  return ks;
};
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
