import type { KeyScheme } from "../embedding/key-scheme.js";
import type { Hasher } from "../hash/hasher.js";
import { Arena } from "../tree/arena.js";
import { BulkBuilder } from "../tree/bulk-builder.js";
import { StaleHasher } from "../tree/stale-hasher.js";
import { TreeWalker } from "../tree/tree-walker.js";
import { applyWriteLog } from "../tree/write-flusher.js";
import { WriteLog } from "../tree/write-log.js";
import type { ParallelRootThreadTimings } from "./parallel-root-timings.js";
import { readPartitions } from "./partition-results.js";

/** control[NEXT]: the next unit nobody has claimed (Atomics.add claims it). */
export const NEXT = 0;
/** control[READY]: how many units (from the first) have their entries in place. */
export const READY = 1;
/** control[STOP]: non-zero once a thread failed: the others claim nothing more. */
export const STOP = 2;
export const CONTROL_WORDS = 3;

/**
 * One parallel root's work, in shared memory when threads share it: every entry laid out by
 * partition, the units the threads claim, and where each partition's result goes.
 */
export interface PartitionWork {
  /** Key ‖ value, 64 bytes per entry, grouped by k-bit prefix in prefix order (call order within). */
  readonly entries: Uint8Array;
  /** starts[p]: the entries before partition p (2^k + 1 values). */
  readonly starts: Uint32Array;
  readonly k: number;
  /** Unit u is partitions units[u]..units[u+1]-1 (see partitionUnits). */
  readonly units: Uint32Array;
  /** NEXT, READY and STOP (Int32, for Atomics). */
  readonly control: Int32Array;
  /** Per partition: its kind (PARTITION_*) and its 32-byte hash. */
  readonly kinds: Uint8Array;
  readonly hashes: Uint8Array;
  readonly scheme: KeyScheme;
}

/**
 * What one thread did: a thread's timings with its times in milliseconds since the epoch
 * (comparable across threads; parallelRoot makes them relative to the call's start).
 */
export type UnitsDone = ParallelRootThreadTimings;

/** Milliseconds since the epoch, sub-millisecond, the same clock on every thread. */
export function clock(): number {
  return performance.timeOrigin + performance.now();
}

/**
 * Builds units until none is left or a thread failed: first unit `first` (a worker's own, so
 * each takes part however late it starts, or one the caller claimed), then the next unclaimed.
 * A unit whose entries are not in place yet is waited for (Atomics.wait: the calling thread
 * puts every entry in place before it builds, so only workers ever wait). Each unit is built into an arena of its own as a tree's first
 * flush does (the bulk builder, bottom-up in stem order, reading the entries in place), hashed
 * while its nodes are still in cache, and its partitions' kinds and hashes written out.
 */
export function buildUnits(work: PartitionWork, first: number, hasher: Hasher): UnitsDone {
  const { control, units, starts } = work;
  const count = units.length - 1;
  const log = new WriteLog();
  const startAt = clock();
  let firstAt = startAt;
  let endAt = startAt;
  let built = 0;
  let entries = 0;
  let busyMs = 0;
  let waitMs = 0;
  for (let u = first; u < count && Atomics.load(control, STOP) === 0; ) {
    let ready = Atomics.load(control, READY);
    if (ready <= u) {
      const from = clock();
      while (ready <= u && Atomics.load(control, STOP) === 0) {
        Atomics.wait(control, READY, ready);
        ready = Atomics.load(control, READY);
      }
      waitMs += clock() - from;
      if (Atomics.load(control, STOP) !== 0) break;
    }
    const at = clock();
    if (built === 0) firstAt = at;
    buildUnit(work, units[u]!, units[u + 1]!, log, hasher);
    endAt = clock();
    busyMs += endAt - at;
    built++;
    entries += starts[units[u + 1]!]! - starts[units[u]!]!;
    u = Atomics.add(control, NEXT, 1);
  }
  return { units: built, entries, startAt, firstAt, endAt, busyMs, waitMs };
}

/** Builds and hashes partitions from..to-1 (their entries in place) and writes their results. */
export function buildUnit(
  work: PartitionWork,
  from: number,
  to: number,
  log: WriteLog,
  hasher: Hasher,
): void {
  const { starts, kinds, k } = work;
  if (starts[to] === starts[from]) {
    kinds.fill(0, from, to);
    return;
  }
  const arena = new Arena();
  log.adopt(work.entries.subarray(starts[from]! << 6, starts[to]! << 6));
  const bulk = new BulkBuilder(arena);
  const staleHasher = new StaleHasher(arena, hasher, bulk);
  // As a tree's hash() does: the bulk build hashes window by window as it places.
  bulk.windows = staleHasher;
  bulk.hashNext = true;
  applyWriteLog(log, new TreeWalker(arena), arena, bulk);
  staleHasher.hashStale();
  readPartitions(arena, k, from, to, kinds, work.hashes);
}

/** Makes every unit count as in place (entries written), waking threads waiting for one. */
export function publishReady(control: Int32Array, units: number): void {
  Atomics.store(control, READY, units);
  Atomics.notify(control, READY);
}

/** Tells every thread to claim nothing more (one failed), waking those that wait. */
export function stopWork(control: Int32Array): void {
  Atomics.store(control, STOP, 1);
  Atomics.store(control, READY, 0x7fffffff);
  Atomics.notify(control, READY);
}
