import type { Hasher } from "../hash/hasher.js";
import { StemSubtreeFold } from "../hash/stem-subtree-fold.js";
import type { HashSlots } from "./hash-slots.js";

/** Offset of the values in a stem blob: type byte, 31-byte stem, 32-byte bitmap. */
const VALUES_OFFSET = 64;
const BITMAP_OFFSET = 32;

/**
 * Completed stems waiting to be hashed together. Stem hashes do not depend on where the stem
 * ends up in the tree, so a whole batch is hashed level by level with one batch call per level
 * (leaf values, the 8 fold levels, then stem ‖ 0 ‖ root), like the tree's stale hasher.
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
  readonly #pairs: Uint8Array;
  readonly #pairs32: Uint32Array;
  readonly #final: Uint32Array;

  constructor(maxStems: number, maxValues: number) {
    this.maxStems = maxStems;
    this.maxValues = maxValues;
    this.#prehashed = new Uint8Array(maxStems);
    this.#given = new Uint8Array(maxStems * 32);
    this.#fold.reserve(maxStems, maxValues);
    this.#pairs = new Uint8Array(maxStems * 64);
    this.#pairs32 = new Uint32Array(this.#pairs.buffer);
    this.#final = new Uint32Array(maxStems);
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
    const fold = this.#fold;
    fold.starts[k] = this.#values;
    if (hash !== undefined) {
      this.#prehashed[k] = 1;
      this.#given.set(hash, k << 5);
      this.#prehashedCount++;
      return;
    }
    this.#prehashed[k] = 0;
    const count = (blob.length - VALUES_OFFSET) >>> 5;
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

  /** Hashes every queued stem; stem k's hash goes to slot base + k. */
  hashInto(hasher: Hasher, slots: HashSlots, base: number): void {
    const n = this.#count;
    if (n === 0) return;
    const fold = this.#fold;
    fold.starts[n] = this.#values;
    fold.fold(hasher, n);
    // Stem hash = H(stem ‖ 0x00 ‖ subtree root); a stem without values has root 0^32.
    const pairs = this.#pairs;
    const final = this.#final;
    let m = 0;
    for (let s = 0; s < n; s++) {
      if (this.#prehashed[s] === 1) continue;
      const blob = this.blobs[s]!;
      const dst = m << 6;
      for (let b = 0; b < 31; b++) pairs[dst + b] = blob[1 + b]!;
      pairs[dst + 31] = 0;
      fold.writeRoot(s, this.#pairs32, (dst + 32) >>> 2);
      final[m++] = s;
    }
    if (m > 0) hasher.hash64Batch(pairs, 0, m, pairs, 0);
    slots.ensure(base + n);
    const pairs32 = this.#pairs32;
    for (let j = 0; j < m; j++) slots.readWords(base + final[j]!, pairs32, j << 3);
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
    this.blobs.length = 0;
  }
}
