import type { Arena } from "../tree/arena.js";
import { KIND_EMPTY, KIND_INTERNAL, KIND_STEM, refIndex, refKind } from "../tree/node-ref.js";
import { TreeError } from "../tree/tree-error.js";

/** What a depth-k partition (all stems whose first k bits are p) contributes to the top. */
export const PART_EMPTY = 0;
/** Exactly one stem: its hash (a stem's hash does not depend on the depth it ends up at). */
export const PART_STEM = 1;
/** Two or more stems: the internal node at depth k, by its hash. */
export const PART_INTERNAL = 2;

/**
 * Reads, for partitions lo..hi-1, their kind and 32-byte hash out of a hashed arena holding
 * (at least) every key of those partitions and no other key that shares their k-bit prefix.
 */
export function readPartitions(
  arena: Arena,
  k: number,
  lo: number,
  hi: number,
  kinds: Uint8Array,
  hashes: Uint8Array,
): void {
  const { internals, stems } = arena;
  for (let p = lo; p < hi; p++) {
    let ref = arena.root;
    let depth = 0;
    // Internal nodes sit at every depth of a path (no extension nodes): one step per bit.
    while (depth < k && refKind(ref) === KIND_INTERNAL) {
      ref = internals.getChild(refIndex(ref), (p >>> (k - 1 - depth)) & 1);
      depth++;
    }
    const kind = refKind(ref);
    let result = PART_EMPTY;
    if (kind === KIND_INTERNAL) result = PART_INTERNAL;
    else if (
      kind === KIND_STEM &&
      topBits(stems.stemChunk(refIndex(ref)), stems.stemOffset(refIndex(ref)), k) === p
    )
      result = PART_STEM;
    else if (kind !== KIND_EMPTY && kind !== KIND_STEM)
      throw new TreeError("MISSING_NODE", `partition ${p}: node not in memory`);
    kinds[p] = result;
    if (result !== PART_EMPTY) arena.writeHash(ref, hashes, p << 5);
  }
}

/** The first k (≤ 24) bits of bytes[offset..] as a number. */
export function topBits(bytes: Uint8Array, offset: number, k: number): number {
  const word = (bytes[offset]! << 16) | (bytes[offset + 1]! << 8) | bytes[offset + 2]!;
  return word >>> (24 - k);
}
