// Row: the geth-comparable block as a one-shot check times it. Each of RUNS fresh processes
// (`--child`, no warm-up of any kind) does, through the public API only: 1M puts into
// `new BinaryTree({ groupDepth: 5 })`, hash, commit; then the shared workload's 1,000 updates,
// hash, commit, timed. Medians over the processes. (`block.mjs` times the same block after a
// warm-up tree and a persist; this row is the first time any of that code runs.)
// Usage: node rows/first-block.mjs [RUNS] [N]
// Diagnosis (child only): node rows/first-block.mjs --child N [--prewarm=update|commit]
//   [--mark] [--profile FILE]. --prewarm runs the update path (and the update commit) on a small
//   throwaway tree first, to show what running code for the first time costs the block; --mark
//   prints hrtime markers (for --trace-opt/--trace-deopt or a --cpu-prof window); --profile
//   writes a .cpuprofile of the block alone.
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";
import { fileURLToPath } from "node:url";
import { BinaryTree } from "@bintrie/core";
import { hex, workload } from "./workload.mjs";

if (process.argv[2] === "--child") {
  const n = Number(process.argv[3] ?? 1_000_000);
  const mark = process.argv.includes("--mark");
  const { key, value, updates } = workload(n, 1000);
  const prewarm = process.argv.find((a) => a.startsWith("--prewarm="))?.slice(10);
  if (prewarm) {
    const small = new BinaryTree({ groupDepth: 5 });
    for (let i = 0; i < 20_000; i++) small.put(key(i % n), value(i % n));
    small.hash();
    small.commit();
    for (let r = 0; r < 3; r++) {
      for (let i = 0; i < 2000; i++) small.put(key((i * 7919 + r) % Math.min(n, 20_000)), value(i));
      small.hash();
      if (prewarm === "commit") small.commit();
    }
  }
  const tree = new BinaryTree({ groupDepth: 5 });
  let t = performance.now();
  for (let i = 0; i < n; i++) tree.put(key(i), value(i));
  const rootBefore = tree.hash();
  const insertMs = performance.now() - t;
  t = performance.now();
  tree.commit();
  const fullCommitMs = performance.now() - t;
  const profileAt = process.argv.indexOf("--profile");
  const session = profileAt > 0 ? new Session() : undefined;
  if (session) {
    session.connect();
    await session.post("Profiler.enable");
    await session.post("Profiler.setSamplingInterval", { interval: 100 });
    await session.post("Profiler.start");
  }
  if (mark) console.log(`=== BLOCK START ${process.hrtime.bigint() / 1000n}`);
  const t0 = performance.now();
  for (const [j, v] of updates) tree.put(key(j), v);
  const root = tree.hash();
  const t1 = performance.now();
  if (mark) console.log(`=== COMMIT START ${process.hrtime.bigint() / 1000n}`);
  const set = tree.commit();
  const t2 = performance.now();
  if (mark) console.log(`=== BLOCK END ${process.hrtime.bigint() / 1000n}`);
  if (session) {
    const { profile } = await session.post("Profiler.stop");
    session.disconnect();
    writeFileSync(process.argv[profileAt + 1], JSON.stringify(profile));
  }
  console.log(
    JSON.stringify({
      insert_root_ms: insertMs,
      full_commit_ms: fullCommitMs,
      update_root_ms: t1 - t0,
      commit_ms: t2 - t1,
      block_ms: t2 - t0,
      writes: set.writes.length,
      root: hex(rootBefore),
      root_after: hex(root),
    }),
  );
} else {
  const runs = Number(process.argv[2] ?? 3);
  const n = Number(process.argv[3] ?? 1_000_000);
  const self = fileURLToPath(import.meta.url);
  const samples = [];
  for (let r = 0; r < runs; r++) {
    const out = execFileSync(
      process.execPath,
      ["--max-old-space-size=8192", self, "--child", String(n)],
      { encoding: "utf8" },
    );
    samples.push(JSON.parse(out.trim().split("\n").at(-1)));
  }
  const median = (k) => {
    const xs = samples.map((s) => s[k]).sort((a, b) => a - b);
    return xs[xs.length >> 1];
  };
  const res = { row: "first_block", runs, n, group_depth: 5, node: process.version };
  for (const k of ["insert_root_ms", "full_commit_ms", "update_root_ms", "commit_ms", "block_ms"]) {
    res[k] = median(k);
  }
  res.block_ms_samples = samples.map((s) => Math.round(s.block_ms * 100) / 100);
  res.writes = samples[0].writes;
  res.root = samples[0].root;
  res.root_after = samples[0].root_after;
  res.roots_same_every_run = samples.every(
    (s) => s.root === res.root && s.root_after === res.root_after,
  );
  console.log(JSON.stringify(res));
}
