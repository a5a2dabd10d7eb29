/**
 * Range helpers over sorted distinct keys. A proof walks the tree with a range [lo, hi) of the
 * sorted keys per node: all keys of a range share the path bits above the node, so splitting a
 * range on the next bit is a binary search.
 */

/** Bit `depth` (0 = MSB of byte 0) of a key's stem. */
export function stemBit(key: Uint8Array, depth: number): number {
  return (key[depth >>> 3]! >>> (7 - (depth & 7))) & 1;
}

/** First index in [lo, hi) whose stem bit `depth` is 1 (keys share bits 0..depth-1). */
export function splitOnStemBit(
  keys: readonly Uint8Array[],
  lo: number,
  hi: number,
  depth: number,
): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (stemBit(keys[mid]!, depth) === 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * First index in [lo, hi) whose subindex bit for stem level `level` is 1 (level 0 splits on
 * 0x80). The keys share a stem and the subindex bits above this level.
 */
export function splitOnSubindexBit(
  keys: readonly Uint8Array[],
  lo: number,
  hi: number,
  level: number,
): number {
  const mask = 0x80 >>> level;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((keys[mid]![31]! & mask) === 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** True when the first 31 bytes of a and b are equal. */
export function sameStem(a: Uint8Array, b: Uint8Array): boolean {
  for (let i = 0; i < 31; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** True when the 31 bytes at source[offset..] equal key's stem. */
export function stemEquals(key: Uint8Array, source: Uint8Array, offset: number): boolean {
  for (let i = 0; i < 31; i++) if (key[i] !== source[offset + i]) return false;
  return true;
}

/** Bits needed to write an index below `count` (0 when there is only one choice). */
export function indexWidth(count: number): number {
  return count <= 1 ? 0 : 32 - Math.clz32(count - 1);
}
