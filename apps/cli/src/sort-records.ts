/** Buckets above this size are ordered by a comparison sort (insertion sort below it). */
const INSERTION_MAX = 32;

/**
 * 64-byte records (key ‖ value) sorted by key into a new buffer, keeping only the last record of
 * each key (later entries win); `then`, a second run of records, follows the first in input
 * order. Two stable MSD radix passes order the records by their first two key bytes: by the
 * first byte into 256 buckets, then each of those (in cache) by the second byte, so no pass
 * writes to more than 256 places at once (one pass into 65 536 buckets misses the cache and the
 * TLB on nearly every record). Then each 2-byte bucket is sorted by the rest
 * of the key: insertion sort for the usual few records per bucket, a stable comparison sort for
 * large buckets (adversarial keys cost O(n log n), never O(n²)). Returns the sorted records and
 * their count.
 */
export function sortRecords(
  records: Uint8Array,
  firstCount: number,
  then?: RecordRun,
): { records: Uint8Array; count: number } {
  const runs: RecordRun[] = [{ records, count: firstCount }];
  if (then !== undefined && then.count > 0) runs.push(then);
  const starts = new Uint32Array(65537);
  let total = 0;
  for (const run of runs) {
    countByPrefix(run.records, run.count, starts);
    total += run.count;
  }
  const count = total;
  for (let b = 1; b <= 65536; b++) starts[b]! += starts[b - 1]!;
  // Shared memory: worker threads that build the tree read the sorted records in place.
  const sorted = new Int32Array(sharedBuffer(count << 6));
  const out = new Uint8Array(sorted.buffer);
  const next = new Uint32Array(256);
  for (let b = 0; b < 256; b++) next[b] = starts[b << 8]!;
  // Run after run: a stable pass keeps the input order (the later of equal keys stays later).
  for (const run of runs) {
    // Word copies (4-byte words: every bit pattern survives, unlike a float copy).
    const from = new Int32Array(run.records.buffer, run.records.byteOffset, run.count << 4);
    scatterByByte(from, run.records, 0, run.count, next, sorted);
  }
  let largest = 0;
  for (let b = 0; b < 256; b++)
    largest = Math.max(largest, starts[(b + 1) << 8]! - starts[b << 8]!);
  // One first-byte bucket at a time, copied aside and scattered back by its second byte.
  const bucket = new Int32Array(largest << 4);
  const bucketBytes = new Uint8Array(bucket.buffer);
  for (let b = 0; b < 256; b++) {
    const lo = starts[b << 8]!;
    const n = starts[(b + 1) << 8]! - lo;
    if (n < 2) continue;
    bucket.set(sorted.subarray(lo << 4, (lo + n) << 4));
    for (let s = 0; s < 256; s++) next[s] = starts[(b << 8) | s]!;
    scatterByByte(bucket, bucketBytes, 1, n, next, sorted);
  }
  const scratch = new Int32Array(16);
  let kept = 0;
  for (let b = 0; b < 65536; b++) {
    const lo = starts[b]!;
    const hi = starts[b + 1]!;
    if (hi - lo > INSERTION_MAX) sortLarge(out, sorted, lo, hi);
    else if (hi - lo > 1) insertionSort(out, sorted, scratch, lo, hi);
    // Later entries win: of a run of equal keys (input order after a stable sort) keep the last.
    for (let i = lo; i < hi; i++) {
      if (i + 1 < hi && compareKeys(out, i, i + 1) === 0) continue;
      if (kept !== i) sorted.copyWithin(kept << 4, i << 4, (i + 1) << 4);
      kept++;
    }
  }
  return { records: out.subarray(0, kept << 6), count: kept };
}

/** Records in input order: the first `count` 64-byte records of `records`. */
export interface RecordRun {
  readonly records: Uint8Array;
  readonly count: number;
}

/** Adds the records' counts by 2-byte key prefix p to starts[p + 1]. */
function countByPrefix(records: Uint8Array, count: number, starts: Uint32Array): void {
  for (let i = 0; i < count; i++) {
    const at = i << 6;
    starts[((records[at]! << 8) | records[at + 1]!) + 1]!++;
  }
}

/**
 * One stable radix pass: each of the `count` records of `from` (its words; `fromBytes` is the same
 * memory) moves to the slot `next[its key byte byteIndex]++` of `to`.
 */
function scatterByByte(
  from: Int32Array,
  fromBytes: Uint8Array,
  byteIndex: number,
  count: number,
  next: Uint32Array,
  to: Int32Array,
): void {
  for (let i = 0; i < count; i++) {
    const dst = next[fromBytes[(i << 6) + byteIndex]!]!++ << 4;
    const src = i << 4;
    for (let w = 0; w < 16; w++) to[dst + w] = from[src + w]!;
  }
}

/** Stable insertion sort of records lo..hi-1 by key. */
function insertionSort(
  bytes: Uint8Array,
  words: Int32Array,
  scratch: Int32Array,
  lo: number,
  hi: number,
): void {
  for (let i = lo + 1; i < hi; i++) {
    let j = i;
    while (j > lo && compareKeys(bytes, j - 1, i) > 0) j--;
    if (j === i) continue;
    for (let w = 0; w < 16; w++) scratch[w] = words[(i << 4) + w]!;
    words.copyWithin((j + 1) << 4, j << 4, i << 4);
    for (let w = 0; w < 16; w++) words[(j << 4) + w] = scratch[w]!;
  }
}

/** Stable comparison sort of records lo..hi-1 by key (an index sort, then one permutation). */
function sortLarge(bytes: Uint8Array, words: Int32Array, lo: number, hi: number): void {
  const order = Array.from({ length: hi - lo }, (_, k) => lo + k);
  order.sort((a, b) => compareKeys(bytes, a, b) || a - b);
  const copy = words.slice(lo << 4, hi << 4);
  for (let k = 0; k < order.length; k++) {
    const src = (order[k]! - lo) << 4;
    const dst = (lo + k) << 4;
    for (let w = 0; w < 16; w++) words[dst + w] = copy[src + w]!;
  }
}

/** Compares the keys of records a and b (bytes 2..31: the first two are the bucket's). */
function compareKeys(bytes: Uint8Array, a: number, b: number): number {
  const x = a << 6;
  const y = b << 6;
  for (let i = 2; i < 32; i++) {
    const d = bytes[x + i]! - bytes[y + i]!;
    if (d !== 0) return d;
  }
  return 0;
}

/** A SharedArrayBuffer where the platform has one, else a plain ArrayBuffer. */
function sharedBuffer(bytes: number): ArrayBufferLike {
  return typeof SharedArrayBuffer === "function"
    ? new SharedArrayBuffer(bytes)
    : new ArrayBuffer(bytes);
}
