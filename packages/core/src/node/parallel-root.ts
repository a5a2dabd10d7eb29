/// <reference types="node" />
import os from "node:os";
import { assertKnownOptions, describeValue } from "@bintrie/codec";
import {
  DEFAULT_KEY_SCHEME,
  hashFunctionOfScheme,
  type KeyScheme,
} from "../embedding/key-scheme.js";
import { getHasher } from "../hash/get-hasher.js";
import type { Hasher } from "../hash/hasher.js";
import { optionKeys } from "../options/known-options.js";
import { compileWasmSha256Module } from "../sha256/wasm-kernel.js";
import { BinaryTree } from "../tree/binary-tree.js";
import { TreeError } from "../tree/tree-error.js";
import { mergePartitions } from "./merge-partitions.js";
import type { ParallelRootThreadTimings, ParallelRootTimings } from "./parallel-root-timings.js";
import {
  prefixHistogramListing,
  prefixStarts,
  scatterEntries,
  scatterListed,
} from "./partition-entries.js";
import { partitionUnits } from "./partition-units.js";
import {
  buildUnits,
  CONTROL_WORDS,
  clock,
  NEXT,
  type PartitionWork,
  publishReady,
  stopWork,
  type UnitsDone,
} from "./partition-work.js";
import { type PartitionWorkerInit, PartitionWorkerPool } from "./partition-worker-pool.js";

export interface ParallelRootOptions {
  /** Threads to hash on (the calling thread is one of them). Default `os.availableParallelism()`. */
  readonly threads?: number;
  /** Key derivation and node hash variant. Default 'sha256-be' (go-ethereum master). */
  readonly scheme?: KeyScheme;
  /** The top k bits of the stem that split the work into 2^k partitions (1..16). Default 8. */
  readonly partitionBits?: number;
  /**
   * Filled in with where the call's time went, by calls on 2 or more threads (diagnostics; see
   * ParallelRootTimings): pass `{} as ParallelRootTimings` and read it after the call.
   */
  readonly timings?: ParallelRootTimings;
}

const PARALLEL_ROOT_OPTION_KEYS = optionKeys<ParallelRootOptions>()([
  "threads",
  "scheme",
  "partitionBits",
  "timings",
]);

/** A unit (the piece of work a thread claims) holds at most this many entries. */
const UNIT_ENTRIES = 1 << 14;
/** The entries laid out (after the workers' first units) before the last pass lays out the rest. */
const FIRST_SHARE = 1 / 16;

let wasmModule: Promise<object | undefined> | undefined;
const pool = new PartitionWorkerPool(
  new URL("./partition-worker.js", import.meta.url),
  os.availableParallelism(),
);

/**
 * The root of the tree holding `count = keys.length / 32` entries (key i = keys[32i..32i+32),
 * value i = values[32i..]), the same root `BinaryTree` computes, hashed on several threads.
 * Subtrees below depth k are independent: the stems are split by their first k bits into 2^k
 * partitions, and the partitions into units of consecutive ones; the calling thread lays the
 * entries out by partition in shared memory (the first units first, so the workers start at
 * once), every thread then claims units one at a time and builds and hashes each into an arena
 * of its own, writing each partition's kind and hash to shared memory, and the calling thread
 * merges the top k levels. With `threads: 1` it is a plain BinaryTree insert + hash on the
 * calling thread. Later entries with the same key win.
 */
export async function parallelRoot(
  keys: Uint8Array,
  values: Uint8Array,
  options: ParallelRootOptions = {},
): Promise<Uint8Array> {
  assertKnownOptions(options, PARALLEL_ROOT_OPTION_KEYS, "parallelRoot", TreeError);
  if (!(keys instanceof Uint8Array) || keys.length % 32 !== 0) {
    throw new TreeError(
      "INVALID_KEY",
      `parallelRoot: keys must be 32-byte keys back to back, got ${describeValue(keys)}`,
    );
  }
  if (!(values instanceof Uint8Array) || values.length !== keys.length) {
    throw new TreeError(
      "INVALID_VALUE",
      `parallelRoot: values must be ${keys.length} bytes (32 per key), got ${describeValue(values)}`,
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
  if (threads === 1) {
    const count = keys.length >>> 5;
    const tree = new BinaryTree({ scheme, hasher });
    for (let i = 0; i < count; i++)
      tree.put(keys.subarray(i << 5, (i << 5) + 32), values.subarray(i << 5, (i << 5) + 32));
    return tree.hash();
  }
  wasmModule ??= compileWasmSha256Module();
  const module = hashFunctionOfScheme(scheme) === "sha256" ? await wasmModule : undefined;
  const init: PartitionWorkerInit = module === undefined ? {} : { wasmModule: module };
  return rootOnThreads(pool, init, keys, values, { threads, k, scheme, hasher }, options.timings);
}

/**
 * Ends the worker threads parallelRoot keeps between calls (they do not keep a process alive)
 * and frees the entry layout it keeps for the next call (64 bytes per entry of the last call).
 */
export function closeParallelWorkers(): Promise<void> {
  return pool.close();
}

/**
 * parallelRoot's work on `threads` threads (the calling one and threads - 1 workers from
 * `workers`; fewer when there are fewer units). Validated input; tests pass their own pool.
 */
export async function rootOnThreads(
  workers: PartitionWorkerPool,
  init: PartitionWorkerInit,
  keys: Uint8Array,
  values: Uint8Array,
  setup: { threads: number; k: number; scheme: KeyScheme; hasher: Hasher },
  timings?: ParallelRootTimings,
): Promise<Uint8Array> {
  const { k, hasher } = setup;
  const t0 = clock();
  const count = keys.length >>> 5;
  const width = 1 << k;
  // First pass: each key's partition, each partition's key count (the counting sort's), and a
  // list of the keys of the first partitions (their entries go first, without another pass).
  const prefixes = new Uint16Array(count);
  const below = Math.ceil(width * FIRST_SHARE * 2);
  const listed = new Uint32Array(Math.min(count, Math.ceil(count * FIRST_SHARE * 4)));
  const { histogram, listedCount } = prefixHistogramListing(
    keys,
    count,
    k,
    prefixes,
    below,
    listed,
  );
  const starts = prefixStarts(histogram);
  const units = partitionUnits(starts, setup.threads, UNIT_ENTRIES);
  const unitCount = units.length - 1;
  const threads = Math.max(1, Math.min(setup.threads, unitCount));
  const shared = threads > 1;
  const work: PartitionWork = {
    entries: shared ? workers.entries.take(count * 64) : new Uint8Array(count * 64),
    starts: copyOf(starts, shared),
    k,
    units: copyOf(units, shared),
    control: new Int32Array(buffer(CONTROL_WORDS * 4, shared)),
    kinds: bytes(width, shared),
    hashes: bytes(width * 32, shared),
    scheme: setup.scheme,
  };
  // Worker w starts with unit w (so each takes part, however late it starts), then claims; the
  // calling thread claims once it has laid out every entry.
  work.control[NEXT] = threads - 1;
  const counted = clock();
  // Posted before the entries are laid out: the workers' wake-up overlaps the scatter.
  const replies = workers.start(
    init,
    Array.from({ length: threads - 1 }, (_, w) => ({ work, first: w })),
  );
  let firstReady = counted;
  let allReady: number;
  let mine: UnitsDone;
  try {
    // Scatter passes over consecutive runs of units, each published as soon as it is laid out:
    // the workers' first units (all the workers wait for), then up to FIRST_SHARE of the entries
    // (what they build while the last pass lays out the rest), then the rest. The first runs
    // come from the list of the first pass when it holds them, the rest from a pass over all.
    let firstShare = threads - 1;
    while (firstShare < unitCount && starts[units[firstShare]!]! < count * FIRST_SHARE)
      firstShare++;
    const cursors = starts.slice(0, width);
    let from = 0;
    for (const to of [threads - 1, firstShare, unitCount]) {
      if (to <= from) continue;
      const lo = units[from]!;
      const hi = units[to]!;
      if (hi <= below && listedCount <= listed.length)
        scatterListed(keys, values, prefixes, listed, listedCount, lo, hi, cursors, work.entries);
      else scatterEntries(keys, values, prefixes, count, lo, hi, cursors, work.entries);
      publishReady(work.control, to);
      if (from === 0) firstReady = clock();
      from = to;
    }
    allReady = clock();
    mine = buildUnits(work, Atomics.add(work.control, NEXT, 1), hasher);
  } catch (error) {
    stopWork(work.control);
    await Promise.allSettled(replies);
    throw error;
  }
  const built = clock();
  const settled = await Promise.allSettled(replies);
  const joined = clock();
  const failure = settled.find((s) => s.status === "rejected");
  if (failure !== undefined) throw failure.reason;
  // Every thread is done reading the entries: the next call may lay its own out there.
  if (shared) workers.entries.give(work.entries);
  const root = mergePartitions(work.kinds, work.hashes, k, hasher);
  if (timings !== undefined) {
    const total = clock();
    const theirs = settled.map((s) => (s as PromiseFulfilledResult<UnitsDone>).value);
    Object.assign(timings, {
      counted: counted - t0,
      firstReady: firstReady - t0,
      allReady: allReady - t0,
      built: built - t0,
      joined: joined - t0,
      total: total - t0,
      threads: [mine, ...theirs].map((d) => relative(d, t0)),
    });
  }
  return root;
}

function relative(done: UnitsDone, t0: number): ParallelRootThreadTimings {
  return {
    ...done,
    startAt: done.startAt - t0,
    firstAt: done.firstAt - t0,
    endAt: done.endAt - t0,
  };
}

function buffer(length: number, shared: boolean): ArrayBufferLike {
  return shared ? new SharedArrayBuffer(length) : new ArrayBuffer(length);
}

function bytes(length: number, shared: boolean): Uint8Array {
  return new Uint8Array(buffer(length || 4, shared), 0, length);
}

function copyOf(words: Uint32Array, shared: boolean): Uint32Array {
  if (!shared) return words;
  const copy = new Uint32Array(buffer(words.length * 4, true));
  copy.set(words);
  return copy;
}
