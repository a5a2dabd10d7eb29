import { PARTITION_EMPTY, PARTITION_STEM, PARTITION_SUBTREE } from "../builder/partition-kind.js";
import type { Arena } from "../tree/arena.js";
import { KIND_EMPTY, KIND_INTERNAL, KIND_STEM, refIndex, refKind } from "../tree/node-ref.js";
import { TreeError } from "../tree/tree-error.js";

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
    let result = PARTITION_EMPTY;
    if (kind === KIND_INTERNAL) result = PARTITION_SUBTREE;
    else if (
      kind === KIND_STEM &&
      topBits(stems.stemChunk(refIndex(ref)), stems.stemOffset(refIndex(ref)), k) === p
    )
      result = PARTITION_STEM;
    else if (kind !== KIND_EMPTY && kind !== KIND_STEM)
      throw new TreeError("MISSING_NODE", `partition ${p}: node not in memory`);
    kinds[p] = result;
    if (result !== PARTITION_EMPTY) arena.writeHash(ref, hashes, p << 5);
  }
}

/** The first k (≤ 24) bits of bytes[offset..] as a number. */
export function topBits(bytes: Uint8Array, offset: number, k: number): number {
  const word = (bytes[offset]! << 16) | (bytes[offset + 1]! << 8) | bytes[offset + 2]!;
  return word >>> (24 - k);
}
