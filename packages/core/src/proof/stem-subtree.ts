import type { Hasher } from "../hash/hasher.js";
import type { StemPool } from "../tree/stem-pool.js";
import { STEM_LEVELS } from "./proof-format.js";

const NODES = 511;

/** Heap index of the node at `level` (0 = the subtree root, 8 = leaves) and position `i`. */
export function stemNodeIndex(level: number, i: number): number {
  return (1 << level) - 1 + i;
}

/**
 * Every node hash of one stem's 8-level value subtree (the prover needs sibling hashes the
 * arena does not cache: it keeps only the stem's own hash). Computed from the present values
 * only, one batch call per level; absent subtrees stay zero (EIP-7864: zero || zero -> zero).
 * One instance is reused for every stem of a proof, so nothing is allocated per stem.
 */
export class StemSubtree {
  /** 32 bytes per heap node; meaningful only where `nonZero` is 1. */
  readonly hashes = new Uint8Array(NODES * 32);
  readonly nonZero = new Uint8Array(NODES);
  readonly #positions = new Uint16Array(256);
  readonly #pairs = new Uint8Array(128 * 64);
  readonly #digests = new Uint8Array(256 * 32);
  readonly #hasher: Hasher;

  constructor(hasher: Hasher) {
    this.#hasher = hasher;
  }

  /** Recomputes the subtree of stem `index` of `stems`. */
  compute(stems: StemPool, index: number): void {
    const { hashes, nonZero } = this;
    const positions = this.#positions;
    const pairs = this.#pairs;
    const digests = this.#digests;
    nonZero.fill(0);
    const count = stems.presentSubindices(index, positions, 0);
    if (count === 0) return;
    this.#hasher.hash32Batch(stems.blockPage(index), stems.blockOffset(index), count, digests, 0);
    for (let r = 0; r < count; r++) {
      const node = stemNodeIndex(STEM_LEVELS, positions[r]!);
      copy32(digests, r << 5, hashes, node << 5);
      nonZero[node] = 1;
    }
    let live = count;
    for (let level = STEM_LEVELS - 1; level >= 0; level--) {
      const childBase = stemNodeIndex(level + 1, 0);
      let parents = 0;
      for (let i = 0; i < live; parents++) {
        const position = positions[i]!;
        const left = childBase + (position & ~1);
        const at = parents << 6;
        if (nonZero[left] === 1) copy32(hashes, left << 5, pairs, at);
        else pairs.fill(0, at, at + 32);
        if (nonZero[left + 1] === 1) copy32(hashes, (left + 1) << 5, pairs, at + 32);
        else pairs.fill(0, at + 32, at + 64);
        // Skip the right sibling too when both children are present.
        i += (position & 1) === 0 && i + 1 < live && positions[i + 1] === position + 1 ? 2 : 1;
        positions[parents] = position >>> 1;
      }
      this.#hasher.hash64Batch(pairs, 0, parents, digests, 0);
      const base = stemNodeIndex(level, 0);
      for (let k = 0; k < parents; k++) {
        const node = base + positions[k]!;
        copy32(digests, k << 5, hashes, node << 5);
        nonZero[node] = 1;
      }
      live = parents;
    }
  }
}

function copy32(from: Uint8Array, fromOffset: number, to: Uint8Array, toOffset: number): void {
  for (let b = 0; b < 32; b++) to[toOffset + b] = from[fromOffset + b]!;
}
