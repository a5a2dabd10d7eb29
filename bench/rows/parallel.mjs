// Row: parallelRoot (@bintrie/core/node) at 1 and 2 threads on the shared workload.
// Usage: node rows/parallel.mjs N [CORE_DIST] (CORE_DIST: another build of packages/core/dist,
// e.g. a copy of an older one, to compare against in alternating processes). Runs in the order 1, 2, 2, 1, 1, 2, 2, 1 (drift cancels),
// after warm-up passes on both paths; reports each time and the 2-over-1 ratio of the medians
// (one slow sample on a shared host moves a median of four less than a mean of two).
import os from "node:os";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { hex, workload } from "./workload.mjs";

const n = Number(process.argv[2] ?? 1_000_000);
const { parallelRoot } = await import(
  process.argv[3] === undefined
    ? "@bintrie/core/node"
    : pathToFileURL(resolve(process.argv[3], "node/index.js")).href
);
const { keyBytes: keys, valueBytes: values } = workload(n, 0);
const res = { row: "parallel", n, cores: os.availableParallelism(), node: process.version };
{
  // Warm-up: both the calling thread and the worker reach optimised code.
  const warm = Math.min(n, 200_000);
  const wk = keys.subarray(0, warm * 32);
  const wv = values.subarray(0, warm * 32);
  for (let pass = 0; pass < 2; pass++) {
    await parallelRoot(wk, wv, { threads: 1 });
    await parallelRoot(wk, wv, { threads: 2 });
  }
}
const times = { 1: [], 2: [] };
const roots = new Set();
for (const threads of [1, 2, 2, 1, 1, 2, 2, 1]) {
  const t = performance.now();
  const root = await parallelRoot(keys, values, { threads });
  times[threads].push(performance.now() - t);
  roots.add(hex(root));
}
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return (s[(s.length - 1) >> 1] + s[s.length >> 1]) / 2;
};
res.one_thread_ms = median(times[1]);
res.two_threads_ms = median(times[2]);
res.samples_ms = times;
res.two_over_one = res.two_threads_ms / res.one_thread_ms;
res.speedup_2 = 1 / res.two_over_one;
res.roots_agree = roots.size === 1;
res.root = [...roots][0];
console.log(JSON.stringify(res));
