import {
  assertArrayLike,
  assertByteLength,
  assertBytes,
  assertIntegerInRange,
  assertObject,
} from "./argument-checks.js";
import { bitmapHas, bitmapRank, popcount } from "./bitmap.js";
import {
  HASH_SIZE,
  NODE_TYPE_STEM,
  STEM_BITMAP_SIZE,
  STEM_BLOB_HEADER_SIZE,
  STEM_SIZE,
  STEM_WIDTH,
} from "./constants.js";
import { CodecError } from "./errors.js";

// Stem blob (type 1):
//   01 | stem (31) | bitmap (32, MSB-first, bit i = subindex i) | K values of 32 bytes, increasing subindex

const BITMAP_OFFSET = 1 + STEM_SIZE;

/** A decoded stem blob. Every field is a view into the decoded input. */
export interface StemBlob {
  /** The 31-byte stem. */
  stem: Uint8Array;
  /** The 32-byte presence bitmap; bit i (MSB-first) set = subindex i has a value. */
  bitmap: Uint8Array;
  /** The `count` present values, 32 bytes each, in increasing subindex order. */
  values: Uint8Array;
  /** Number of present values (popcount of `bitmap`). */
  count: number;
}

/**
 * Builds `01 | stem | bitmap | values`; `values` must hold popcount(bitmap) packed 32-byte values.
 *
 * @example
 * ```ts
 * import { encodeStemBlob } from "@bintrie/codec";
 *
 * const bitmap = new Uint8Array(32);
 * bitmap[0] = 0x80; // subindex 0 present
 * encodeStemBlob(new Uint8Array(31), bitmap, new Uint8Array(32).fill(7)).length; // 96
 * ```
 */
export function encodeStemBlob(
  stem: Uint8Array,
  bitmap: Uint8Array,
  values: Uint8Array,
): Uint8Array {
  assertByteLength("encodeStemBlob: stem", stem, STEM_SIZE);
  assertByteLength("encodeStemBlob: bitmap", bitmap, STEM_BITMAP_SIZE);
  const count = popcount(bitmap);
  assertByteLength(
    `encodeStemBlob: values for a bitmap with ${count} set bits`,
    values,
    count * HASH_SIZE,
  );
  const blob = new Uint8Array(STEM_BLOB_HEADER_SIZE + values.length);
  blob[0] = NODE_TYPE_STEM;
  blob.set(stem, 1);
  blob.set(bitmap, BITMAP_OFFSET);
  blob.set(values, STEM_BLOB_HEADER_SIZE);
  return blob;
}

/**
 * Builds a stem blob from 256 slots; a null/undefined slot is absent, any other must be 32 bytes.
 *
 * @example
 * ```ts
 * import { decodeStemBlob, encodeStemBlobFromSlots } from "@bintrie/codec";
 *
 * const slots = new Array(256);
 * slots[5] = new Uint8Array(32).fill(9);
 * decodeStemBlob(encodeStemBlobFromSlots(new Uint8Array(31), slots)).count; // 1
 * ```
 */
export function encodeStemBlobFromSlots(
  stem: Uint8Array,
  slots: ReadonlyArray<Uint8Array | null | undefined>,
): Uint8Array {
  assertByteLength("encodeStemBlobFromSlots: stem", stem, STEM_SIZE);
  assertArrayLike("encodeStemBlobFromSlots: slots", slots);
  if (slots.length !== STEM_WIDTH) {
    throw new CodecError(
      "INVALID_ARGUMENT",
      `encodeStemBlobFromSlots: slots must be an array of ${STEM_WIDTH} entries, got ${slots.length}`,
    );
  }
  let count = 0;
  for (let subindex = 0; subindex < STEM_WIDTH; subindex++) {
    const value = slots[subindex];
    if (value != null) {
      assertByteLength(`encodeStemBlobFromSlots: value at subindex ${subindex}`, value, HASH_SIZE);
      count++;
    }
  }
  const blob = new Uint8Array(STEM_BLOB_HEADER_SIZE + count * HASH_SIZE);
  blob[0] = NODE_TYPE_STEM;
  blob.set(stem, 1);
  let offset = STEM_BLOB_HEADER_SIZE;
  for (let subindex = 0; subindex < STEM_WIDTH; subindex++) {
    const value = slots[subindex];
    if (value != null) {
      const bitmapByte = BITMAP_OFFSET + (subindex >> 3);
      blob[bitmapByte] = blob[bitmapByte]! | (0x80 >> (subindex & 7));
      blob.set(value, offset);
      offset += HASH_SIZE;
    }
  }
  return blob;
}

/**
 * Decodes a stem blob without copying. Bytes after the last value are ignored, as in geth, so the
 * first release's fixed 8256-byte blobs (values zero-padded to 256 slots) still decode.
 *
 * @example
 * ```ts
 * import { decodeStemBlob, encodeStemBlob } from "@bintrie/codec";
 *
 * const bitmap = new Uint8Array(32);
 * bitmap[0] = 0x80;
 * decodeStemBlob(encodeStemBlob(new Uint8Array(31), bitmap, new Uint8Array(32))).count; // 1
 * ```
 */
export function decodeStemBlob(blob: Uint8Array): StemBlob {
  assertBytes("decodeStemBlob: blob", blob);
  return decodeStemNode(blob);
}

/** {@link decodeStemBlob} tagged for decodeNode, built as one object so nothing extra is allocated. */
export function decodeStemNode(blob: Uint8Array): { kind: "stem" } & StemBlob {
  if (blob.length === 0) {
    throw new CodecError("INVALID_LENGTH", "stem blob is empty");
  }
  if (blob[0] !== NODE_TYPE_STEM) {
    throw new CodecError(
      "INVALID_NODE_TYPE",
      `invalid node type ${blob[0]!} for a stem blob (expected ${NODE_TYPE_STEM}), blob of ${blob.length} bytes`,
    );
  }
  if (blob.length < STEM_BLOB_HEADER_SIZE) {
    throw new CodecError(
      "INVALID_LENGTH",
      `stem blob is ${blob.length} bytes, shorter than its ${STEM_BLOB_HEADER_SIZE}-byte header`,
    );
  }
  const count = popcount(blob, BITMAP_OFFSET, STEM_BLOB_HEADER_SIZE);
  const valuesEnd = STEM_BLOB_HEADER_SIZE + count * HASH_SIZE;
  if (blob.length < valuesEnd) {
    throw new CodecError(
      "STEM_BLOB_TRUNCATED",
      `stem blob is ${blob.length} bytes but its bitmap has ${count} set bit${count === 1 ? "" : "s"}, which need ${valuesEnd} bytes`,
    );
  }
  return {
    kind: "stem",
    stem: blob.subarray(1, BITMAP_OFFSET),
    bitmap: blob.subarray(BITMAP_OFFSET, STEM_BLOB_HEADER_SIZE),
    values: blob.subarray(STEM_BLOB_HEADER_SIZE, valuesEnd),
    count,
  };
}

/**
 * The value at `subindex` (a view into `blob.values`), or undefined when that slot is absent.
 *
 * @example
 * ```ts
 * import { decodeStemBlob, encodeStemBlob, stemBlobValue } from "@bintrie/codec";
 *
 * const bitmap = new Uint8Array(32);
 * bitmap[0] = 0x80;
 * const stem = decodeStemBlob(encodeStemBlob(new Uint8Array(31), bitmap, new Uint8Array(32).fill(7)));
 * stemBlobValue(stem, 0)?.[0]; // 7
 * stemBlobValue(stem, 1); // undefined
 * ```
 */
export function stemBlobValue(blob: StemBlob, subindex: number): Uint8Array | undefined {
  assertObject("stemBlobValue: blob", blob, "a decoded StemBlob");
  const { bitmap, values } = blob;
  assertByteLength("stemBlobValue: blob.bitmap", bitmap, STEM_BITMAP_SIZE);
  assertBytes("stemBlobValue: blob.values", values);
  assertIntegerInRange("stemBlobValue: subindex", subindex, 0, STEM_WIDTH - 1);
  if (!bitmapHas(bitmap, subindex)) {
    return undefined;
  }
  const start = bitmapRank(bitmap, subindex) * HASH_SIZE;
  if (start + HASH_SIZE > values.length) {
    throw new CodecError(
      "INVALID_ARGUMENT",
      `stemBlobValue: blob.values is ${values.length} bytes, too short for the value at subindex ${subindex} (rank ${start / HASH_SIZE})`,
    );
  }
  return values.subarray(start, start + HASH_SIZE);
}
