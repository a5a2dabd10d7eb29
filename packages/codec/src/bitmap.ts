import { assertBytes, assertIntegerInRange } from "./argument-checks.js";
import { describeValue } from "./describe-value.js";
import { CodecError } from "./errors.js";

// Presence bitmaps are MSB-first: bit i lives in byte i >> 3 under mask 0x80 >> (i & 7).

const BYTE_POPCOUNT = new Uint8Array(256);
for (let i = 1; i < 256; i++) {
  BYTE_POPCOUNT[i] = (i & 1) + BYTE_POPCOUNT[i >> 1]!;
}

/**
 * Number of set bits in `bytes[start..end)`; the range form avoids a subarray on hot paths.
 *
 * @example
 * ```ts
 * import { popcount } from "@bintrie/codec";
 *
 * popcount(Uint8Array.of(0xff, 0x01)); // 9
 * ```
 */
export function popcount(bytes: Uint8Array, start = 0, end?: number): number {
  assertBytes("popcount: bytes", bytes);
  const stop = end === undefined ? bytes.length : end;
  if (
    !Number.isInteger(start) ||
    !Number.isInteger(stop) ||
    start < 0 ||
    stop > bytes.length ||
    start > stop
  ) {
    throw new CodecError(
      "INVALID_ARGUMENT",
      `popcount range ${describeValue(start)}..${describeValue(stop)} is outside a ${bytes.length}-byte array`,
    );
  }
  let count = 0;
  for (let i = start; i < stop; i++) {
    count += BYTE_POPCOUNT[bytes[i]!]!;
  }
  return count;
}

/**
 * Whether bit `index` (0 = most significant bit of byte 0) is set.
 *
 * @example
 * ```ts
 * import { bitmapHas } from "@bintrie/codec";
 *
 * bitmapHas(Uint8Array.of(0x80), 0); // true: bit 0 is the MSB of byte 0
 * ```
 */
export function bitmapHas(bitmap: Uint8Array, index: number): boolean {
  assertBytes("bitmapHas: bitmap", bitmap);
  assertIntegerInRange("bitmap index", index, 0, bitmap.length * 8 - 1);
  return ((bitmap[index >> 3]! >> (7 - (index & 7))) & 1) === 1;
}

/**
 * Number of set bits strictly before bit `index`: the slot of that bit's entry in a packed list.
 *
 * @example
 * ```ts
 * import { bitmapRank } from "@bintrie/codec";
 *
 * bitmapRank(Uint8Array.of(0xc0), 1); // 1 set bit before bit 1
 * ```
 */
export function bitmapRank(bitmap: Uint8Array, index: number): number {
  assertBytes("bitmapRank: bitmap", bitmap);
  assertIntegerInRange("bitmap index", index, 0, bitmap.length * 8 - 1);
  const byteIndex = index >> 3;
  let rank = 0;
  for (let i = 0; i < byteIndex; i++) {
    rank += BYTE_POPCOUNT[bitmap[i]!]!;
  }
  // Keep only the bits above `index` within its byte.
  const higherBits = bitmap[byteIndex]! & (0xff00 >> (index & 7));
  return rank + BYTE_POPCOUNT[higherBits & 0xff]!;
}
