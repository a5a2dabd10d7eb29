// Where the time of parallelRoot goes, per thread, independent of the host's other load.
// Usage: node bench/profile-parallel.mjs [N=1000000] [RUNS=4] [CORE_DIST]
// (CORE_DIST: another build of packages/core/dist to profile, e.g. a copy of an older one.)
// For every call (threads 1 and 2 alternating, after warm-up) it reads each thread's scheduler
// statistics (/proc/self/task/*/schedstat: nanoseconds on a CPU, nanoseconds runnable but
// waiting for one) before and after. Per thread: cpu = busy, queued = ready but another process
// held the core (the host's load, not ours), idle = wall - cpu - queued (blocked: waiting for
// the other thread or for a message). The calling thread is the process's first task; the
// worker is the other task with the most CPU in a 2-thread call; "helpers" are V8's own
// background threads (GC, compilers). "quiet wall" = wall - the calling thread's queued time: the
// call's length had no other process competed (an estimate; a queued worker also delays it).
// Linux only. Prints one JSON line: medians over RUNS calls of each kind, and every sample.
import { readdirSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { median, workload } from "./rows/workload.mjs";

const n = Number(process.argv[2] ?? 1_000_000);
const runs = Number(process.argv[3] ?? 4);
const { parallelRoot } = await import(
  process.argv[4] === undefined
    ? "@bintrie/core/node"
    : pathToFileURL(resolve(process.argv[4], "node/index.js")).href
);
const { keyBytes: keys, valueBytes: values } = workload(n, 0);

function snapshot() {
  const tasks = new Map();
  for (const tid of readdirSync("/proc/self/task")) {
    try {
      const [cpu, queued] = readFileSync(`/proc/self/task/${tid}/schedstat`, "utf8")
        .split(" ")
        .map(Number);
      tasks.set(tid, { cpu, queued });
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return tasks;
}

const ms = (ns) => ns / 1e6;

async function profiled(threads) {
  const timings = {};
  const before = snapshot();
  const t = performance.now();
  await parallelRoot(keys, values, { threads, timings });
  const wall = performance.now() - t;
  const after = snapshot();
  const main = String(process.pid);
  const delta = [];
  for (const [tid, a] of after) {
    const b = before.get(tid) ?? { cpu: 0, queued: 0 };
    delta.push({ tid, cpu: ms(a.cpu - b.cpu), queued: ms(a.queued - b.queued) });
  }
  const mainD = delta.find((d) => d.tid === main);
  const others = delta.filter((d) => d.tid !== main).sort((a, b) => b.cpu - a.cpu);
  const worker = threads > 1 ? others.shift() : undefined;
  const helpers = others.reduce((s, d) => s + d.cpu, 0);
  const sample = {
    wall,
    main_cpu: mainD.cpu,
    main_queued: mainD.queued,
    main_idle: wall - mainD.cpu - mainD.queued,
    quiet_wall: wall - mainD.queued,
    helpers_cpu: helpers,
  };
  if (worker !== undefined) {
    sample.worker_cpu = worker.cpu;
    sample.worker_queued = worker.queued;
    sample.worker_idle = wall - worker.cpu - worker.queued;
  }
  if (timings.threads !== undefined) {
    // The library's own phase marks (ms from the call's start; see ParallelRootTimings).
    for (const key of ["counted", "firstReady", "allReady", "built", "joined", "total"])
      sample[`t_${key}`] = timings[key];
    timings.threads.forEach((th, i) => {
      const who = i === 0 ? "main" : `w${i}`;
      sample[`${who}_units`] = th.units;
      sample[`${who}_entries`] = th.entries;
      sample[`${who}_first_at`] = th.firstAt;
      sample[`${who}_end_at`] = th.endAt;
      sample[`${who}_busy`] = th.busyMs;
      sample[`${who}_wait`] = th.waitMs;
    });
  }
  return sample;
}

const warm = Math.min(n, 200_000);
for (let pass = 0; pass < 2; pass++) {
  await parallelRoot(keys.subarray(0, warm * 32), values.subarray(0, warm * 32), { threads: 1 });
  await parallelRoot(keys.subarray(0, warm * 32), values.subarray(0, warm * 32), { threads: 2 });
}
const samples = { 1: [], 2: [] };
for (let r = 0; r < runs; r++) {
  for (const threads of r % 2 === 0 ? [1, 2] : [2, 1])
    samples[threads].push(await profiled(threads));
}
const summary = (list) =>
  Object.fromEntries(
    Object.keys(list[0]).map((k) => [k, Math.round(median(list.map((s) => s[k])) * 10) / 10]),
  );
const round = (list) =>
  list.map((s) =>
    Object.fromEntries(Object.entries(s).map(([k, v]) => [k, Math.round(v * 10) / 10])),
  );
const one = summary(samples[1]);
const two = summary(samples[2]);
const load = readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).map(Number);
console.log(
  JSON.stringify({
    n,
    runs,
    load,
    one,
    two,
    // Main-thread CPU beyond half the single-threaded work: its serial share, roughly.
    quiet_two_over_one: Math.round((two.quiet_wall / one.quiet_wall) * 1000) / 1000,
    cpu_two_over_one: Math.round(((two.main_cpu + two.worker_cpu) / one.main_cpu) * 1000) / 1000,
    samples: { 1: round(samples[1]), 2: round(samples[2]) },
  }),
);
