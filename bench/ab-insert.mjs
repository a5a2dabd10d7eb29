// Dev A/B: the block row's timed insert (N puts of the shared workload into an empty tree +
// hash(), after the same warm-up tree) on two builds of @bintrie/core, in alternating fresh
// processes (A B A B ...), so each run starts with a cold heap and JIT as the row does.
// Usage: node bench/ab-insert.mjs DIST_A DIST_B [N] [PAIRS]
// (DIST_* is a core dist folder, e.g. a copy of packages/core/dist taken before a change.)
// Prints JSON: per build the medians of wall, process CPU (all threads), put and hash wall, GC
// pause, system CPU and minor page faults over the timed region, and wall and CPU over the hash
// floor; the medians of the per-pair B/A ratios; the load average before and after. On a shared
// host, CPU time is the steadier figure: wall time includes waiting for a core.
import { execFileSync } from "node:child_process";
import { loadavg } from "node:os";
import { resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { startGcMeter } from "./rows/gc-meter.mjs";
import { countingHasher, measureBatchNs } from "./rows/kernel-floor.mjs";
import { cpuMs, workload } from "./rows/workload.mjs";

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? s[m] : (s[m - 1] + s[m]) / 2;
};

if (process.argv[2] === "--child") {
  const dist = process.argv[3];
  const n = Number(process.argv[4]);
  const { BinaryTree, getHasher, MemoryStore } = await import(
    pathToFileURL(resolve(dist, "index.js")).href
  );
  const { key, value } = workload(n, 0);
  const hasher = getHasher("sha256");
  const counted = countingHasher(hasher);
  // As rows/block.mjs: the timed tree first, then a warm-up tree through the same hasher.
  const tree = new BinaryTree({ hasher: counted.hasher, groupDepth: 5, store: new MemoryStore() });
  {
    const warm = new BinaryTree({
      hasher: counted.hasher,
      groupDepth: 5,
      store: new MemoryStore(),
    });
    for (let i = 0; i < Math.min(n, 100_000); i++) warm.put(key(i), value(i));
    warm.hash();
    await warm.persist();
    counted.counts.m32 = 0;
    counted.counts.m64 = 0;
  }
  const gc = startGcMeter();
  const usage0 = process.resourceUsage();
  const cpu0 = cpuMs();
  const t0 = performance.now();
  for (let i = 0; i < n; i++) tree.put(key(i), value(i));
  const t1 = performance.now();
  const root = tree.hash();
  const t2 = performance.now();
  const cpu = cpuMs() - cpu0;
  const usage1 = process.resourceUsage();
  const { gc_ms } = await gc.stop();
  const floorMs =
    (counted.counts.m32 * measureBatchNs(hasher, 32) +
      counted.counts.m64 * measureBatchNs(hasher, 64)) /
    1e6;
  const out = {
    wall: t2 - t0,
    cpu,
    put: t1 - t0,
    hash: t2 - t1,
    gc: gc_ms,
    sys: (usage1.systemCPUTime - usage0.systemCPUTime) / 1000,
    faults: usage1.minorPageFault - usage0.minorPageFault,
    wall_over_floor: (t2 - t0) / floorMs,
    cpu_over_floor: cpu / floorMs,
    root: Buffer.from(root).toString("hex"),
  };
  console.log(JSON.stringify(out));
} else {
  const [distA, distB] = process.argv.slice(2, 4);
  if (distA === undefined || distB === undefined) {
    console.error("usage: node bench/ab-insert.mjs DIST_A DIST_B [N] [PAIRS]");
    process.exit(2);
  }
  const n = Number(process.argv[4] ?? 1_000_000);
  const pairs = Number(process.argv[5] ?? 6);
  const self = fileURLToPath(import.meta.url);
  const run = (dist) =>
    JSON.parse(
      execFileSync(
        process.execPath,
        ["--max-old-space-size=8192", self, "--child", resolve(dist), String(n)],
        { encoding: "utf8", maxBuffer: 1 << 20 },
      ),
    );
  const loadBefore = loadavg();
  const runs = [[], []];
  for (let p = 0; p < pairs; p++) {
    runs[0].push(run(distA));
    runs[1].push(run(distB));
    if (runs[0][p].root !== runs[1][p].root) throw new Error(`pair ${p}: roots differ`);
  }
  const fields = ["wall", "cpu", "put", "hash", "gc", "sys", "faults"];
  const ratios = ["wall_over_floor", "cpu_over_floor"];
  const res = { n, pairs, load_before: loadBefore, load_after: loadavg() };
  for (const f of [...fields, ...ratios]) {
    res[`${f}_a`] = median(runs[0].map((r) => r[f]));
    res[`${f}_b`] = median(runs[1].map((r) => r[f]));
  }
  for (const f of fields)
    res[`${f}_b_over_a`] = median(runs[0].map((r, p) => runs[1][p][f] / r[f]));
  console.log(JSON.stringify(res, null, 1));
}
