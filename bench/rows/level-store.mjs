// Row: @bintrie/core + @bintrie/store-level on disk: persist a tree of the shared workload (one
// atomic LevelDB batch), then reopen and read 10k keys cold. Usage: node rows/level-store.mjs N
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BinaryTree, openTree } from "@bintrie/core";
import { openLevelStore } from "@bintrie/store-level";
import { hex, workload } from "./workload.mjs";

const n = Number(process.argv[2] ?? 100_000);
const { key, value } = workload(n, 0);
const dir = mkdtempSync(join(tmpdir(), "bintrie-bench-level-"));
const res = { impl: "@bintrie/store-level", row: "level-store", n, node: process.version };
try {
  const store = await openLevelStore(dir);
  const tree = new BinaryTree({ store });
  for (let i = 0; i < n; i++) tree.put(key(i), value(i));
  let t = performance.now();
  const set = tree.commit();
  res.commit_ms = performance.now() - t;
  const ops = tree.nodeSetOperations(set);
  res.nodes = set.writes.length;
  res.bytes = set.writes.reduce((s, w) => s + w.blob.length, 0);
  t = performance.now();
  await store.batch(ops);
  res.batch_ms = performance.now() - t;
  res.batch_nodes_s = res.nodes / (res.batch_ms / 1000);
  res.batch_MiB_s = res.bytes / 2 ** 20 / (res.batch_ms / 1000);
  res.root = hex(set.root);
  await store.close();

  const again = await openLevelStore(dir);
  t = performance.now();
  const reopened = await openTree(again);
  res.reopen_ms = performance.now() - t;
  const sample = Array.from({ length: 10_000 }, (_, i) => key(i));
  t = performance.now();
  const got = await reopened.getMany(sample);
  res.get_10k_cold_ms = performance.now() - t;
  res.get_cold_keys_s = sample.length / (res.get_10k_cold_ms / 1000);
  res.get_mismatches = got.filter(
    (v, i) => v === undefined || Buffer.compare(v, value(i)) !== 0,
  ).length;
  await again.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
console.log(JSON.stringify(res));
