#!/usr/bin/env node
// SHA-256 batch kernels vs node:crypto and @noble/hashes: ns per message for 64- and 32-byte messages.
//
//   pnpm --filter @bintrie/core build && node packages/core/bench/sha256-kernels.mjs [--quick] [path/to/sha256/index.js]
//
// Every (variant, size, n) cell gets 250 ms of warm-up, then 9 timed runs of ~80 ms (--quick: 100 ms, 5 x 40 ms),
// taken round-robin over the cells; each run calls the variant on the same batch of n messages until the time is
// up. Reported: the median over runs of ns per message by the wall clock (`ns`), and by the process CPU clock
// (`cpu_ns`: less sensitive to other load on a shared machine, but it also counts GC and compiler threads).
// Prints one JSON document.
//
// Variants: wasm = createWasmSha256Kernel() (copies in/out of wasm memory included), js = jsSha256Kernel,
// crypto = crypto.hash("sha256", subarray, "buffer") per message + copy into the output, noble = sha256() of
// @noble/hashes per message + copy.

import { hash as cryptoHash, randomBytes } from "node:crypto";
import os from "node:os";
import { sha256 as nobleSha256 } from "@noble/hashes/sha2.js";

const args = process.argv.slice(2);
const quick = args.includes("--quick");
const modulePath = args.find((a) => !a.startsWith("--")) ?? "../dist/sha256/index.js";
const { createWasmSha256Kernel, jsSha256Kernel } = await import(
  new URL(modulePath, import.meta.url).href
);

const WARMUP_MS = quick ? 100 : 250;
const RUNS = quick ? 5 : 9;
const RUN_MS = quick ? 40 : 80;
const NS = [1, 4, 16, 64, 256, 4096];
const SIZES = [64, 32];

const wasm = createWasmSha256Kernel();
if (!wasm) throw new Error("WebAssembly SIMD kernel unavailable");

const variants = {
  wasm: (size) => (size === 64 ? wasm.hash64Batch : wasm.hash32Batch),
  js: (size) => (size === 64 ? jsSha256Kernel.hash64Batch : jsSha256Kernel.hash32Batch),
  crypto: (size) => (src, so, n, dst, dq) => {
    for (let i = 0; i < n; i++) {
      const o = so + size * i;
      dst.set(cryptoHash("sha256", src.subarray(o, o + size), "buffer"), dq + 32 * i);
    }
  },
  noble: (size) => (src, so, n, dst, dq) => {
    for (let i = 0; i < n; i++) {
      const o = so + size * i;
      dst.set(nobleSha256(src.subarray(o, o + size)), dq + 32 * i);
    }
  },
};

// Every variant must agree with node:crypto before it is timed.
for (const size of SIZES) {
  const n = 1037;
  const src = new Uint8Array(randomBytes(size * n));
  const expected = new Uint8Array(32 * n);
  variants.crypto(size)(src, 0, n, expected, 0);
  for (const [name, make] of Object.entries(variants)) {
    const dst = new Uint8Array(32 * n);
    make(size)(src, 0, n, dst, 0);
    if (Buffer.compare(dst, expected) !== 0) throw new Error(`${name} ${size}B: wrong digests`);
  }
}

const cpuMicros = () => {
  const u = process.cpuUsage();
  return u.user + u.system;
};

/** One timed run: calls fn on the cell's batch until RUN_MS have passed; returns [wall, cpu] ns per message. */
function timedRun(cell) {
  const { fn, src, dst, n } = cell;
  let calls = 0;
  const c0 = cpuMicros();
  const t0 = process.hrtime.bigint();
  const end = t0 + BigInt(RUN_MS * 1e6);
  let t1 = t0;
  do {
    for (let k = 0; k < 8; k++) fn(src, 0, n, dst, 0);
    calls += 8;
    t1 = process.hrtime.bigint();
  } while (t1 < end);
  const c1 = cpuMicros();
  return [Number(t1 - t0) / (calls * n), ((c1 - c0) * 1000) / (calls * n)];
}

function median(xs) {
  const s = xs.slice().sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

// All cells are warmed up first, then timed round-robin (run r of every cell, then run r + 1), so that load from
// other processes spreads over all variants instead of skewing a few.
const cells = [];
for (const size of SIZES) {
  for (const [name, make] of Object.entries(variants)) {
    const fn = make(size);
    for (const n of NS) {
      const cell = { size, name, n, fn, wall: [], cpu: [] };
      cell.src = new Uint8Array(randomBytes(size * n));
      cell.dst = new Uint8Array(32 * n);
      const warmEnd = performance.now() + WARMUP_MS;
      while (performance.now() < warmEnd) fn(cell.src, 0, n, cell.dst, 0);
      cells.push(cell);
    }
  }
}
for (let r = 0; r < RUNS; r++) {
  for (const cell of cells) {
    const [wall, cpu] = timedRun(cell);
    cell.wall.push(wall);
    cell.cpu.push(cpu);
  }
}

const round1 = (x) => Math.round(x * 10) / 10;
const results = {};
const cpuResults = {};
for (const cell of cells) {
  const key = `${cell.size}B`;
  results[key] ??= {};
  cpuResults[key] ??= {};
  results[key][cell.name] ??= {};
  cpuResults[key][cell.name] ??= {};
  results[key][cell.name][cell.n] = round1(median(cell.wall));
  cpuResults[key][cell.name][cell.n] = round1(median(cell.cpu));
}

const ratio = (r, size) =>
  Math.round((r[`${size}B`].crypto[4096] / r[`${size}B`].wasm[4096]) * 100) / 100;
const report = {
  unit: "ns per message (median over runs)",
  node: process.version,
  cpu: os.cpus()[0]?.model,
  cpus: os.cpus().length,
  loadavg: os.loadavg().map((x) => Math.round(x * 100) / 100),
  method: { warmup_ms: WARMUP_MS, runs: RUNS, run_ms: RUN_MS, batch_sizes: NS },
  ns: results,
  cpu_ns: cpuResults,
  kernel_over_crypto_hash: ratio(results, 64),
  kernel32_over_crypto_hash: ratio(results, 32),
  cpu_kernel_over_crypto_hash: ratio(cpuResults, 64),
  cpu_kernel32_over_crypto_hash: ratio(cpuResults, 32),
};
console.log(JSON.stringify(report, null, 2));
