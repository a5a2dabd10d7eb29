import type { BatchHashCalls } from "./one-value-stems.js";
import { copy8, copy16, zero8 } from "./word-copy.js";

/**
 * Folds the present values of many stems into their 8-level stem subtree roots (EIP-7864: leaf
 * = H(value), parent = H(left ‖ right), a pair of zeros stays zero), with one batch hash call
 * per level for all stems together: the leaf level, then 8 fold levels. Only non-zero nodes are
 * hashed (a lone child pairs with 32 zero bytes; leaf hashes of present values are never zero,
 * so the zero-pair rule never fires). Shared by the tree's stale hasher and the builder.
 *
 * Usage: `reserve(stems, values)`, fill `leaves` (packed values), `subindices` and `starts`
 * (`starts[s]` = index of stem s's first value, `starts[n]` = total), `fold(hasher, n)`, then
 * read each stem's root with `writeRoot`. Copies go word by word through Uint32 views, so
 * folding allocates nothing.
 */
export class StemSubtreeFold {
  leaves = new Uint8Array(0);
  subindices = new Uint16Array(0);
  starts = new Uint32Array(1);
  #leaves32 = new Uint32Array(0);
  #out = new Uint8Array(0);
  #out32 = new Uint32Array(0);
  #pairs = new Uint8Array(0);
  #pairs32 = new Uint32Array(0);
  #stems = 0;

  /** Makes room for `stems` stems holding `values` present values in all (contents are lost). */
  reserve(stems: number, values: number): void {
    if (this.starts.length < stems + 1)
      this.starts = new Uint32Array(Math.max(stems + 1, this.starts.length * 2));
    if (this.subindices.length < values) {
      const capacity = Math.max(values, this.subindices.length * 2, 64);
      this.subindices = new Uint16Array(capacity);
      this.leaves = new Uint8Array(capacity * 32);
      this.#leaves32 = new Uint32Array(this.leaves.buffer);
      this.#out = new Uint8Array(capacity * 32);
      this.#out32 = new Uint32Array(this.#out.buffer);
      this.#pairs = new Uint8Array(capacity * 64);
      this.#pairs32 = new Uint32Array(this.#pairs.buffer);
    }
  }

  /** Word view of `leaves`, for callers that fill it word by word. */
  get leaves32(): Uint32Array {
    return this.#leaves32;
  }

  /** Folds stems 0..n-1 as described by `leaves`, `subindices` and `starts`. */
  fold(hasher: BatchHashCalls, n: number): void {
    this.#stems = n;
    const seg = this.starts;
    const pos = this.subindices;
    const out = this.#out32;
    const msg = this.#pairs32;
    const total = seg[n]!;
    if (total === 0) return;
    hasher.hash32Batch(this.leaves, 0, total, this.#out, 0);
    if (total === n && this.#oneValueEach(n)) {
      this.#foldSingles(hasher, n);
      return;
    }
    for (let level = 0; level < 8; level++) {
      let m = 0;
      let segStart = seg[0]!;
      for (let s = 0; s < n; s++) {
        const segEnd = seg[s + 1]!;
        seg[s] = m;
        let i = segStart;
        while (i < segEnd) {
          const p = pos[i]!;
          const dst = m << 4;
          const src = i << 3;
          // Copies unrolled by hand: a word loop here costs twice as much (this runs 8 times per value).
          if ((p & 1) === 0 && i + 1 < segEnd && pos[i + 1] === p + 1) {
            copy16(out, src, msg, dst);
            i += 2;
          } else {
            // A lone child: its hash on its side, 32 zero bytes on the other.
            const side = (p & 1) << 3;
            copy8(out, src, msg, dst + side);
            zero8(msg, dst + 8 - side);
            i += 1;
          }
          pos[m] = p >>> 1;
          m++;
        }
        segStart = segEnd;
      }
      seg[n] = m;
      hasher.hash64Batch(this.#pairs, 0, m, this.#out, 0);
    }
  }

  /** True when each of stems 0..n-1 holds exactly one value (n values in all). */
  #oneValueEach(n: number): boolean {
    const seg = this.starts;
    for (let s = 0; s < n; s++) if (seg[s] !== s) return false;
    return true;
  }

  /**
   * The fold when every stem holds one value (most stems of a hashed-key tree): at each level
   * its node is a lone child, paired with 32 zero bytes on the side its subindex bit leaves
   * free. The same messages as the general fold, without its segment bookkeeping.
   */
  #foldSingles(hasher: BatchHashCalls, n: number): void {
    const pos = this.subindices;
    const out = this.#out32;
    const msg = this.#pairs32;
    for (let level = 0; level < 8; level++) {
      for (let s = 0; s < n; s++) {
        const p = pos[s]!;
        const dst = s << 4;
        const side = (p & 1) << 3;
        copy8(out, s << 3, msg, dst + side);
        zero8(msg, dst + 8 - side);
        pos[s] = p >>> 1;
      }
      hasher.hash64Batch(this.#pairs, 0, n, this.#out, 0);
    }
  }

  /** Writes stem s's subtree root (32 zero bytes for a stem without values) to words[wordOffset]. */
  writeRoot(s: number, words: Uint32Array, wordOffset: number): void {
    const seg = this.starts;
    if (s < this.#stems && seg[s + 1]! > seg[s]!) {
      copy8(this.#out32, seg[s]! << 3, words, wordOffset);
    } else {
      zero8(words, wordOffset);
    }
  }
}
