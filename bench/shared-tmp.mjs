import { BinaryTree, MemoryStore } from "@bintrie/core";
import { workload, blockKeyGenerator } from "/work/main/bench/rows/workload.mjs";
const n = Number(process.argv[2] ?? 1_000_000);
const { key, value } = workload(n, 0);
{ const warm = new BinaryTree({ groupDepth: 5, store: new MemoryStore() });
  for (let i = 0; i < 100_000; i++) warm.put(key(i), value(i)); warm.hash(); await warm.persist(); }
const store = new MemoryStore();
const tree = new BinaryTree({ groupDepth: 5, store });
for (let i = 0; i < n; i++) tree.put(key(i), value(i));
tree.hash();
await tree.persist();
const mk = blockKeyGenerator(key, n);
const v = new Uint8Array(32);
const times = [];
for (let b = 0; b < 12; b++) {
  const ks = mk();
  console.log(`=== BLOCK ${b}`);
  const t = performance.now();
  for (const k of ks) { v[0]++; tree.put(k, v); }
  tree.hash();
  console.log(`=== PERSIST ${b}`);
  await tree.persist();
  times.push(+(performance.now() - t).toFixed(2));
}
console.log("=== END", JSON.stringify(times));
