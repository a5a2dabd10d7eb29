// Row: @bintrie/core BinaryTree on the shared workload.
// Usage: node rows/bintrie-tree.mjs N [sha256|blake3] [UPDATES]
import { BinaryTree, getHasher } from "@bintrie/core";
import { startGcMeter } from "./gc-meter.mjs";
import { countingHasher, measureBatchNs } from "./kernel-floor.mjs";
import { hex, workload } from "./workload.mjs";

const n = Number(process.argv[2] ?? 10000);
const hashName = process.argv[3] ?? "sha256";
const u = Number(process.argv[4] ?? 1000);
const scheme = hashName === "blake3" ? "blake3-be" : "sha256-be";
const { key, value, updates } = workload(n, u);
const hasher = getHasher(hashName);
const res = {
  impl: "@bintrie/core",
  row: "tree",
  n,
  hash: hashName,
  updates: u,
  node: process.version,
};

// Warm-up (untimed, discarded): the first pass of a cold process runs interpreted JS and
// baseline wasm; both rows (ours and the peer's) warm up before timing. The cold figure is kept.
{
  const warmN = Math.min(n, 100_000);
  res.warmup_keys = warmN;
  // Enough passes to reach optimised code at every size (about 0.2 s of warm-up at 10k).
  res.warmup_passes = Math.max(1, Math.min(10, Math.ceil(1_000_000 / n)));
  for (let pass = 0; pass < res.warmup_passes; pass++) {
    const started = performance.now();
    const warm = new BinaryTree({ scheme, hasher });
    for (let i = 0; i < warmN; i++) warm.put(key(i), value(i));
    warm.hash();
    if (pass === 0) res.cold_insert_root_ms_first_pass = performance.now() - started;
  }
}

// The kernel's cost per message, here and again after the timed work; the lower one is the
// floor (one reading during a slow spell of a shared host would inflate it).
const kernelBefore = { 32: measureBatchNs(hasher, 32), 64: measureBatchNs(hasher, 64) };

const rssBefore = process.memoryUsage().rss;
const abBefore = process.memoryUsage().arrayBuffers;
const tree = new BinaryTree({ scheme, hasher });
const gc = startGcMeter();
let t = performance.now();
for (let i = 0; i < n; i++) tree.put(key(i), value(i));
res.insert_ms = performance.now() - t;
t = performance.now();
const root = tree.hash();
res.root_ms = performance.now() - t;
Object.assign(res, await gc.stop());
res.insert_root_ms = res.insert_ms + res.root_ms;
res.gc_share = res.gc_ms / res.insert_root_ms;
res.insert_ops_s = n / (res.insert_root_ms / 1000);
res.root = hex(root);

const stats = tree.stats();
res.stems = stats.stem;
res.internal_nodes = stats.internal;
res.arena_bytes = stats.arenaBytes;
res.bytes_per_stem = stats.arenaBytes / stats.stem;
const mem = process.memoryUsage();
res.rss_delta_MB = (mem.rss - rssBefore) / 2 ** 20;
res.array_buffers_per_stem = (mem.arrayBuffers - abBefore) / stats.stem;

t = performance.now();
let bad = 0;
for (let i = 0; i < n; i++) {
  const v = tree.get(key(i));
  if (v === undefined || Buffer.compare(v, value(i)) !== 0) bad++;
}
res.get_ms = performance.now() - t;
res.get_ops_s = n / (res.get_ms / 1000);
res.get_mismatches = bad;

// The goal's setting: updates on a committed tree, then root and commit.
t = performance.now();
const fullCommit = tree.commit();
res.full_commit_ms = performance.now() - t;
res.full_commit_writes = fullCommit.writes.length;

if (u > 0) {
  t = performance.now();
  for (const [j, v] of updates) tree.put(key(j), v);
  const root2 = tree.hash();
  res.update_ms = performance.now() - t;
  const set = tree.commit();
  res.update_commit_ms = performance.now() - t;
  res.update_commit_writes = set.writes.length;
  res.update_ops_s = u / (res.update_ms / 1000);
  res.root_after_updates = hex(root2);
}

// Hash floor: the messages this workload must hash, at the kernel's batch speed.
const counted = countingHasher(hasher);
const replay = new BinaryTree({ scheme, hasher: counted.hasher });
for (let i = 0; i < n; i++) replay.put(key(i), value(i));
replay.hash();
const insertCounts = { ...counted.counts };
counted.counts.m32 = 0;
counted.counts.m64 = 0;
for (const [j, v] of updates) replay.put(key(j), v);
replay.hash();
const ns32 = Math.min(kernelBefore[32], measureBatchNs(hasher, 32));
const ns64 = Math.min(kernelBefore[64], measureBatchNs(hasher, 64));
res.kernel_ns_32 = ns32;
res.kernel_ns_64 = ns64;
res.messages_32 = insertCounts.m32;
res.messages_64 = insertCounts.m64;
res.hash_floor_ms = (insertCounts.m32 * ns32 + insertCounts.m64 * ns64) / 1e6;
res.wall_over_hash_floor = res.insert_root_ms / res.hash_floor_ms;
if (u > 0) {
  res.update_messages_32 = counted.counts.m32;
  res.update_messages_64 = counted.counts.m64;
  res.update_hash_floor_ms = (counted.counts.m32 * ns32 + counted.counts.m64 * ns64) / 1e6;
  res.update_over_hash_floor = res.update_ms / res.update_hash_floor_ms;
  res.update_commit_over_hash_floor = res.update_commit_ms / res.update_hash_floor_ms;
}
res.rss_end_MB = process.memoryUsage().rss / 2 ** 20;
console.log(JSON.stringify(res));
