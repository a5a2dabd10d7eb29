// Row: the 1M insert goal, 1M puts of the shared workload + hash() over the hash floor, in RUNS
// fresh processes (rows/timed-insert.mjs), medians. One process is not a measure: the same
// insert varies by ±5 % between processes on one host (heap layout, page faults, the JIT), more
// than the distance between our reading and the goal. Usage: node rows/insert.mjs [N] [RUNS]
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { median } from "./workload.mjs";

const n = Number(process.argv[2] ?? 1_000_000);
const runs = Number(process.argv[3] ?? 5);
const child = fileURLToPath(new URL("./timed-insert.mjs", import.meta.url));
const dist = fileURLToPath(new URL("../../packages/core/dist", import.meta.url));
const samples = [];
for (let r = 0; r < runs; r++) {
  const out = execFileSync(process.execPath, ["--max-old-space-size=8192", child, dist, `${n}`], {
    encoding: "utf8",
  });
  samples.push(JSON.parse(out.trim().split("\n").at(-1)));
}
const res = { row: "insert", n, runs, node: process.version };
const medianOf = (field) => median(samples.map((s) => s[field]));
for (const f of ["wall", "cpu", "put", "hash", "gc", "floor"]) res[`${f}_ms`] = medianOf(f);
// First touches of fresh pages inside the timed insert, at this process's measured cost per page:
// a property of the host (a few µs per page on some VMs), not of the tree's work.
res.faults = medianOf("faults");
res.first_touch_us_per_page = medianOf("first_touch_us_per_page");
res.fault_ms_estimate = medianOf("fault_ms_estimate");
res.wall_less_faults_over_floor = medianOf("wall_less_faults_over_floor");
// Medians of the per-process ratios (each over its own process's floor).
res.wall_over_floor = medianOf("wall_over_floor");
res.cpu_over_floor = medianOf("cpu_over_floor");
res.wall_over_floor_samples = samples.map((s) => Math.round(s.wall_over_floor * 1000) / 1000);
res.wall_ms_samples = samples.map((s) => Math.round(s.wall));
res.huge_pages_MB_samples = samples.map((s) => s.huge_pages_MB);
res.roots_same_every_run = samples.every((s) => s.root === samples[0].root);
res.root = `0x${samples[0].root}`;
console.log(JSON.stringify(res));
