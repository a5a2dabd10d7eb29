import { readU32BE } from "../bytes/read-u32-be.js";
import { copy16 } from "../hash/word-copy.js";

/** Entries held before a flush is forced (64 bytes each: 64 MiB at most). */
const MAX_ENTRIES = 1 << 20;
/** Entries per chunk (1 MiB): entry e sits in chunk e >>> LOG_CHUNK_BITS. */
export const LOG_CHUNK_BITS = 14;
export const LOG_CHUNK_MASK = (1 << LOG_CHUNK_BITS) - 1;
const CHUNK_BYTES = 64 << LOG_CHUNK_BITS;
/** The first chunk starts small (a block's writes) and doubles up to a whole chunk. */
const FIRST_BYTES = 64 * 1024;
/** The append histogram counts entries by the key's top 12 bits. */
const HISTOGRAM_BITS = 12;
/** Logs shorter than this sort with 8-bit digits (four passes over 256 buckets). */
const SMALL_LOG = 1 << 14;
/** The in-place sort's first pass aims at buckets of at most this many entries (64 KiB, in cache still; fewer buckets keep the scatter's write streams within the TLB). */
const BUCKET_TARGET = 1024;
/** Top-bit buckets of the in-place sort: at most 2^12 (the log holds at most 2^20 entries). */
const MAX_BUCKET_BITS = HISTOGRAM_BITS;
/** Runs of equal bucket digits up to this long are ordered by insertion. */
const INSERTION_RUN = 16;
const NO_CHUNKS: Uint8Array[] = [];
/** Scratch entries kept between sorts; bigger arrays are dropped when the log is cleared. */
const KEPT = 1024;

/**
 * Pending single-key writes (key ‖ value, 64 bytes each) in 1 MiB chunks, so growing never
 * copies what the log holds (and a 1M-write log is touched once, not once per doubling), with
 * two sorts: a stable radix sort of entry indices by the first four key bytes (the write
 * flusher's), and an in-place sort of the entries themselves by whole stems (the bulk build's).
 */
export class WriteLog {
  /** The chunks: entry e at chunks[e >>> LOG_CHUNK_BITS], byte (e & LOG_CHUNK_MASK) << 6. */
  readonly chunks: Uint8Array[] = [new Uint8Array(FIRST_BYTES)];
  /** Word views of `chunks` (16 words per entry). */
  readonly words: Uint32Array[] = [new Uint32Array(this.chunks[0]!.buffer)];
  count = 0;
  /** When set, the chunks are consecutive views of this one buffer (adopted, or flattened). */
  #flat: Uint8Array | undefined = undefined;
  /** The buffers of the chunks this log allocated itself (only those are given away). */
  readonly #own = new WeakSet<ArrayBufferLike>([this.chunks[0]!.buffer]);
  /** Set once a chunk was given away: `clear` then starts again from a new first chunk. */
  #gaveAway = false;
  /** Entries per top-12-bit key prefix, kept by `append` so the in-place sort skips a pass. */
  readonly #histogram = new Uint32Array(1 << HISTOGRAM_BITS);
  #histogramValid = true;
  /**
   * After `sortByStemInPlace`: the position of each stem's first entry (stemCount + 1 values;
   * the last is `count`), the bits stem s shares with stem s + 1, and the number of stems.
   */
  stemFirsts = new Uint32Array(KEPT);
  stemShared = new Uint8Array(KEPT);
  stemCount = 0;
  #order = new Uint32Array(1024);
  #scratch = new Uint32Array(1024);
  #digits = new Uint32Array(1024);
  #scratchDigits = new Uint32Array(1024);
  readonly #buckets = new Uint32Array(1 << 11);
  /** The flusher's copy of the entries in sorted order (inOrder). */
  #ordered = new Uint8Array(64 * 1024);
  #ordered32 = new Uint32Array(this.#ordered.buffer);
  // Scratch of sortByStemInPlace, reused across sorts.
  #bucketStarts = new Uint32Array(1);
  #bucketCursors = new Uint32Array(1);
  #bucketOrder = new Uint32Array(256);
  #bucketScratch = new Uint32Array(256);
  #bucketDigits = new Uint32Array(256);
  /** A bucket's entries in their sorted order, before they are written back. */
  #bucketEntries = new Uint32Array(256 * 16);
  readonly #subCounts = new Uint32Array(257);
  #sortBase = 0;
  /** Stems sortByStemInPlace has recorded so far (its #placeBucket calls add to it). */
  #stemsFound = 0;
  /** The chunks the bucket being sorted is read from (the spare ones, or the log's). */
  #sortChunks: Uint8Array[] = NO_CHUNKS;

  get full(): boolean {
    return this.count >= MAX_ENTRIES;
  }

  /** Appends one write; `key` and `value` are exactly 32 bytes (the caller checked). */
  append(key: Uint8Array, value: Uint8Array): void {
    const e = this.count;
    const c = e >>> LOG_CHUNK_BITS;
    const at = (e & LOG_CHUNK_MASK) << 6;
    const chunks = this.chunks;
    let chunk = c < chunks.length ? chunks[c]! : this.#room(c);
    if (at + 64 > chunk.length) chunk = this.#room(c);
    // Two block copies: a third faster than 64 byte stores (measured at 1M writes).
    chunk.set(key, at);
    chunk.set(value, at + 32);
    this.#histogram[(key[0]! << 4) | (key[1]! >>> 4)]!++;
    this.count = e + 1;
  }

  /** Room for entries of chunk c: a new chunk, or the short last one grown (copied) to size. */
  #room(c: number): Uint8Array {
    const { chunks, words } = this;
    let chunk: Uint8Array;
    if (c < chunks.length) {
      // The first chunk doubles until it is whole; a short tail of an adopted buffer is copied.
      const old = chunks[c]!;
      const size =
        c === 0 ? Math.min(CHUNK_BYTES, Math.max(FIRST_BYTES, old.length * 2)) : CHUNK_BYTES;
      chunk = new Uint8Array(size);
      chunk.set(old);
      this.#own.add(chunk.buffer);
      chunks[c] = chunk;
      words[c] = new Uint32Array(chunk.buffer);
    } else {
      chunk = new Uint8Array(CHUNK_BYTES);
      this.#own.add(chunk.buffer);
      chunks.push(chunk);
      words.push(new Uint32Array(chunk.buffer));
    }
    this.#flat = undefined;
    return chunk;
  }

  /**
   * All entries in one buffer (entry e at byte e << 6), for the write flusher. A log of one
   * chunk is that chunk; a longer one is copied into one buffer once, which then backs its chunks.
   */
  get bytes(): Uint8Array {
    if (this.chunks.length === 1) return this.chunks[0]!;
    if (this.#flat !== undefined) return this.#flat;
    const flat = new Uint8Array(this.chunks.length * CHUNK_BYTES);
    const used = this.count << 6;
    for (let c = 0; c < this.chunks.length && c * CHUNK_BYTES < used; c++) {
      const chunk = this.chunks[c]!;
      flat.set(chunk.subarray(0, Math.min(chunk.length, used - c * CHUNK_BYTES)), c * CHUNK_BYTES);
    }
    this.#backBy(flat);
    return flat;
  }

  /**
   * Takes `entries` (key ‖ value, 64 bytes each, in call order) as the pending writes, without
   * copying them (unless they are not 4-byte aligned); the log reads them in place and sorts
   * them in place.
   */
  adopt(entries: Uint8Array): void {
    this.#backBy(entries.byteOffset % 4 === 0 ? entries : entries.slice());
    this.count = entries.length >>> 6;
    this.#histogramValid = false;
  }

  /** Makes the chunks consecutive views of `flat` (the last one as long as what is left). */
  #backBy(flat: Uint8Array): void {
    const { chunks, words } = this;
    chunks.length = 0;
    words.length = 0;
    let start = 0;
    do {
      const end = Math.min(flat.length, start + CHUNK_BYTES);
      chunks.push(flat.subarray(start, end));
      words.push(new Uint32Array(flat.buffer, flat.byteOffset + start, (end - start) >>> 2));
      start = end;
    } while (start < flat.length);
    this.#flat = flat;
  }

  /**
   * Chunk c, given away for good (a bulk build that has read it recycles it), when it is a
   * whole chunk this log allocated; the log is then only cleared, never read, until `clear`.
   */
  giveAway(c: number): Uint8Array | undefined {
    const chunk = this.chunks[c];
    if (chunk === undefined || chunk.length !== CHUNK_BYTES || !this.#own.has(chunk.buffer)) {
      return undefined;
    }
    this.#own.delete(chunk.buffer);
    this.#gaveAway = true;
    return chunk;
  }

  clear(): void {
    this.count = 0;
    this.#histogram.fill(0);
    this.#histogramValid = true;
    if (this.#gaveAway) {
      const first = new Uint8Array(FIRST_BYTES);
      this.#own.add(first.buffer);
      this.chunks.length = 0;
      this.words.length = 0;
      this.chunks.push(first);
      this.words.push(new Uint32Array(first.buffer));
      this.#flat = undefined;
      this.#gaveAway = false;
    }
    // A bulk build's chunks are not kept (a flat buffer is: the flusher's big logs reuse it).
    if (this.chunks.length > 1 && this.#flat === undefined) {
      this.chunks.length = 1;
      this.words.length = 1;
    }
    if (this.stemFirsts.length > KEPT) {
      this.stemFirsts = new Uint32Array(KEPT);
      this.stemShared = new Uint8Array(KEPT);
    }
    if (this.#bucketEntries.length > KEPT * 16) this.#bucketEntries = new Uint32Array(KEPT * 16);
    if (this.#ordered.length > KEPT * 64) {
      this.#ordered = new Uint8Array(KEPT * 64);
      this.#ordered32 = new Uint32Array(this.#ordered.buffer);
    }
    this.stemCount = 0;
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
    this.#histogramValid = false;
  }

  /**
   * The entries in `order` (their count: this.count), copied one after another into a buffer
   * kept for the next call (the write flusher then reads them sequentially). 4-byte aligned.
   */
  inOrder(order: Uint32Array): Uint8Array {
    const n = this.count;
    if (this.#ordered.length < n << 6) {
      this.#ordered = new Uint8Array(Math.max(n << 6, this.#ordered.length * 2));
      this.#ordered32 = new Uint32Array(this.#ordered.buffer);
    }
    const bytes = this.bytes;
    const from = new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.length >>> 2);
    const to = this.#ordered32;
    for (let k = 0; k < n; k++) copy16(from, order[k]! << 4, to, k << 4);
    return this.#ordered;
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
   * Rearranges the entries themselves into whole-stem order, equal stems in call order, and
   * records the stems (stemFirsts, stemShared, stemCount), so a bulk build reads the entries
   * once, sequentially (reading them through an index order costs a cache and TLB miss per stem
   * at 1M entries). One counting-sort pass copies the entries into spare chunks by their top
   * bits (the bucket sizes come from the append histogram, so no counting pass); each bucket, a
   * few hundred entries now in cache, is ordered by stem and call order and copied back, and
   * its stems recorded while it is still in cache. Returns the spare chunks (nothing refers to
   * them any more: a bulk build recycles them as pool slabs).
   */
  sortByStemInPlace(): Uint8Array[] {
    const n = this.count;
    if (this.stemFirsts.length < n + 1) {
      this.stemFirsts = new Uint32Array(n + 1);
      this.stemShared = new Uint8Array(n);
    }
    this.stemCount = 0;
    this.stemFirsts[0] = 0;
    if (n === 0) return [];
    if (!this.#histogramValid) this.#recount();
    // Top key bits every entry shares (a partition's unit of the parallel build): buckets and
    // digits start below them, or all entries land in one bucket and sort by comparisons.
    const histogram = this.#histogram;
    let lo = 0;
    while (histogram[lo] === 0) lo++;
    let hi = (1 << HISTOGRAM_BITS) - 1;
    while (histogram[hi] === 0) hi--;
    // Leading bits of the HISTOGRAM_BITS-bit prefixes lo and hi have in common (all when equal).
    const skip = Math.clz32(lo ^ hi) - (32 - HISTOGRAM_BITS);
    let bits = 0;
    while (skip + bits < MAX_BUCKET_BITS && n >>> bits > BUCKET_TARGET) bits++;
    const buckets = 1 << bits;
    if (this.#bucketStarts.length < buckets + 1) {
      this.#bucketStarts = new Uint32Array(buckets + 1);
      this.#bucketCursors = new Uint32Array(buckets);
    }
    const starts = this.#bucketStarts;
    const per = 1 << (HISTOGRAM_BITS - skip - bits);
    starts[0] = 0;
    const firstBin = (lo >>> (HISTOGRAM_BITS - skip)) << (HISTOGRAM_BITS - skip);
    for (let b = 0, h = firstBin; b < buckets; b++) {
      let sum = starts[b]!;
      for (let k = 0; k < per; k++) sum += histogram[h++]!;
      starts[b + 1] = sum;
    }
    // Buckets of a single-bucket log are ordered in place; otherwise the entries are copied out
    // into spare chunks by bucket, and each bucket copied back in its order.
    const spare = buckets > 1 ? this.#scatter(starts, buckets, 16 - skip - bits) : undefined;
    this.#sortChunks = spare?.chunks ?? this.chunks;
    this.#stemsFound = 0;
    for (let b = 0; b < buckets; b++) {
      const from = starts[b]!;
      const m = starts[b + 1]! - from;
      if (m > 0) this.#placeBucket(from, m, skip + bits, spare?.words);
    }
    const count = this.#stemsFound;
    this.stemFirsts[count] = n;
    this.stemCount = count;
    this.#sortChunks = NO_CHUNKS;
    return spare?.chunks ?? NO_CHUNKS;
  }

  /**
   * Orders the bucket of the m entries at from.. (see #sortBucket) into place, from the spare
   * chunks `source` (undefined: the bucket is the log's own, ordered through #bucketEntries),
   * and records its stems. A call per bucket: a build's first buckets run optimised code
   * already, where one loop over all of them would start over from the interpreter each sort.
   */
  #placeBucket(from: number, m: number, bits: number, source: Uint32Array[] | undefined): void {
    const { chunks, words } = this;
    const shared = this.stemShared;
    const firsts = this.stemFirsts;
    const order = this.#sortBucket(from, m, bits);
    const digits = this.#bucketDigits;
    if (source === undefined) {
      if (this.#bucketEntries.length < m << 4) this.#bucketEntries = new Uint32Array(m << 4);
      const held = this.#bucketEntries;
      for (let j = 0; j < m; j++) {
        const e = from + order[j]!;
        copy16(words[e >>> LOG_CHUNK_BITS]!, (e & LOG_CHUNK_MASK) << 4, held, j << 4);
      }
      for (let j = 0; j < m; j++) {
        const e = from + j;
        copy16(held, j << 4, words[e >>> LOG_CHUNK_BITS]!, (e & LOG_CHUNK_MASK) << 4);
      }
    }
    // Each entry copied back in its order (from the spare chunks), then the bucket's stems: a
    // new one wherever an entry's stem differs from the previous entry's, which is in place
    // already (this bucket's, or the last of the one before).
    let count = this.#stemsFound;
    // The first four key bytes of the entry before, in place already; as an int32 (a uint32 of
    // 2^31 or more would be boxed).
    let previous =
      from === 0
        ? 0
        : readU32BE(chunks[(from - 1) >>> LOG_CHUNK_BITS]!, ((from - 1) & LOG_CHUNK_MASK) << 6) | 0;
    for (let j = 0; j < m; j++) {
      const o = order[j]!;
      const e = from + j;
      if (source !== undefined) {
        const at = from + o;
        copy16(
          source[at >>> LOG_CHUNK_BITS]!,
          (at & LOG_CHUNK_MASK) << 4,
          words[e >>> LOG_CHUNK_BITS]!,
          (e & LOG_CHUNK_MASK) << 4,
        );
      }
      const digit = digits[o]! | 0;
      if (e === 0) {
        count = 1;
      } else {
        // Neighbours that differ in their first 4 bytes (nearly all, for hashed keys) share
        // what those bytes share.
        const x = previous ^ digit;
        const same = x !== 0 ? Math.clz32(x) : sharedStemBits(chunks, e - 1, e);
        if (same !== 248) {
          shared[count - 1] = same;
          firsts[count++] = e;
        }
      }
      previous = digit;
    }
    this.#stemsFound = count;
  }

  /** Entries per top-12-bit prefix counted again (after adopt or retainUnapplied). */
  #recount(): void {
    const histogram = this.#histogram;
    histogram.fill(0);
    const { chunks } = this;
    for (let e = 0; e < this.count; e++) {
      const bytes = chunks[e >>> LOG_CHUNK_BITS]!;
      const at = (e & LOG_CHUNK_MASK) << 6;
      histogram[(bytes[at]! << 4) | (bytes[at + 1]! >>> 4)]!++;
    }
    this.#histogramValid = true;
  }

  /**
   * Copies every entry into its bucket's range of new chunks (a stable counting-sort pass: a
   * bucket's entries keep their call order). The copies do not depend on each other, so the
   * memory system overlaps them (an in-place permutation, whose every step waits for the entry
   * it displaced, runs at the latency of a cache miss: measured slower at 1M entries).
   */
  #scatter(
    starts: Uint32Array,
    buckets: number,
    top: number,
  ): { chunks: Uint8Array[]; words: Uint32Array[] } {
    const n = this.count;
    const cursors = this.#bucketCursors;
    cursors.set(starts.subarray(0, buckets));
    const targets: Uint8Array[] = [];
    const targetWords: Uint32Array[] = [];
    for (let c = 0; c << LOG_CHUNK_BITS < n; c++) {
      const chunk = new Uint8Array(CHUNK_BYTES);
      targets.push(chunk);
      targetWords.push(new Uint32Array(chunk.buffer));
    }
    for (let c = 0; c << LOG_CHUNK_BITS < n; c++) {
      const end = Math.min(1 << LOG_CHUNK_BITS, n - (c << LOG_CHUNK_BITS)) << 6;
      this.#scatterChunk(c, end, top, buckets - 1, targetWords);
    }
    return { chunks: targets, words: targetWords };
  }

  /** #scatter's pass over the entries of chunk c (its first `end` bytes), a call per chunk. */
  #scatterChunk(
    c: number,
    end: number,
    top: number,
    mask: number,
    targetWords: Uint32Array[],
  ): void {
    const bytes = this.chunks[c]!;
    const from = this.words[c]!;
    const cursors = this.#bucketCursors;
    for (let at = 0; at < end; at += 64) {
      const to = cursors[(((bytes[at]! << 8) | bytes[at + 1]!) >>> top) & mask]!++;
      copy16(from, at >>> 2, targetWords[to >>> LOG_CHUNK_BITS]!, (to & LOG_CHUNK_MASK) << 4);
    }
  }

  /**
   * The order of the m entries at from.. (sharing their top `bits` bits) by stem, then call
   * order: a counting sort by the next 8 bits, then each run of equal 8 bits (one or two entries
   * for hashed keys) by the rest of the stem. Returns positions relative to `from`; the entries'
   * first four key bytes are left in #bucketDigits (by position).
   */
  #sortBucket(from: number, m: number, bits: number): Uint32Array {
    if (this.#bucketOrder.length < m) {
      const capacity = Math.max(m, this.#bucketOrder.length * 2);
      this.#bucketOrder = new Uint32Array(capacity);
      this.#bucketScratch = new Uint32Array(capacity);
      this.#bucketDigits = new Uint32Array(capacity);
    }
    const chunks = this.#sortChunks;
    const digits = this.#bucketDigits;
    const scratch = this.#bucketScratch;
    const order = this.#bucketOrder;
    const shift = 24 - bits;
    const counts = this.#subCounts;
    counts.fill(0);
    for (let j = 0; j < m; j++) {
      const e = from + j;
      const digit = readU32BE(chunks[e >>> LOG_CHUNK_BITS]!, (e & LOG_CHUNK_MASK) << 6);
      digits[j] = digit;
      counts[((digit >>> shift) & 0xff) + 1]!++;
    }
    if (m === 1) {
      order[0] = 0;
      return order;
    }
    for (let c = 0; c < 256; c++) counts[c + 1]! += counts[c]!;
    for (let j = 0; j < m; j++) scratch[counts[(digits[j]! >>> shift) & 0xff]!++] = j;
    // After the pass counts[c] is where run c ends (and run c + 1 starts).
    this.#sortBase = from;
    let start = 0;
    for (let c = 0; c < 256; c++) {
      const end = counts[c]!;
      const length = end - start;
      if (length === 1) {
        order[start] = scratch[start]!;
      } else if (length > 1 && length <= INSERTION_RUN) {
        // By the first four key bytes inline (nearly always decisive), the rest only on a tie.
        for (let k = start; k < end; k++) {
          const j = scratch[k]!;
          const digit = digits[j]!;
          let i = k;
          while (i > start) {
            const before = order[i - 1]!;
            const other = digits[before]!;
            if (other < digit || (other === digit && this.#compare(before, j) < 0)) break;
            order[i] = before;
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

  /** #compare as a function of its own, for Array.prototype.sort. */
  readonly #compareInBucket = (a: number, b: number): number => this.#compare(a, b);

  /**
   * Orders two entries of the bucket being sorted by stem, then by position (= call order). A
   * method, not the closure: optimised code calling a per-log closure keeps that log's function
   * as a constant, and is thrown away once that log is collected.
   */
  #compare(a: number, b: number): number {
    const digits = this.#bucketDigits;
    const x = digits[a]!;
    const y = digits[b]!;
    if (x !== y) return x < y ? -1 : 1;
    const p = this.#sortBase + a;
    const q = this.#sortBase + b;
    const pb = this.#sortChunks[p >>> LOG_CHUNK_BITS]!;
    const qb = this.#sortChunks[q >>> LOG_CHUNK_BITS]!;
    const pa = (p & LOG_CHUNK_MASK) << 6;
    const qa = (q & LOG_CHUNK_MASK) << 6;
    for (let i = 4; i < 31; i++) {
      const d = pb[pa + i]! - qb[qa + i]!;
      if (d !== 0) return d;
    }
    return a - b;
  }
}

/** Leading bits the stems of entries p and q of `chunks` share (248 when equal). */
function sharedStemBits(chunks: readonly Uint8Array[], p: number, q: number): number {
  const a = chunks[p >>> LOG_CHUNK_BITS]!;
  const b = chunks[q >>> LOG_CHUNK_BITS]!;
  const ao = (p & LOG_CHUNK_MASK) << 6;
  const bo = (q & LOG_CHUNK_MASK) << 6;
  for (let i = 0; i < 31; i++) {
    const x = a[ao + i]! ^ b[bo + i]!;
    if (x !== 0) return i * 8 + Math.clz32(x) - 24;
  }
  return 248;
}
