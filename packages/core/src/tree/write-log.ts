import { readU32BE } from "../bytes/read-u32-be.js";
import { copy16 } from "../hash/word-copy.js";

/** Entries held before a flush is forced (64 bytes each: 64 MiB at most). */
const MAX_ENTRIES = 1 << 20;
/** Logs shorter than this sort with 8-bit digits (four passes over 256 buckets). */
const SMALL_LOG = 1 << 14;
/** The in-place sort's first pass aims at buckets of at most this many entries (16 KiB). */
const BUCKET_TARGET = 256;
/** Top-bit buckets of the in-place sort: at most 2^12 (the log holds at most 2^20 entries). */
const MAX_BUCKET_BITS = 12;
/** Runs of equal bucket digits up to this long are ordered by insertion. */
const INSERTION_RUN = 16;
const NO_BYTES: Uint8Array = new Uint8Array(0);

/**
 * Pending single-key writes (key ‖ value, 64 bytes each) and a stable radix sort of them by
 * their first four key bytes: enough to give consecutive writes shared paths, and stable so two
 * writes of one key keep their call order (the later one wins).
 */
export class WriteLog {
  bytes: Uint8Array = new Uint8Array(64 * 1024);
  count = 0;
  #order = new Uint32Array(1024);
  #scratch = new Uint32Array(1024);
  #digits = new Uint32Array(1024);
  #scratchDigits = new Uint32Array(1024);
  readonly #buckets = new Uint32Array(1 << 11);
  // Scratch of sortByStemInPlace, reused across sorts.
  #bucketStarts = new Uint32Array(1);
  #bucketCursors = new Uint32Array(1);
  #bucketOrder = new Uint32Array(256);
  #bucketScratch = new Uint32Array(256);
  #bucketDigits = new Uint32Array(256);
  readonly #subCounts = new Uint32Array(257);
  /** The copy being sorted (held only during a sort: it is as large as the log). */
  #sortSource: Uint8Array = NO_BYTES;
  #sortBase = 0;

  get full(): boolean {
    return this.count >= MAX_ENTRIES;
  }

  /** Appends one write; `key` and `value` are exactly 32 bytes (the caller checked). */
  append(key: Uint8Array, value: Uint8Array): void {
    const at = this.count << 6;
    if (at + 64 > this.bytes.length) {
      const grown = new Uint8Array(Math.max(64 * 1024, this.bytes.length * 2));
      grown.set(this.bytes);
      this.bytes = grown;
    }
    // Two block copies: a third faster than 64 byte stores (measured at 1M writes).
    this.bytes.set(key, at);
    this.bytes.set(value, at + 32);
    this.count++;
  }

  /**
   * Takes `entries` (key ‖ value, 64 bytes each, in call order) as the pending writes, without
   * copying them; the log reads them in place (and only rearranges them when applying fails).
   */
  adopt(entries: Uint8Array): void {
    this.bytes = entries;
    this.count = entries.length >>> 6;
  }

  clear(): void {
    this.count = 0;
  }

  /**
   * Keeps only the entries order[from..] (the ones not applied yet), in their call order, so a
   * later sort reproduces their relative order; used when applying the log threw midway.
   */
  retainUnapplied(order: Uint32Array, from: number): void {
    const n = this.count;
    const keep = order.slice(from, n).sort();
    const bytes = this.bytes;
    for (let k = 0; k < keep.length; k++) {
      // keep[k] >= k (ascending, distinct), so moving entries down never overwrites one still to move.
      bytes.copyWithin(k << 6, keep[k]! << 6, (keep[k]! << 6) + 64);
    }
    this.count = keep.length;
  }

  /** Entry indices ordered by the key's first 4 bytes (big-endian), stable. */
  sortedOrder(): Uint32Array {
    const n = this.count;
    if (this.#order.length < n) {
      const capacity = Math.max(n, this.#order.length * 2);
      this.#order = new Uint32Array(capacity);
      this.#scratch = new Uint32Array(capacity);
      this.#digits = new Uint32Array(capacity);
      this.#scratchDigits = new Uint32Array(capacity);
    }
    const bytes = this.bytes;
    let digits = this.#digits;
    let order = this.#order;
    for (let e = 0; e < n; e++) {
      const at = e << 6;
      digits[e] = readU32BE(bytes, at);
      order[e] = e;
    }
    let toDigits = this.#scratchDigits;
    let to = this.#scratch;
    // Stable counting-sort passes from the low digit up (LSD radix), each digit moved along with
    // its entry so every pass reads sequentially. Bucket tables stay in L1; small logs (a block)
    // use narrower digits so clearing the table costs nothing.
    const bits = n < SMALL_LOG ? 8 : 11;
    const buckets = this.#buckets;
    for (let shift = 0; shift < 32; shift += bits) {
      const size = 1 << Math.min(bits, 32 - shift);
      const mask = size - 1;
      buckets.fill(0, 0, size);
      for (let e = 0; e < n; e++) buckets[(digits[e]! >>> shift) & mask]!++;
      let sum = 0;
      for (let b = 0; b < size; b++) {
        const c = buckets[b]!;
        buckets[b] = sum;
        sum += c;
      }
      for (let e = 0; e < n; e++) {
        const digit = digits[e]!;
        const slot = buckets[(digit >>> shift) & mask]!++;
        to[slot] = order[e]!;
        toDigits[slot] = digit;
      }
      const swapOrder = order;
      order = to;
      to = swapOrder;
      const swapDigits = digits;
      digits = toDigits;
      toDigits = swapDigits;
    }
    return order;
  }

  /**
   * Rearranges the entries themselves into whole-stem order, equal stems in call order, so a
   * bulk build then reads them sequentially (reading them through an index order costs a cache
   * and TLB miss per stem at 1M entries). One counting-sort pass copies the entries into buckets
   * by their top bits (a few hundred entries each); each bucket, now in cache, is ordered by the
   * next 8 bits and then by the rest of the stem and call order, and copied back.
   */
  sortByStemInPlace(): void {
    const n = this.count;
    if (n < 2) return;
    const bytes = this.bytes;
    let bits = 0;
    while (bits < MAX_BUCKET_BITS && n >>> bits > BUCKET_TARGET) bits++;
    const buckets = 1 << bits;
    if (this.#bucketStarts.length < buckets + 1) this.#bucketStarts = new Uint32Array(buckets + 1);
    const starts = this.#bucketStarts;
    starts.fill(0, 0, buckets + 1);
    const top = 16 - bits;
    for (let e = 0; e < n; e++) {
      const at = e << 6;
      starts[(((bytes[at]! << 8) | bytes[at + 1]!) >>> top) + 1]!++;
    }
    for (let b = 0; b < buckets; b++) starts[b + 1]! += starts[b]!;
    const spare = new Uint8Array(n << 6);
    const cursors = this.#cursors(buckets);
    cursors.set(starts.subarray(0, buckets));
    const aligned = bytes.byteOffset % 4 === 0;
    const words = aligned ? new Uint32Array(bytes.buffer, bytes.byteOffset, n << 4) : undefined;
    const spareWords = new Uint32Array(spare.buffer);
    for (let e = 0; e < n; e++) {
      const at = e << 6;
      const to = cursors[((bytes[at]! << 8) | bytes[at + 1]!) >>> top]!++;
      if (words !== undefined) copy16(words, e << 4, spareWords, to << 4);
      else spare.set(bytes.subarray(at, at + 64), to << 6);
    }
    for (let b = 0; b < buckets; b++) {
      const from = starts[b]!;
      const m = starts[b + 1]! - from;
      if (m === 0) continue;
      const order = this.#sortBucket(spare, from, m, bits);
      for (let j = 0; j < m; j++) {
        const source = (from + order[j]!) << 6;
        const target = (from + j) << 6;
        if (words !== undefined) copy16(spareWords, source >>> 2, words, target >>> 2);
        else bytes.set(spare.subarray(source, source + 64), target);
      }
    }
    this.#sortSource = NO_BYTES;
  }

  /**
   * The order of the m entries at spare[from..] (sharing their top `bits` bits) by stem, then
   * position: a counting sort by the next 8 bits, then each run of equal 8 bits (one or two
   * entries for hashed keys) by the rest of the stem. Returns positions relative to `from`.
   */
  #sortBucket(spare: Uint8Array, from: number, m: number, bits: number): Uint32Array {
    if (this.#bucketOrder.length < m) {
      const capacity = Math.max(m, this.#bucketOrder.length * 2);
      this.#bucketOrder = new Uint32Array(capacity);
      this.#bucketScratch = new Uint32Array(capacity);
      this.#bucketDigits = new Uint32Array(capacity);
    }
    const digits = this.#bucketDigits;
    const scratch = this.#bucketScratch;
    const order = this.#bucketOrder;
    const shift = 24 - bits;
    const counts = this.#subCounts;
    counts.fill(0);
    for (let j = 0; j < m; j++) {
      const digit = readU32BE(spare, (from + j) << 6);
      digits[j] = digit;
      counts[((digit >>> shift) & 0xff) + 1]!++;
    }
    for (let c = 0; c < 256; c++) counts[c + 1]! += counts[c]!;
    for (let j = 0; j < m; j++) scratch[counts[(digits[j]! >>> shift) & 0xff]!++] = j;
    // After the pass counts[c] is where run c ends (and run c + 1 starts).
    this.#sortSource = spare;
    this.#sortBase = from;
    let start = 0;
    for (let c = 0; c < 256; c++) {
      const end = counts[c]!;
      const length = end - start;
      if (length === 1) {
        order[start] = scratch[start]!;
      } else if (length > 1 && length <= INSERTION_RUN) {
        for (let k = start; k < end; k++) {
          const j = scratch[k]!;
          let i = k;
          while (i > start && this.#compareInBucket(order[i - 1]!, j) > 0) {
            order[i] = order[i - 1]!;
            i--;
          }
          order[i] = j;
        }
      } else if (length > 1) {
        order.set(scratch.subarray(start, end), start);
        order.subarray(start, end).sort(this.#compareInBucket);
      }
      start = end;
    }
    return order;
  }

  /** Orders two entries of the bucket being sorted by stem, then by position (= call order). */
  readonly #compareInBucket = (a: number, b: number): number => {
    const digits = this.#bucketDigits;
    const x = digits[a]!;
    const y = digits[b]!;
    if (x !== y) return x < y ? -1 : 1;
    const bytes = this.#sortSource;
    const p = (this.#sortBase + a) << 6;
    const q = (this.#sortBase + b) << 6;
    for (let i = 4; i < 31; i++) {
      const d = bytes[p + i]! - bytes[q + i]!;
      if (d !== 0) return d;
    }
    return a - b;
  };

  #cursors(buckets: number): Uint32Array {
    if (this.#bucketCursors.length < buckets) this.#bucketCursors = new Uint32Array(buckets);
    return this.#bucketCursors;
  }
}
