// `node bench/builder-workers.mjs [--stems N] [--workers 1,2]` (after building core): does
// hashing stems in worker threads speed the streaming builder up on this machine?
// Pipeline: reader (main thread, chunks of CHUNK stem blobs) → workers (batch stem hashing) →
// resequencer (chunk order) → builder.addHashedStem on the main thread (tree assembly, internal
// hashes, records). Compared with the plain single-threaded builder on the same input, and with
// the same split done on one thread (to show the split itself costs nothing). Prints JSON.
import os from "node:os";
import { isMainThread, parentPort, Worker } from "node:worker_threads";
import { makeStemSource } from "./builder-input.mjs";

const CHUNK = 2048;
const BLOB = 96; // 01 ‖ stem ‖ bitmap ‖ one value

const { StemBlobHasher, StreamingBuilder } = await import("../dist/builder/index.js");

/** Hashes the `count` stem blobs packed in `blobs` into a new 32-byte-per-stem buffer. */
function hashChunk(hasher, blobs, count) {
  const views = new Array(count);
  for (let i = 0; i < count; i++) views[i] = blobs.subarray(i * BLOB, (i + 1) * BLOB);
  return hasher.hash(views);
}

if (!isMainThread) {
  const hasher = new StemBlobHasher();
  parentPort.on("message", ({ seq, blobs, count }) => {
    const bytes = new Uint8Array(blobs);
    const hashes = hashChunk(hasher, bytes, count);
    parentPort.postMessage({ seq, blobs, hashes: hashes.buffer, count }, [blobs, hashes.buffer]);
  });
} else {
  const args = process.argv.slice(2);
  const option = (name, fallback) => {
    const i = args.indexOf(name);
    return i < 0 ? fallback : args[i + 1];
  };
  const n = Number(option("--stems", 500_000));
  const workerCounts = String(option("--workers", "1,2")).split(",").map(Number);

  /** A chunk of packed stem blobs (stems start..start+count). */
  function makeChunk(source, start, count) {
    const blobs = new Uint8Array(count * BLOB);
    const value = new Uint8Array(32);
    for (let i = 0; i < count; i++) {
      const at = i * BLOB;
      blobs[at] = 1;
      source(start + i, blobs, at + 1, value, 0);
      blobs[at + 32] = 0x80;
      blobs.set(value, at + 64);
    }
    return blobs;
  }

  const counting = () => {
    const c = { nodes: 0 };
    return { c, onNode: () => void c.nodes++ };
  };

  function plain() {
    const source = makeStemSource(n);
    const { onNode } = counting();
    const builder = new StreamingBuilder({ onNode });
    const t = performance.now();
    for (let start = 0; start < n; start += CHUNK) {
      const count = Math.min(CHUNK, n - start);
      const blobs = makeChunk(source, start, count);
      for (let i = 0; i < count; i++) {
        const blob = blobs.subarray(i * BLOB, (i + 1) * BLOB);
        builder.addStem(blob.subarray(1, 32), [blob.subarray(64, 96)]);
      }
    }
    const root = builder.finish();
    return { mode: "single thread, addStem", seconds: (performance.now() - t) / 1000, root };
  }

  function splitOneThread() {
    const source = makeStemSource(n);
    const { onNode } = counting();
    const builder = new StreamingBuilder({ onNode });
    const hasher = new StemBlobHasher();
    const t = performance.now();
    for (let start = 0; start < n; start += CHUNK) {
      const count = Math.min(CHUNK, n - start);
      const blobs = makeChunk(source, start, count);
      const hashes = hashChunk(hasher, blobs, count);
      for (let i = 0; i < count; i++) {
        builder.addHashedStem(
          blobs.subarray(i * BLOB, (i + 1) * BLOB),
          hashes.subarray(i * 32, i * 32 + 32),
        );
      }
    }
    const root = builder.finish();
    return {
      mode: "single thread, hash then addHashedStem",
      seconds: (performance.now() - t) / 1000,
      root,
    };
  }

  async function withWorkers(count) {
    const workers = Array.from({ length: count }, () => new Worker(new URL(import.meta.url)));
    const source = makeStemSource(n);
    const { onNode } = counting();
    const builder = new StreamingBuilder({ onNode });
    const ready = new Map();
    let nextToFeed = 0;
    let wake;
    for (const w of workers) {
      w.on("message", (msg) => {
        ready.set(msg.seq, msg);
        wake?.();
      });
    }
    const chunks = Math.ceil(n / CHUNK);
    const maxInFlight = count * 3;
    let sent = 0;
    const t = performance.now();
    while (nextToFeed < chunks) {
      while (sent < chunks && sent - nextToFeed < maxInFlight) {
        const start = sent * CHUNK;
        const c = Math.min(CHUNK, n - start);
        const blobs = makeChunk(source, start, c);
        workers[sent % count].postMessage({ seq: sent, blobs: blobs.buffer, count: c }, [
          blobs.buffer,
        ]);
        sent++;
      }
      const msg = ready.get(nextToFeed);
      if (msg === undefined) {
        await new Promise((resolve) => {
          wake = resolve;
        });
        wake = undefined;
        continue;
      }
      ready.delete(nextToFeed);
      const blobs = new Uint8Array(msg.blobs);
      const hashes = new Uint8Array(msg.hashes);
      for (let i = 0; i < msg.count; i++) {
        builder.addHashedStem(
          blobs.subarray(i * BLOB, (i + 1) * BLOB),
          hashes.subarray(i * 32, i * 32 + 32),
        );
      }
      nextToFeed++;
    }
    const root = builder.finish();
    const seconds = (performance.now() - t) / 1000;
    await Promise.all(workers.map((w) => w.terminate()));
    return { mode: `${count} hashing worker${count > 1 ? "s" : ""} + main`, seconds, root };
  }

  const rows = [plain(), splitOneThread()];
  for (const c of workerCounts) rows.push(await withWorkers(c));
  rows.push(plain()); // again, to see drift from machine load
  const base = rows[0].seconds;
  const hex = (r) => Buffer.from(r).toString("hex");
  process.stdout.write(
    `${JSON.stringify(
      {
        date: new Date().toISOString(),
        machine: { cpu: os.cpus()[0]?.model, cores: os.cpus().length, loadBefore: os.loadavg() },
        node: process.version,
        stems: n,
        groupDepth: 5,
        rootsAgree: rows.every((r) => hex(r.root) === hex(rows[0].root)),
        rows: rows.map((r) => ({
          mode: r.mode,
          seconds: Number(r.seconds.toFixed(2)),
          stemsPerSecond: Math.round(n / r.seconds),
          speedupVsFirstPlain: Number((base / r.seconds).toFixed(2)),
        })),
      },
      null,
      2,
    )}\n`,
  );
}
