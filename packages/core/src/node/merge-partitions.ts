import { PARTITION_EMPTY, PARTITION_STEM, PARTITION_SUBTREE } from "../builder/partition-kind.js";
import type { Hasher } from "../hash/hasher.js";

/**
 * The root hash of a tree from its 2^k depth-k partitions, level by level up to the root: two
 * empty halves are empty, a lone stem next to an empty half moves up (as a split-free tree
 * places it), anything else is an internal node H(left ‖ right). One batch call per level.
 */
export function mergePartitions(
  kinds: Uint8Array,
  hashes: Uint8Array,
  k: number,
  hasher: Hasher,
): Uint8Array {
  let width = 1 << k;
  let kind = kinds.slice(0, width);
  let hash = hashes.slice(0, width * 32);
  const message = new Uint8Array((width / 2) * 64 || 64);
  while (width > 1) {
    const half = width >>> 1;
    const nextKind = new Uint8Array(half);
    const nextHash = new Uint8Array(half * 32);
    const pending: number[] = [];
    for (let i = 0; i < half; i++) {
      const a = kind[2 * i]!;
      const b = kind[2 * i + 1]!;
      if (a === PARTITION_EMPTY && b === PARTITION_EMPTY) continue;
      if (
        (a === PARTITION_EMPTY && b === PARTITION_STEM) ||
        (a === PARTITION_STEM && b === PARTITION_EMPTY)
      ) {
        const from = a === PARTITION_STEM ? 2 * i : 2 * i + 1;
        nextKind[i] = PARTITION_STEM;
        nextHash.set(hash.subarray(from * 32, from * 32 + 32), i * 32);
        continue;
      }
      nextKind[i] = PARTITION_SUBTREE;
      // Empty children hash as 32 zero bytes (the slot holds zeros).
      message.set(hash.subarray(2 * i * 32, 2 * i * 32 + 64), pending.length * 64);
      pending.push(i);
    }
    if (pending.length > 0) {
      // In place: digest j lands at message[32j].
      hasher.hash64Batch(message, 0, pending.length, message, 0);
      for (let j = 0; j < pending.length; j++) {
        nextHash.set(message.subarray(j * 32, j * 32 + 32), pending[j]! * 32);
      }
    }
    kind = nextKind;
    hash = nextHash;
    width = half;
  }
  return kind[0] === PARTITION_EMPTY ? new Uint8Array(32) : hash.slice(0, 32);
}
