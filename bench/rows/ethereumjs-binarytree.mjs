// Row: @ethereumjs/binarytree 10.1.3 (library defaults: MapDB, no cache) with noble sha256,
// on the shared workload. Usage: node rows/ethereumjs-binarytree.mjs N [UPDATES] [--no-get]
// (--no-get, for `pnpm bench --quick`: skips the N reads, a fifth of the row's time).
import { createBinaryTree } from "@ethereumjs/binarytree";
import { sha256 } from "@noble/hashes/sha2.js";
import { startGcMeter } from "./gc-meter.mjs";
import { hex, workload } from "./workload.mjs";

const n = Number(process.argv[2] ?? 10000);
const u = Number(process.argv[3] ?? 1000);
const { key, value, updates } = workload(n, u);
const res = {
  impl: "@ethereumjs/binarytree",
  row: "tree",
  n,
  hash: "sha256",
  updates: u,
  node: process.version,
};
// Warm-up (untimed, discarded), like our row: 1,000 keys are enough to get its code optimised.
{
  const warmN = Math.min(n, 1000);
  res.warmup_keys = warmN;
  res.warmup_passes = 2;
  for (let pass = 0; pass < res.warmup_passes; pass++) {
    const warm = await createBinaryTree({ hashFunction: sha256 });
    for (let i = 0; i < warmN; i++)
      await warm.put(key(i).subarray(0, 31), [key(i)[31]], [value(i)]);
    warm.root();
  }
}
const tree = await createBinaryTree({ hashFunction: sha256 });
const gc = startGcMeter();
let t = performance.now();
for (let i = 0; i < n; i++) await tree.put(key(i).subarray(0, 31), [key(i)[31]], [value(i)]);
res.insert_ms = performance.now() - t;
t = performance.now();
const root = tree.root();
res.root_ms = performance.now() - t;
Object.assign(res, await gc.stop());
res.insert_root_ms = res.insert_ms + res.root_ms;
res.gc_share = res.gc_ms / res.insert_root_ms;
res.insert_ops_s = n / (res.insert_root_ms / 1000);
res.root = hex(root);
if (!process.argv.includes("--no-get")) {
  t = performance.now();
  let bad = 0;
  for (let i = 0; i < n; i++) {
    const [v] = await tree.get(key(i).subarray(0, 31), [key(i)[31]]);
    if (!v || Buffer.compare(v, value(i)) !== 0) bad++;
  }
  res.get_ms = performance.now() - t;
  res.get_ops_s = n / (res.get_ms / 1000);
  res.get_mismatches = bad;
}
if (u > 0) {
  t = performance.now();
  for (const [j, v] of updates) await tree.put(key(j).subarray(0, 31), [key(j)[31]], [v]);
  res.root_after_updates = hex(tree.root());
  res.update_ms = performance.now() - t;
  res.update_ops_s = u / (res.update_ms / 1000);
}
res.rss_end_MB = process.memoryUsage().rss / 2 ** 20;
console.log(JSON.stringify(res));
