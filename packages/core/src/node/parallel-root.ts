/// <reference types="node" />
import os from "node:os";
import { Worker } from "node:worker_threads";
import {
  DEFAULT_KEY_SCHEME,
  hashFunctionOfScheme,
  type KeyScheme,
} from "../embedding/key-scheme.js";
import { getHasher } from "../hash/get-hasher.js";
import { compileWasmSha256Module } from "../sha256/wasm-kernel.js";
import { BinaryTree } from "../tree/binary-tree.js";
import { TreeError } from "../tree/tree-error.js";
import { buildPartitions } from "./build-partitions.js";
import { mergePartitions } from "./merge-partitions.js";
import { prefixHistogram, prefixStarts } from "./partition-entries.js";

export interface ParallelRootOptions {
  /** Threads to hash on (the calling thread is one of them). Default `os.availableParallelism()`. */
  readonly threads?: number;
  /** Key derivation and node hash variant. Default 'sha256-be' (go-ethereum master). */
  readonly scheme?: KeyScheme;
  /** The top k bits of the stem that split the work into 2^k partitions (1..16). Default 8. */
  readonly partitionBits?: number;
}

let wasmModule: Promise<object | undefined> | undefined;

/**
 * The root of the tree holding `count = keys.length / 32` entries (key i = keys[32i..32i+32),
 * value i = values[32i..]), the same root `BinaryTree` computes, hashed on several threads.
 * Subtrees below depth k are independent: the stems are split by their first k bits into 2^k
 * partitions, each thread inserts and hashes the partitions of one contiguous range (balanced
 * by key count) into a tree of its own, writing each partition's kind and hash to shared
 * memory, and the calling thread merges the top k levels. With `threads: 1` it is a plain
 * BinaryTree insert + hash on the calling thread. Later entries with the same key win.
 */
export async function parallelRoot(
  keys: Uint8Array,
  values: Uint8Array,
  options: ParallelRootOptions = {},
): Promise<Uint8Array> {
  if (!(keys instanceof Uint8Array) || keys.length % 32 !== 0) {
    throw new TreeError(
      "INVALID_KEY",
      `parallelRoot: keys must be 32-byte keys back to back, got ${describe(keys)}`,
    );
  }
  if (!(values instanceof Uint8Array) || values.length !== keys.length) {
    throw new TreeError(
      "INVALID_VALUE",
      `parallelRoot: values must be ${keys.length} bytes (32 per key), got ${describe(values)}`,
    );
  }
  const threads = options.threads ?? os.availableParallelism();
  if (!Number.isInteger(threads) || threads < 1) {
    throw new TreeError(
      "INVALID_OPTION",
      `threads must be a positive integer, got ${String(threads)}`,
    );
  }
  const k = options.partitionBits ?? 8;
  if (!Number.isInteger(k) || k < 1 || k > 16) {
    throw new TreeError(
      "INVALID_OPTION",
      `partitionBits must be an integer 1..16, got ${String(k)}`,
    );
  }
  const scheme = options.scheme ?? DEFAULT_KEY_SCHEME;
  const hasher = getHasher(hashFunctionOfScheme(scheme));
  const count = keys.length >>> 5;
  if (threads === 1) {
    const tree = new BinaryTree({ scheme, hasher });
    for (let i = 0; i < count; i++)
      tree.put(keys.subarray(i << 5, (i << 5) + 32), values.subarray(i << 5, (i << 5) + 32));
    return tree.hash();
  }

  const width = 1 << k;
  // The key count of every k-bit prefix: each thread's contiguous range of partitions, and
  // where each partition's entries go in that thread's counting sort (see buildPartitions).
  const histogram = prefixHistogram(keys, count, k);
  const ranges = balancedRanges(histogram, count, threads);
  const shared = {
    keys: toShared(keys),
    values: toShared(values),
    count,
    starts: prefixStarts(histogram),
    k,
    kinds: new Uint8Array(new SharedArrayBuffer(width)),
    hashes: new Uint8Array(new SharedArrayBuffer(width * 32)),
    scheme,
  };
  wasmModule ??= compileWasmSha256Module();
  const module = hashFunctionOfScheme(scheme) === "sha256" ? await wasmModule : undefined;
  const pool = workerPool(ranges.length - 1);
  const workers = ranges
    .slice(1)
    .map(([lo, hi], w) =>
      pool[w]!.run({ ...shared, lo, hi, wasmModule: module }, `partitions ${lo}..${hi - 1}`),
    );
  // The calling thread takes the first range while the workers run theirs.
  const [lo, hi] = ranges[0]!;
  buildPartitions({ ...shared, keys, values, lo, hi }, hasher);
  await Promise.all(workers);
  return mergePartitions(shared.kinds, shared.hashes, k, hasher);
}

/** A worker kept for later calls; referenced (keeping the process alive) only while it works. */
class PoolWorker {
  readonly #worker: Worker;
  #pending: { resolve: () => void; reject: (error: unknown) => void; what: string } | undefined;

  constructor() {
    this.#worker = new Worker(new URL("./partition-worker.js", import.meta.url));
    this.#worker.unref();
    this.#worker.on("message", (reply: { ok: boolean; error?: unknown }) => {
      const pending = this.#pending;
      this.#pending = undefined;
      this.#worker.unref();
      if (pending === undefined) return;
      if (reply.ok) pending.resolve();
      else pending.reject(failed(pending.what, reply.error));
    });
    this.#worker.on("error", (cause) => this.#fail(cause));
    this.#worker.on("exit", (code) => this.#fail(new Error(`worker exited with code ${code}`)));
  }

  run(job: object, what: string): Promise<void> {
    return new Promise((resolve, reject) => {
      this.#pending = { resolve, reject, what };
      this.#worker.ref();
      this.#worker.postMessage(job);
    });
  }

  #fail(cause: unknown): void {
    const index = workers.indexOf(this);
    if (index >= 0) workers.splice(index, 1);
    const pending = this.#pending;
    this.#pending = undefined;
    pending?.reject(failed(pending.what, cause));
  }

  terminate(): Promise<number> {
    return this.#worker.terminate();
  }
}

function failed(what: string, cause: unknown): TreeError {
  return new TreeError("WORKER_FAILED", `parallelRoot: the worker for ${what} failed`, { cause });
}

const workers: PoolWorker[] = [];

/** At least `n` idle workers (created on first use, reused by later calls). */
function workerPool(n: number): PoolWorker[] {
  while (workers.length < n) workers.push(new PoolWorker());
  return workers.slice(0, n);
}

/** Ends the worker threads parallelRoot keeps between calls (they do not keep a process alive). */
export async function closeParallelWorkers(): Promise<void> {
  const all = workers.splice(0);
  await Promise.all(all.map((w) => w.terminate()));
}

/** `threads` contiguous partition ranges [lo, hi) with about equal key counts. */
function balancedRanges(
  histogram: Uint32Array,
  count: number,
  threads: number,
): [number, number][] {
  const width = histogram.length;
  const ranges: [number, number][] = [];
  let lo = 0;
  let seen = 0;
  for (let t = 1; t < threads && lo < width; t++) {
    const target = (count * t) / threads;
    let hi = lo;
    while (hi < width - 1 && seen + histogram[hi]! <= target) seen += histogram[hi++]!;
    if (hi === lo) seen += histogram[hi++]!;
    ranges.push([lo, hi]);
    lo = hi;
  }
  if (lo < width) ranges.push([lo, width]);
  return ranges;
}

/** A copy in shared memory (the workers read the keys and values in place). */
function toShared(bytes: Uint8Array): Uint8Array {
  if (bytes.buffer instanceof SharedArrayBuffer) return bytes;
  const copy = new Uint8Array(new SharedArrayBuffer(bytes.length || 1), 0, bytes.length);
  copy.set(bytes);
  return copy;
}

function describe(x: unknown): string {
  return x instanceof Uint8Array ? `${x.length} bytes` : x === null ? "null" : typeof x;
}
