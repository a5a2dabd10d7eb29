// Dev A/B: the insert goal's timed insert (rows/timed-insert.mjs: N puts of the shared workload
// into an empty tree + hash(), after a warm-up tree) on two builds of @bintrie/core, in
// alternating fresh processes (A B A B ...), so each run starts with a cold heap and JIT.
// Usage: node bench/ab-insert.mjs DIST_A DIST_B [N] [PAIRS]
// (DIST_* is a core dist folder, e.g. a copy of packages/core/dist taken before a change.)
// Prints JSON: per build the medians of wall, process CPU (all threads), put and hash wall, GC
// pause, system CPU and minor page faults over the timed region, and wall and CPU over the hash
// floor; the medians of the per-pair B/A ratios; the load average before and after. On a shared
// host, CPU time is the steadier figure: wall time includes waiting for a core.
import { execFileSync } from "node:child_process";
import { loadavg } from "node:os";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { median } from "./rows/workload.mjs";

const [distA, distB] = process.argv.slice(2, 4);
if (distA === undefined || distB === undefined) {
  console.error("usage: node bench/ab-insert.mjs DIST_A DIST_B [N] [PAIRS]");
  process.exit(2);
}
const n = Number(process.argv[4] ?? 1_000_000);
const pairs = Number(process.argv[5] ?? 6);
const child = fileURLToPath(new URL("./rows/timed-insert.mjs", import.meta.url));
const run = (dist) =>
  JSON.parse(
    execFileSync(process.execPath, ["--max-old-space-size=8192", child, resolve(dist), `${n}`], {
      encoding: "utf8",
      maxBuffer: 1 << 20,
    }),
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
for (const f of fields) res[`${f}_b_over_a`] = median(runs[0].map((r, p) => runs[1][p][f] / r[f]));
console.log(JSON.stringify(res, null, 1));
