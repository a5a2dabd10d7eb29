// Row: the geth-comparable block as a one-shot check times it. Each of RUNS fresh processes
// (`--child`, no warm-up of any kind) does, through the public API only: 1M puts into
// `new BinaryTree({ groupDepth: 5 })`, hash, commit; then the shared workload's 1,000 updates,
// hash, commit, timed. Medians over the processes. (`block.mjs` times the same block after a
// warm-up tree and a persist; this row is the first time any of that code runs.)
// Usage: node rows/first-block.mjs [RUNS] [N] [--core=DIST_A,DIST_B]
// --core: core dist folders (e.g. a copy of packages/core/dist taken before a change) the runs
// alternate between, a median per build (`builds`); default the workspace's @bintrie/core.
// Diagnosis (child only): node rows/first-block.mjs --child N [--core=DIST] [--prewarm=update|commit]
//   [--mark] [--profile FILE]. --prewarm runs the update path (and the update commit) on a small
//   throwaway tree first, to show what running code for the first time costs the block; --mark
//   prints hrtime markers (for --trace-opt/--trace-deopt or a --cpu-prof window); --profile
//   writes a .cpuprofile of the block alone. Each child also reports the process CPU time of
//   update + hash (every thread) and the GC pauses inside each timed window (*_gc_ms).
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";
import { resolve } from "node:path";
import { PerformanceObserver, constants as perf } from "node:perf_hooks";
import { fileURLToPath, pathToFileURL } from "node:url";
import { firstTouchUsPerPage } from "./host-memory.mjs";
import { hex, workload } from "./workload.mjs";

const coreArg = process.argv.find((a) => a.startsWith("--core="))?.slice(7);

if (process.argv[2] === "--child") {
  const { BinaryTree } = await import(
    coreArg === undefined ? "@bintrie/core" : pathToFileURL(resolve(coreArg, "index.js")).href
  );
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
  // The garbage collector's pauses inside the timed windows (a mark-compact there can take
  // longer than the block's own work), reported beside the times they are part of.
  const pauses = [];
  const gcObserver = new PerformanceObserver((list) => pauses.push(...list.getEntries()));
  gcObserver.observe({ entryTypes: ["gc"] });
  if (mark) console.log(`=== BLOCK START ${process.hrtime.bigint() / 1000n}`);
  const c0 = process.cpuUsage();
  const f0 = process.resourceUsage().minorPageFault;
  const t0 = performance.now();
  for (const [j, v] of updates) tree.put(key(j), v);
  const root = tree.hash();
  const t1 = performance.now();
  const c1 = process.cpuUsage();
  const f1 = process.resourceUsage().minorPageFault;
  if (mark) console.log(`=== COMMIT START ${process.hrtime.bigint() / 1000n}`);
  const set = tree.commit();
  const t2 = performance.now();
  const f2 = process.resourceUsage().minorPageFault;
  // GC entries arrive asynchronously: let them come in, then keep those of the two windows.
  await new Promise((done) => setTimeout(done, 20));
  pauses.push(...gcObserver.takeRecords());
  gcObserver.disconnect();
  const gcIn = (from, to, major) =>
    pauses
      .filter((e) => e.startTime >= from && e.startTime < to)
      .filter((e) => !major || e.detail.kind === perf.NODE_PERFORMANCE_GC_MAJOR)
      .reduce((sum, e) => sum + e.duration, 0);
  if (mark) console.log(`=== BLOCK END ${process.hrtime.bigint() / 1000n}`);
  if (session) {
    const { profile } = await session.post("Profiler.stop");
    session.disconnect();
    writeFileSync(process.argv[profileAt + 1], JSON.stringify(profile));
  }
  // The commit's set is new memory the caller owns: on a host that backs guest memory lazily,
  // each fresh page it writes is a host fault (about 10 µs on some VMs). Priced after the timed
  // work (an allocation before it would change where the commit's memory comes from).
  const touchUs = firstTouchUsPerPage();
  console.log(
    JSON.stringify({
      insert_root_ms: insertMs,
      full_commit_ms: fullCommitMs,
      update_root_ms: t1 - t0,
      // Process CPU time (every thread: V8's compiler and GC helpers too) over update + hash.
      update_root_cpu_ms: (c1.user - c0.user + c1.system - c0.system) / 1000,
      update_root_gc_ms: gcIn(t0, t1, false),
      update_root_major_gc_ms: gcIn(t0, t1, true),
      commit_ms: t2 - t1,
      commit_gc_ms: gcIn(t1, t2, false),
      update_root_faults: f1 - f0,
      commit_faults: f2 - f1,
      first_touch_us_per_page: touchUs,
      commit_fault_ms_estimate: ((f2 - f1) * touchUs) / 1000,
      block_ms: t2 - t0,
      block_less_faults_ms: t2 - t0 - ((f2 - f0) * touchUs) / 1000,
      writes: set.writes.length,
      root: hex(rootBefore),
      root_after: hex(root),
    }),
  );
} else {
  const positional = process.argv.slice(2).filter((a) => !a.startsWith("--"));
  const runs = Number(positional[0] ?? 3);
  const n = Number(positional[1] ?? 1_000_000);
  const self = fileURLToPath(import.meta.url);
  const cores = coreArg === undefined ? [undefined] : coreArg.split(",");
  const byCore = cores.map(() => []);
  for (let r = 0; r < runs; r++) {
    for (const [c, core] of cores.entries()) {
      const args = ["--max-old-space-size=8192", self, "--child", String(n)];
      if (core !== undefined) args.push(`--core=${core}`);
      const out = execFileSync(process.execPath, args, { encoding: "utf8" });
      byCore[c].push(JSON.parse(out.trim().split("\n").at(-1)));
    }
  }
  const samples = byCore[0];
  const medianOf = (list, k) => {
    const xs = list.map((s) => s[k]).sort((a, b) => a - b);
    return xs[xs.length >> 1];
  };
  const median = (k) => medianOf(samples, k);
  const res = { row: "first_block", runs, n, group_depth: 5, node: process.version };
  const keys = [
    "insert_root_ms",
    "full_commit_ms",
    "update_root_ms",
    "update_root_cpu_ms",
    "update_root_gc_ms",
    "update_root_major_gc_ms",
    "commit_ms",
    "commit_gc_ms",
    "update_root_faults",
    "commit_faults",
    "first_touch_us_per_page",
    "commit_fault_ms_estimate",
    "block_ms",
    "block_less_faults_ms",
  ];
  for (const k of keys) res[k] = median(k);
  res.block_ms_samples = samples.map((s) => Math.round(s.block_ms * 100) / 100);
  // Per process: a mark-compact lands in some windows and not in others, so the median hides it.
  res.update_root_major_gc_ms_samples = samples.map(
    (s) => Math.round(s.update_root_major_gc_ms * 100) / 100,
  );
  // Where that collection ran, it freed the full commit's set and the block's commit writes into
  // that memory: its fresh pages fall from about 400 to a few.
  res.commit_faults_samples = samples.map((s) => s.commit_faults);
  res.writes = samples[0].writes;
  res.root = samples[0].root;
  res.root_after = samples[0].root_after;
  res.roots_same_every_run = samples.every(
    (s) => s.root === res.root && s.root_after === res.root_after,
  );
  if (cores.length > 1) {
    res.builds = cores.map((core, c) => ({
      core,
      update_root_ms: medianOf(byCore[c], "update_root_ms"),
      update_root_cpu_ms: medianOf(byCore[c], "update_root_cpu_ms"),
      update_root_gc_ms_samples: byCore[c].map((s) => Math.round(s.update_root_gc_ms * 100) / 100),
      commit_ms: medianOf(byCore[c], "commit_ms"),
      block_ms: medianOf(byCore[c], "block_ms"),
      block_ms_samples: byCore[c].map((s) => Math.round(s.block_ms * 100) / 100),
      update_root_ms_samples: byCore[c].map((s) => Math.round(s.update_root_ms * 100) / 100),
      roots_same: byCore[c].every((s) => s.root === res.root && s.root_after === res.root_after),
    }));
  }
  console.log(JSON.stringify(res));
}
