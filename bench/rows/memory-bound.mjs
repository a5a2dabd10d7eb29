// Row: the memory bound (maxBytes) on a large store. Builds a committed N-key LevelDB store
// (streaming builder), then reads R random keys through openTree with and without a byte bound,
// each in its own process, sampling RSS every 10k reads.
// Usage: node rows/memory-bound.mjs N R MAX_BYTES            (parent: build, run both, report)
//        node rows/memory-bound.mjs --read DIR N R MAX_BYTES  (child: one read run; 0 = unbounded)
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { openTree } from "@bintrie/core";
import { buildTreeIntoStore } from "@bintrie/core/builder";
import { openLevelStore } from "@bintrie/store-level";

const BATCH = 100;
const SAMPLE_EVERY = 10_000;
const MiB = 2 ** 20;

/** Key i: sorted in i and spread evenly over the key space (first 8 bytes), the rest mixed. */
function key(i, n) {
  const out = new Uint8Array(32);
  const view = new DataView(out.buffer);
  const spacing = 2 ** 64 / n;
  view.setBigUint64(
    0,
    BigInt(Math.floor(i * spacing)) + BigInt(mix(i) % Math.floor(spacing / 2 ** 11)) * 2048n,
  );
  for (let b = 8; b < 32; b += 4) view.setUint32(b, mix(i * 8 + b));
  return out;
}

function value(i) {
  const out = new Uint8Array(32);
  const view = new DataView(out.buffer);
  for (let b = 0; b < 32; b += 4) view.setUint32(b, mix(i ^ (b * 0x9e3779b1)));
  return out;
}

/** A field of /proc/self/status in MiB (Linux), or null elsewhere. */
function rssOf(field) {
  if (!existsSync("/proc/self/status")) return null;
  const line = readFileSync("/proc/self/status", "utf8")
    .split("\n")
    .find((l) => l.startsWith(`${field}:`));
  return line === undefined
    ? null
    : Math.round((Number.parseInt(line.split(/\s+/)[1], 10) / 1024) * 10) / 10;
}

function mix(x) {
  let h = (x ^ 0x5bd1e995) >>> 0;
  h = Math.imul(h ^ (h >>> 15), 0x2c1b3c6d) >>> 0;
  h = Math.imul(h ^ (h >>> 12), 0x297a2d39) >>> 0;
  return (h ^ (h >>> 15)) >>> 0;
}

async function readRun(dir, n, reads, maxBytes) {
  const store = await openLevelStore(dir);
  const tree = await openTree(store, maxBytes > 0 ? { maxBytes } : {});
  let seed = 12345;
  const next = () => {
    seed = mix(seed + 1);
    return seed % n;
  };
  const samples = [];
  const round = (bytes) => Math.round((bytes / MiB) * 10) / 10;
  const rss = () => round(process.memoryUsage().rss);
  const baseline = rss();
  const baselineAnon = rssOf("RssAnon");
  let mismatches = 0;
  const started = performance.now();
  for (let done = 0; done < reads; ) {
    const picks = Array.from({ length: BATCH }, next);
    const got = await tree.getMany(picks.map((i) => key(i, n)));
    for (let k = 0; k < BATCH; k++) {
      if (Buffer.compare(got[k] ?? Buffer.alloc(0), value(picks[k])) !== 0) mismatches++;
    }
    done += BATCH;
    if (done % SAMPLE_EVERY === 0) {
      const s = tree.stats();
      samples.push({
        reads: done,
        rss_MiB: rss(),
        // Linux splits RSS: anonymous (heap, arena, buffers) and file-backed pages, which here
        // are LevelDB's memory-mapped table files (reclaimable page cache, not the tree's).
        rss_anon_MiB: rssOf("RssAnon"),
        rss_file_MiB: rssOf("RssFile"),
        heap_MiB: round(process.memoryUsage().heapUsed),
        live_MiB: round(s.liveBytes),
        arena_MiB: round(s.arenaBytes),
      });
    }
  }
  const ms = performance.now() - started;
  await store.close();
  return {
    max_bytes: maxBytes || null,
    read_ms: ms,
    reads_s: reads / (ms / 1000),
    baseline_rss_MiB: baseline,
    baseline_rss_anon_MiB: baselineAnon,
    samples,
    mismatches,
  };
}

if (process.argv[2] === "--read") {
  const [dir, n, reads, maxBytes] = process.argv.slice(3);
  console.log(JSON.stringify(await readRun(dir, Number(n), Number(reads), Number(maxBytes))));
} else {
  const n = Number(process.argv[2] ?? 2_000_000);
  const reads = Number(process.argv[3] ?? 100_000);
  const maxBytes = Number(process.argv[4] ?? 64 * MiB);
  // BINTRIE_BENCH_STORE_DIR: build there once and keep it (reruns skip the few-minute build).
  const kept = process.env.BINTRIE_BENCH_STORE_DIR;
  const dir = kept ?? mkdtempSync(join(tmpdir(), "bintrie-bench-bound-"));
  const res = { row: "memory-bound", n, reads, batch: BATCH, node: process.version };
  try {
    const t = performance.now();
    const store = await openLevelStore(dir);
    const record = await store.get(new TextEncoder().encode("bintrie:root"));
    if (record === undefined) {
      function* entries() {
        for (let i = 0; i < n; i++) yield { key: key(i, n), value: value(i) };
      }
      res.stems = (await buildTreeIntoStore(store, entries())).stems;
      res.build_ms = performance.now() - t;
    }
    await store.close();
    const child = (bound) =>
      JSON.parse(
        execFileSync(
          process.execPath,
          [fileURLToPath(import.meta.url), "--read", dir, n, reads, bound],
          {
            encoding: "utf8",
            stdio: ["ignore", "pipe", "inherit"],
          },
        ),
      );
    res.bounded = child(maxBytes);
    res.unbounded = child(0);
    res.bounded_over_unbounded_time = res.bounded.read_ms / res.unbounded.read_ms;
    const peak = Math.max(...res.bounded.samples.map((s) => s.rss_MiB));
    // Fixed overhead: the process before the first read (Node, LevelDB, code, the open tree).
    res.bounded_peak_rss_over_baseline_MiB = peak - res.bounded.baseline_rss_MiB;
    const anon = res.bounded.samples.map((s) => s.rss_anon_MiB).filter((v) => v !== null);
    if (anon.length > 0) {
      res.bounded_peak_rss_anon_MiB = Math.max(...anon);
      res.bounded_rss_anon_growth_after_half_MiB =
        Math.max(...anon.slice(anon.length >> 1)) - anon[(anon.length >> 1) - 1];
    }
    res.bound_MiB = maxBytes / MiB;
  } finally {
    if (kept === undefined) rmSync(dir, { recursive: true, force: true });
  }
  console.log(JSON.stringify(res));
}
