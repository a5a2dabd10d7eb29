import { assertBytes, assertIntegerInRange, assertRoomFor } from "./argument-checks.js";
import { MAX_DEPTH } from "./constants.js";
import { CodecError } from "./errors.js";

// A path key is geth's BitArray.KeyBytes(): ceil(length/8) packed path bytes (MSB-first, bits past
// `length` zeroed) followed by one byte holding `length`. The root path (length 0) is the empty key;
// the length byte keeps e.g. 1-bit "1" (80 01) and 8-bit "10000000" (80 08) apart.

/** The result of {@link decodePathKey}. */
export interface DecodedPathKey {
  /** The path bits, MSB-first, left-aligned in 32 bytes, zero past `length`. */
  bits: Uint8Array;
  /** Number of path bits, 0..248. */
  length: number;
}

/**
 * Size in bytes of the path key of a `length`-bit path.
 *
 * @example
 * ```ts
 * import { pathKeySize } from "@bintrie/codec";
 *
 * pathKeySize(3); // 2: one byte of bits, one length byte
 * pathKeySize(0); // 0: the root
 * ```
 */
export function pathKeySize(length: number): number {
  assertIntegerInRange("path length", length, 0, MAX_DEPTH);
  return length === 0 ? 0 : ((length + 7) >> 3) + 1;
}

/**
 * Writes the path key of the first `length` bits of `bits` into `out` at `outOffset` and returns the
 * number of bytes written (0 for the root). Allocates nothing.
 *
 * @example
 * ```ts
 * import { pathKeySize, writePathKey } from "@bintrie/codec";
 *
 * const out = new Uint8Array(pathKeySize(3));
 * writePathKey(Uint8Array.of(0xa0), 3, out, 0); // 2; out = [0xa0, 3]
 * ```
 */
export function writePathKey(
  bits: Uint8Array,
  length: number,
  out: Uint8Array,
  outOffset: number,
): number {
  assertBytes("writePathKey: bits", bits);
  const size = pathKeySize(length);
  assertBytes("writePathKey: out", out);
  if (size === 0) {
    assertRoomFor("path key", out, outOffset, 0);
    return 0;
  }
  return writeCheckedPathKey(bits, length, size, out, outOffset);
}

/** writePathKey once `bits` and `out` are known to be Uint8Arrays and `size` is pathKeySize(length) > 0. */
function writeCheckedPathKey(
  bits: Uint8Array,
  length: number,
  size: number,
  out: Uint8Array,
  outOffset: number,
): number {
  const byteCount = size - 1;
  if (bits.length < byteCount) {
    throw new CodecError(
      "INVALID_ARGUMENT",
      `a ${length}-bit path needs ${byteCount} bytes of bits, got ${bits.length} bytes`,
    );
  }
  assertRoomFor("path key", out, outOffset, size);
  for (let i = 0; i < byteCount - 1; i++) {
    out[outOffset + i] = bits[i]!;
  }
  const usedInLastByte = length & 7;
  const lastByte = bits[byteCount - 1]!;
  out[outOffset + byteCount - 1] =
    usedInLastByte === 0 ? lastByte : lastByte & (0xff00 >> usedInLastByte);
  out[outOffset + byteCount] = length;
  return size;
}

/**
 * Path key of the first `length` bits of `bits` (MSB-first); `length` 0 gives the empty key.
 *
 * @example
 * ```ts
 * import { encodePathKey } from "@bintrie/codec";
 *
 * encodePathKey(Uint8Array.of(0xa0), 3); // Uint8Array [0xa0, 3]: the path 101
 * ```
 */
export function encodePathKey(bits: Uint8Array, length: number): Uint8Array {
  assertBytes("encodePathKey: bits", bits);
  const size = pathKeySize(length);
  const key = new Uint8Array(size);
  if (size !== 0) {
    writeCheckedPathKey(bits, length, size, key, 0);
  }
  return key;
}

/**
 * Parses a path key, accepting only the canonical form: the trailing byte is the bit length
 * (1..248), the key is exactly ceil(length/8)+1 bytes, and the bits past `length` are zero.
 *
 * @example
 * ```ts
 * import { decodePathKey } from "@bintrie/codec";
 *
 * const { bits, length } = decodePathKey(Uint8Array.of(0xa0, 3)); // length 3, bits[0] 0xa0
 * ```
 */
export function decodePathKey(key: Uint8Array): DecodedPathKey {
  assertBytes("decodePathKey: key", key);
  const bits = new Uint8Array(32);
  const size = key.length;
  if (size === 0) {
    return { bits, length: 0 };
  }
  const length = key[size - 1]!;
  if (length === 0) {
    throw new CodecError(
      "INVALID_PATH_KEY",
      `${size}-byte path key has length byte 0; the root path is the empty key`,
    );
  }
  if (length > MAX_DEPTH) {
    throw new CodecError(
      "INVALID_PATH_KEY",
      `${size}-byte path key declares ${length} bits, more than the maximum ${MAX_DEPTH}`,
    );
  }
  const byteCount = (length + 7) >> 3;
  if (size !== byteCount + 1) {
    throw new CodecError(
      "INVALID_PATH_KEY",
      `${size}-byte path key declares ${length} bits, which take ${byteCount + 1} bytes`,
    );
  }
  const usedInLastByte = length & 7;
  if (usedInLastByte !== 0 && (key[byteCount - 1]! & (0xff >> usedInLastByte)) !== 0) {
    throw new CodecError(
      "INVALID_PATH_KEY",
      `path key of ${length} bits has non-zero padding bits after bit ${length - 1} (last path byte 0x${key[byteCount - 1]!.toString(16).padStart(2, "0")})`,
    );
  }
  for (let i = 0; i < byteCount; i++) {
    bits[i] = key[i]!;
  }
  return { bits, length };
}
