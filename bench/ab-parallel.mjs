// Dev A/B: parallelRoot (@bintrie/core/node) at 1 and 2 threads on two builds of @bintrie/core in
// one process, alternating (A2 B2 A1 B1 B2 A2 B1 A1, reversed every other round), so both see the
// same machine. Usage: node bench/ab-parallel.mjs DIST_A DIST_B [ROUNDS=6] (N is 1M).
// Per build and thread count it prints the medians of: wall, process CPU (every thread), the
// calling thread's CPU and its "quiet" wall (wall minus the time the calling thread was runnable
// but another process held the core, from /proc/self/task/<pid>/schedstat; Linux only); then the
// 2-over-1 ratios per build and B over A at 2 threads. On a shared host trust quiet and cpu.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { hex, median, workload } from "./rows/workload.mjs";

const [distA, distB] = [process.argv[2], process.argv[3]];
if (distA === undefined || distB === undefined) {
  console.error("usage: node bench/ab-parallel.mjs DIST_A DIST_B [ROUNDS]");
  process.exit(2);
}
const load = (dist) => import(pathToFileURL(resolve(dist, "node/index.js")).href);
const libs = { A: await load(distA), B: await load(distB) };
const rounds = Number(process.argv[4] ?? 6);
const n = 1_000_000;
const { keyBytes: keys, valueBytes: values } = workload(n, 0);

/** The calling thread's [ms on a CPU, ms runnable but waiting for one]. */
function schedstat() {
  const [cpu, queued] = readFileSync(`/proc/self/task/${process.pid}/schedstat`, "utf8")
    .split(" ")
    .map(Number);
  return [cpu / 1e6, queued / 1e6];
}

const roots = new Set();
const warm = 200_000 * 32;
for (let pass = 0; pass < 2; pass++) {
  for (const lib of Object.values(libs)) {
    for (const threads of [1, 2]) {
      await lib.parallelRoot(keys.subarray(0, warm), values.subarray(0, warm), { threads });
    }
  }
}
const samples = {};
for (const key of ["A1", "A2", "B1", "B2"])
  samples[key] = { wall: [], cpu: [], main: [], quiet: [] };
const order = [
  ["A", 2],
  ["B", 2],
  ["A", 1],
  ["B", 1],
  ["B", 2],
  ["A", 2],
  ["B", 1],
  ["A", 1],
];
for (let r = 0; r < rounds; r++) {
  for (const [build, threads] of r % 2 === 0 ? order : [...order].reverse()) {
    const c0 = process.cpuUsage();
    const [m0, q0] = schedstat();
    const t0 = performance.now();
    roots.add(hex(await libs[build].parallelRoot(keys, values, { threads })));
    const wall = performance.now() - t0;
    const c = process.cpuUsage(c0);
    const [m1, q1] = schedstat();
    const s = samples[`${build}${threads}`];
    s.wall.push(wall);
    s.cpu.push((c.user + c.system) / 1000);
    s.main.push(m1 - m0);
    s.quiet.push(wall - (q1 - q0));
  }
}
const res = { n, rounds };
for (const [key, s] of Object.entries(samples)) {
  res[key] = Object.fromEntries(Object.entries(s).map(([k, v]) => [k, Math.round(median(v))]));
}
const ratio = (x, y) => Math.round((x / y) * 1000) / 1000;
res.two_over_one_quiet = {
  A: ratio(res.A2.quiet, res.A1.quiet),
  B: ratio(res.B2.quiet, res.B1.quiet),
};
res.two_over_one_wall = { A: ratio(res.A2.wall, res.A1.wall), B: ratio(res.B2.wall, res.B1.wall) };
res.b_over_a_2threads = Object.fromEntries(
  ["wall", "cpu", "main", "quiet"].map((k) => [k, ratio(res.B2[k], res.A2[k])]),
);
res.roots_agree = roots.size === 1;
res.load = readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).map(Number);
console.log(JSON.stringify(res));
