// The depth section of a group blob packs one 3-bit field per entry, MSB-first across bytes, in
// entry order, zero-padded to a byte boundary. A field holds depthOffset - 1 (0..7).

export const DEPTH_FIELD_BITS = 3;

/** Bytes taken by `count` packed depth fields. */
export function packedDepthsSize(count: number): number {
  return (count * DEPTH_FIELD_BITS + 7) >> 3;
}

/** Reads field `index` of the depth section starting at `sectionStart`. Caller checks bounds. */
export function readDepthField(bytes: Uint8Array, sectionStart: number, index: number): number {
  const bitPosition = index * DEPTH_FIELD_BITS;
  const byteIndex = sectionStart + (bitPosition >> 3);
  const shift = bitPosition & 7;
  // Only a field starting at bit 6 or 7 of a byte spills into the next one.
  const window =
    shift > 5 ? (bytes[byteIndex]! << 8) | bytes[byteIndex + 1]! : bytes[byteIndex]! << 8;
  return (window >> (13 - shift)) & 7;
}

/** ORs `value` (0..7) into field `index`; the section must already be zeroed. */
export function writeDepthField(
  bytes: Uint8Array,
  sectionStart: number,
  index: number,
  value: number,
): void {
  const bitPosition = index * DEPTH_FIELD_BITS;
  const byteIndex = sectionStart + (bitPosition >> 3);
  const shift = bitPosition & 7;
  const window = value << (13 - shift);
  bytes[byteIndex] = bytes[byteIndex]! | (window >> 8);
  if (shift > 5) {
    bytes[byteIndex + 1] = bytes[byteIndex + 1]! | (window & 0xff);
  }
}
