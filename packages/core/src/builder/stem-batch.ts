import type { Hasher } from "../hash/hasher.js";
import { type OneValueStemHashes, oneValueStemHashes } from "../hash/one-value-stems.js";
import { StemSubtreeFold } from "../hash/stem-subtree-fold.js";
import type { HashSlots } from "./hash-slots.js";

/** Offset of the values in a stem blob: type byte, 31-byte stem, 32-byte bitmap. */
const VALUES_OFFSET = 64;
const BITMAP_OFFSET = 32;

/**
 * Completed stems waiting to be hashed together. Stem hashes do not depend on where the stem
 * ends up in the tree, so a whole batch is hashed at once: stems with one value (nearly all
 * of a hashed-key tree) as 64-byte records (stem ‖ subindex ‖ value) in one fused call, the
 * others level by level with one batch call per level (leaf values, the 8 fold levels, then
 * stem ‖ 0 ‖ root), like the tree's stale hasher.
 */
export class StemBatch {
  readonly maxStems: number;
  readonly maxValues: number;
  /** Stem blobs (01 ‖ stem ‖ bitmap ‖ values) in input order. */
  readonly blobs: Uint8Array[] = [];
  #count = 0;
  #values = 0;
  #prehashedCount = 0;
  readonly #prehashed: Uint8Array;
  readonly #given: Uint8Array;
  readonly #fold = new StemSubtreeFold();
  /** Batch positions of the stems in the fold, and of the one-value stems in record order. */
  readonly #folded: Uint32Array;
  #foldedCount = 0;
  readonly #singles: Uint32Array;
  #singleCount = 0;
  /** One-value stem records (written by `add`), then the folded stems' final messages. */
  readonly #pairs: Uint8Array;
  readonly #pairs32: Uint32Array;
  #oneValueOf: Hasher | undefined;
  #oneValue: OneValueStemHashes | undefined;

  constructor(maxStems: number, maxValues: number) {
    this.maxStems = maxStems;
    this.maxValues = maxValues;
    this.#prehashed = new Uint8Array(maxStems);
    this.#given = new Uint8Array(maxStems * 32);
    this.#fold.reserve(maxStems, maxValues);
    this.#pairs = new Uint8Array(maxStems * 64);
    this.#pairs32 = new Uint32Array(this.#pairs.buffer);
    this.#folded = new Uint32Array(maxStems);
    this.#singles = new Uint32Array(maxStems);
  }

  get count(): number {
    return this.#count;
  }

  /** Whether another stem (of up to 256 values) may not fit. */
  get full(): boolean {
    return this.#count >= this.maxStems || this.#values + 256 > this.maxValues;
  }

  /**
   * Queues a stem blob. With `hash`, the caller vouches for the stem's hash (computed elsewhere,
   * e.g. in a worker) and the values are not hashed again.
   */
  add(blob: Uint8Array, hash?: Uint8Array): void {
    const k = this.#count++;
    this.blobs[k] = blob;
    if (hash !== undefined) {
      this.#prehashed[k] = 1;
      this.#given.set(hash, k << 5);
      this.#prehashedCount++;
      return;
    }
    this.#prehashed[k] = 0;
    const count = (blob.length - VALUES_OFFSET) >>> 5;
    if (count === 1) {
      this.#addOneValue(k, blob);
      return;
    }
    const fold = this.#fold;
    fold.starts[this.#foldedCount] = this.#values;
    this.#folded[this.#foldedCount++] = k;
    if (count === 0) return;
    const v = this.#values;
    const leaves = fold.leaves;
    const to = (v << 5) - VALUES_OFFSET;
    for (let i = VALUES_OFFSET; i < blob.length; i++) leaves[to + i] = blob[i]!;
    const pos = fold.subindices;
    let p = v;
    for (let byte = 0; byte < 32; byte++) {
      let bits = blob[BITMAP_OFFSET + byte]!;
      while (bits !== 0) {
        const bit = Math.clz32(bits) - 24;
        bits &= ~(0x80 >>> bit);
        pos[p++] = (byte << 3) | bit;
      }
    }
    this.#values = v + count;
  }

  /** Writes the record stem ‖ subindex ‖ value of a one-value stem blob. */
  #addOneValue(k: number, blob: Uint8Array): void {
    const r = this.#singleCount++;
    this.#singles[r] = k;
    const records = this.#pairs;
    const at = r << 6;
    for (let b = 0; b < 31; b++) records[at + b] = blob[1 + b]!;
    let byte = 0;
    while (blob[BITMAP_OFFSET + byte] === 0) byte++;
    records[at + 31] = (byte << 3) | (Math.clz32(blob[BITMAP_OFFSET + byte]!) - 24);
    for (let b = 0; b < 32; b++) records[at + 32 + b] = blob[VALUES_OFFSET + b]!;
  }

  /** Hashes every queued stem; stem k's hash goes to slot base + k. */
  hashInto(hasher: Hasher, slots: HashSlots, base: number): void {
    const n = this.#count;
    if (n === 0) return;
    slots.ensure(base + n);
    const pairs = this.#pairs;
    const pairs32 = this.#pairs32;
    const singles = this.#singleCount;
    if (singles > 0) {
      if (this.#oneValueOf !== hasher) {
        this.#oneValue = oneValueStemHashes(hasher);
        this.#oneValueOf = hasher;
      }
      this.#oneValue!.hashOneValueStems(pairs, 0, singles, pairs, 0);
      for (let j = 0; j < singles; j++) slots.readWords(base + this.#singles[j]!, pairs32, j << 3);
    }
    const m = this.#foldedCount;
    if (m > 0) {
      const fold = this.#fold;
      fold.starts[m] = this.#values;
      fold.fold(hasher, m);
      // Stem hash = H(stem ‖ 0x00 ‖ subtree root); a stem without values has root 0^32.
      for (let j = 0; j < m; j++) {
        const blob = this.blobs[this.#folded[j]!]!;
        const dst = j << 6;
        for (let b = 0; b < 31; b++) pairs[dst + b] = blob[1 + b]!;
        pairs[dst + 31] = 0;
        fold.writeRoot(j, pairs32, (dst + 32) >>> 2);
      }
      hasher.hash64Batch(pairs, 0, m, pairs, 0);
      for (let j = 0; j < m; j++) slots.readWords(base + this.#folded[j]!, pairs32, j << 3);
    }
    if (this.#prehashedCount > 0) {
      for (let s = 0; s < n; s++) {
        if (this.#prehashed[s] === 1) slots.read(base + s, this.#given, s << 5);
      }
    }
  }

  /** Forgets the queued stems (their blobs stay with whoever received them). */
  clear(): void {
    this.#count = 0;
    this.#values = 0;
    this.#prehashedCount = 0;
    this.#foldedCount = 0;
    this.#singleCount = 0;
    this.blobs.length = 0;
  }
}
