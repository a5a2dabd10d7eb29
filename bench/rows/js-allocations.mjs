// Row: what the library allocates on the JS heap in the paths the goals time, per node: the 1M
// puts + hash() (per key), the full commit() that follows (per node written) and update blocks
// on that tree (1000 writes, hash(), commit(); per node written, the first WARM_BLOCKS left
// out: code still unoptimised boxes numbers). The arena's typed arrays are not JS heap; what is
// counted is garbage per node (views, boxed numbers), which the collector then has to sweep.
// Measured with V8's sampling heap profiler, objects freed by either collector included, and
// only allocations made by the library's own code (the nearest frame with a script in
// packages/core or packages/codec): the benchmark's own key views are left out.
// Usage: node rows/js-allocations.mjs [N] [BLOCKS]
import { Session } from "node:inspector/promises";
import { BinaryTree } from "@bintrie/core";
import { workload } from "./workload.mjs";

const n = Number(process.argv[2] ?? 1_000_000);
const blocks = Number(process.argv[3] ?? 10);
const WARM_BLOCKS = 3;
// Bytes between samples: a sample stands for about this many bytes (unbiased, Poisson).
const SAMPLING_BYTES = 1024;
const { key, value, updates } = workload(n, 1000);
/** Script URLs of the library's own code (the workspace's builds of core and codec). */
const OWN = /\/packages\/(core|codec)\//;

const session = new Session();
session.connect();
await session.post("HeapProfiler.enable");

/** Bytes allocated by the library's own code while `run` runs. */
async function ownBytes(run) {
  await session.post("HeapProfiler.startSampling", {
    samplingInterval: SAMPLING_BYTES,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  });
  run();
  const { profile } = await session.post("HeapProfiler.stopSampling");
  let bytes = 0;
  // Builtins (a subarray, a boxed number) have no script: they count for the frame calling them.
  const walk = (node, callerOwn) => {
    const url = node.callFrame.url;
    const isOwn = url === "" ? callerOwn : OWN.test(url);
    if (isOwn) bytes += node.selfSize;
    for (const child of node.children) walk(child, isOwn);
  };
  walk(profile.head, false);
  return bytes;
}

const tree = new BinaryTree({ groupDepth: 5 });
const insertBytes = await ownBytes(() => {
  for (let i = 0; i < n; i++) tree.put(key(i), value(i));
  tree.hash();
});
// The node sets' writes are counted after each window: `writes` builds an object per write.
let fullSet;
const fullCommitBytes = await ownBytes(() => {
  fullSet = tree.commit();
});
const fullCommitWrites = fullSet.writes.length;
const value32 = new Uint8Array(32);
let blockWrites = 0;
let blockBytes = 0;
for (let b = 0; b < WARM_BLOCKS + blocks; b++) {
  let set;
  const bytes = await ownBytes(() => {
    for (const [j, v] of updates) {
      value32.set(v);
      value32[0] ^= b;
      tree.put(key(j), value32);
    }
    tree.hash();
    set = tree.commit();
  });
  if (b < WARM_BLOCKS) continue;
  blockWrites += set.writes.length;
  blockBytes += bytes;
}
session.disconnect();

console.log(
  JSON.stringify({
    row: "js_allocations",
    n,
    blocks,
    node: process.version,
    sampling_bytes: SAMPLING_BYTES,
    insert_root_MB: insertBytes / 2 ** 20,
    insert_root_bytes_per_key: insertBytes / n,
    full_commit_MB: fullCommitBytes / 2 ** 20,
    full_commit_writes: fullCommitWrites,
    full_commit_bytes_per_write: fullCommitBytes / fullCommitWrites,
    block_kB: blockBytes / blocks / 1024,
    block_writes: blockWrites / blocks,
    block_bytes_per_write: blockBytes / blockWrites,
  }),
);
