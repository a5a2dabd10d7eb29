import type { DecodedNode, GroupBlob, StemBlob } from "@bintrie/codec";
import type { Hasher } from "@bintrie/core";
import { hashInternal, hashStem } from "@bintrie/core/hash";

const ZERO_HASH = new Uint8Array(32);

/** The present subindices of a stem blob, in increasing order. */
export function stemSubindices(stem: StemBlob): Uint16Array {
  const out = new Uint16Array(stem.count);
  let n = 0;
  for (let i = 0; i < 256; i++) {
    if ((stem.bitmap[i >>> 3]! & (0x80 >>> (i & 7))) !== 0) out[n++] = i;
  }
  return out;
}

/** The hash of a stem node from its blob (go-ethereum's stem hash). */
export function stemBlobHash(hasher: Hasher, stem: StemBlob): Uint8Array {
  return hashStem(hasher, stem.stem, {
    subindices: stemSubindices(stem),
    values: stem.values,
    count: stem.count,
  });
}

/**
 * The hash of the internal node a group blob describes: the plain binary-Merkle hash of the
 * subtree its entries rebuild (a group's hash does not depend on the group depth).
 */
export function groupBlobHash(hasher: Hasher, group: GroupBlob): Uint8Array {
  if (group.count === 0) return ZERO_HASH.slice();
  const g = group.groupDepth;
  const { positions, depthOffsets, hashes } = group;
  // Entries [lo, hi) all lie below the node at `level` levels under the group root.
  const subtree = (level: number, lo: number, hi: number): Uint8Array => {
    if (hi - lo === 1 && depthOffsets[lo] === level) return hashes.subarray(lo * 32, lo * 32 + 32);
    const bit = 1 << (g - 1 - level);
    let mid = lo;
    while (mid < hi && (positions[mid]! & bit) === 0) mid++;
    const left = mid > lo ? subtree(level + 1, lo, mid) : ZERO_HASH;
    const right = hi > mid ? subtree(level + 1, mid, hi) : ZERO_HASH;
    return hashInternal(hasher, left, right);
  };
  return subtree(0, 0, group.count);
}

/** The hash of any decoded node blob (empty → 32 zero bytes). */
export function nodeBlobHash(hasher: Hasher, node: DecodedNode): Uint8Array {
  switch (node.kind) {
    case "stem":
      return stemBlobHash(hasher, node);
    case "group":
      return groupBlobHash(hasher, node);
    case "internal":
      return hashInternal(hasher, node.left, node.right);
    default:
      return ZERO_HASH.slice();
  }
}

/** Bits as "0101…" text (empty for the root). */
export function bitString(bits: Uint8Array, length: number): string {
  let s = "";
  for (let d = 0; d < length; d++) s += (bits[d >>> 3]! >>> (7 - (d & 7))) & 1;
  return s;
}

/** Writes the top `count` bits of the g-bit `position` into `bits` starting at bit `depth`. */
export function appendPositionBits(
  bits: Uint8Array,
  depth: number,
  position: number,
  count: number,
  groupDepth: number,
): void {
  for (let i = 0; i < count; i++) {
    const bit = (position >>> (groupDepth - 1 - i)) & 1;
    const at = depth + i;
    if (bit === 1) bits[at >>> 3]! |= 0x80 >>> (at & 7);
    else bits[at >>> 3]! &= ~(0x80 >>> (at & 7));
  }
}
