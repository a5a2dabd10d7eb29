import {
  assertArrayLike,
  assertBytes,
  assertIntegerInRange,
  assertRoomFor,
  hasRoom,
} from "./argument-checks.js";
import { popcount } from "./bitmap.js";
import { HASH_SIZE, MAX_GROUP_DEPTH, NODE_TYPE_INTERNAL } from "./constants.js";
import {
  DEPTH_FIELD_BITS,
  packedDepthsSize,
  readDepthField,
  writeDepthField,
} from "./depth-fields.js";
import { describeValue } from "./describe-value.js";
import { CodecError } from "./errors.js";

// Group blob (type 2, geth master "v2"): one blob for the internal nodes of a group, the subtree
// hanging from an internal node at a depth multiple of g, cut g levels below it.
//   02 | g | bitmap (bitmapSize(g), 2^g bits MSB-first) | ceil(3K/8) bytes of 3-bit (depthOffset-1) | K hashes
// An entry is a non-empty node ending inside the group: it sits `depthOffset` (1..g) levels below
// the group root, and its bitmap bit is its path below the root zero-extended to g bits.

const HEADER_SIZE = 2;

/** A decoded group blob. `hashes` is a view into the input; positions and offsets are new arrays. */
export interface GroupBlob {
  /** g, 1..8: the number of tree levels the group spans. */
  groupDepth: number;
  /** K, the number of entries. 0 stands for an empty node. */
  count: number;
  /** Bitmap bit of each entry, strictly increasing, each < 2^g. */
  positions: Uint16Array;
  /** Levels below the group root of each entry, 1..g. */
  depthOffsets: Uint8Array;
  /** The entries' hashes, `count` x 32 bytes in entry order. */
  hashes: Uint8Array;
}

/**
 * Bytes of the bitmap of a depth-g group: 1 for g <= 3 (padded), else 2^(g-3).
 *
 * @example
 * ```ts
 * import { bitmapSize } from "@bintrie/codec";
 *
 * bitmapSize(5); // 4 bytes for 2^5 positions
 * ```
 */
export function bitmapSize(groupDepth: number): number {
  assertIntegerInRange("group depth", groupDepth, 1, MAX_GROUP_DEPTH);
  return groupDepth <= 3 ? 1 : 1 << (groupDepth - 3);
}

/**
 * Size of a depth-g group blob with `count` entries.
 *
 * @example
 * ```ts
 * import { groupBlobSize } from "@bintrie/codec";
 *
 * groupBlobSize(5, 2); // 71 bytes for 2 entries
 * ```
 */
export function groupBlobSize(groupDepth: number, count: number): number {
  const bitmapBytes = bitmapSize(groupDepth);
  // Checked before the name is built: this runs once per group of every commit and build.
  if (!(Number.isInteger(count) && count >= 0 && count <= 1 << groupDepth)) {
    assertIntegerInRange(`entry count of a depth-${groupDepth} group`, count, 0, 1 << groupDepth);
  }
  return HEADER_SIZE + bitmapBytes + packedDepthsSize(count) + count * HASH_SIZE;
}

function outsideRange(name: string, value: unknown, min: number, max: number): string {
  return typeof value === "number"
    ? `${name} ${value} is outside ${min}..${max}`
    : `${name} must be an integer in ${min}..${max}, got ${describeValue(value)}`;
}

function invalidEntry(groupDepth: number, index: number, message: string): CodecError {
  return new CodecError(
    "INVALID_ARGUMENT",
    `group entry ${index} of a depth-${groupDepth} group: ${message}`,
  );
}

/**
 * Index of the first of `count` 32-byte hashes at `start` that is all zero, or -1. An entry is a
 * non-empty node, whose hash is a SHA-256 output; a zero hash would stand for an empty child, which
 * has no entry. Reads stop at the first non-zero byte of each hash; allocates nothing.
 */
export function firstZeroHash(bytes: Uint8Array, start: number, count: number): number {
  for (let i = 0; i < count; i++) {
    const from = start + i * HASH_SIZE;
    let j = 0;
    while (j < HASH_SIZE && bytes[from + j] === 0) {
      j++;
    }
    if (j === HASH_SIZE) {
      return i;
    }
  }
  return -1;
}

/** The INVALID_ARGUMENT error for entry `index`, whose hash is 32 zero bytes. */
export function zeroHashEntry(
  groupDepth: number,
  index: number,
  positions: ArrayLike<unknown>,
): CodecError {
  return invalidEntry(
    groupDepth,
    index,
    `the hash at position ${describeValue(positions[index])} is 32 zero bytes (an empty child has no entry)`,
  );
}

/**
 * Checks that the parallel arrays hold `count` entries: `count` positions, `count` depth offsets
 * and `count` x 32 hash bytes (their types are checked by the caller).
 */
export function assertGroupArrayLengths(
  count: number,
  positions: ArrayLike<unknown>,
  depthOffsets: ArrayLike<unknown>,
  hashes: Uint8Array,
): void {
  if (
    positions.length < count ||
    depthOffsets.length < count ||
    hashes.length < count * HASH_SIZE
  ) {
    throw new CodecError(
      "INVALID_ARGUMENT",
      `a ${count}-entry group needs ${count} positions, ${count} depth offsets and ${count * HASH_SIZE} hash bytes, got ${positions.length}, ${depthOffsets.length} and ${hashes.length}`,
    );
  }
}

/**
 * Checks the first `count` entries: integer positions strictly increasing, integer offsets in
 * 1..g, positions zero-extended below their depth, and no entry inside the subtree of an earlier
 * one. O(count).
 */
export function validateEntries(
  groupDepth: number,
  count: number,
  positions: ArrayLike<unknown>,
  depthOffsets: ArrayLike<unknown>,
): void {
  const width = 1 << groupDepth;
  let previousPosition = -1;
  let coveredEnd = 0;
  for (let i = 0; i < count; i++) {
    // Anything may sit in a caller's array: the integer tests below come before any arithmetic.
    const position = positions[i] as number;
    const depthOffset = depthOffsets[i] as number;
    if (!Number.isInteger(position) || position < 0 || position >= width) {
      throw invalidEntry(groupDepth, i, outsideRange("position", position, 0, width - 1));
    }
    if (position <= previousPosition) {
      throw invalidEntry(
        groupDepth,
        i,
        `position ${position} does not follow ${previousPosition} (positions must strictly increase)`,
      );
    }
    if (!Number.isInteger(depthOffset) || depthOffset < 1 || depthOffset > groupDepth) {
      throw invalidEntry(groupDepth, i, outsideRange("depth offset", depthOffset, 1, groupDepth));
    }
    const span = 1 << (groupDepth - depthOffset);
    if ((position & (span - 1)) !== 0) {
      throw invalidEntry(
        groupDepth,
        i,
        `position ${position} at depth offset ${depthOffset} must have its low ${groupDepth - depthOffset} bits zero`,
      );
    }
    if (position < coveredEnd) {
      throw invalidEntry(
        groupDepth,
        i,
        `position ${position} lies inside the subtree of an earlier entry (positions < ${coveredEnd})`,
      );
    }
    previousPosition = position;
    coveredEnd = position + span;
  }
}

/**
 * Writes a group blob into `out` at `outOffset` and returns its size. The first `count` entries of
 * the parallel arrays are used; `hashes` holds at least `count` x 32 bytes, none of them 32 zero
 * bytes (an empty child has no entry).
 *
 * @example
 * ```ts
 * import { encodeGroupBlobInto } from "@bintrie/codec";
 *
 * const out = new Uint8Array(100);
 * // depth 1, two children at positions 0 and 1, one level down each
 * encodeGroupBlobInto(1, 2, [0, 1], [1, 1], new Uint8Array(64).fill(3), out, 0); // 68 bytes written
 * ```
 */
export function encodeGroupBlobInto(
  groupDepth: number,
  count: number,
  positions: ArrayLike<number>,
  depthOffsets: ArrayLike<number>,
  hashes: Uint8Array,
  out: Uint8Array,
  outOffset: number,
): number {
  const size = groupBlobSize(groupDepth, count);
  assertArrayLike("encodeGroupBlobInto: positions", positions);
  assertArrayLike("encodeGroupBlobInto: depthOffsets", depthOffsets);
  assertBytes("encodeGroupBlobInto: hashes", hashes);
  assertBytes("encodeGroupBlobInto: out", out);
  return writeGroupBlob(groupDepth, count, size, positions, depthOffsets, hashes, out, outOffset);
}

/**
 * encodeGroupBlobInto once the arguments' types are checked and `size` is
 * groupBlobSize(groupDepth, count): checks the entries, their hashes and the room in `out`, then
 * writes.
 */
function writeGroupBlob(
  groupDepth: number,
  count: number,
  size: number,
  positions: ArrayLike<number>,
  depthOffsets: ArrayLike<number>,
  hashes: Uint8Array,
  out: Uint8Array,
  outOffset: number,
): number {
  assertGroupArrayLengths(count, positions, depthOffsets, hashes);
  validateEntries(groupDepth, count, positions, depthOffsets);
  const zeroEntry = firstZeroHash(hashes, 0, count);
  if (zeroEntry >= 0) {
    throw zeroHashEntry(groupDepth, zeroEntry, positions);
  }
  if (!hasRoom(out, outOffset, size)) {
    assertRoomFor(`depth-${groupDepth} group blob with ${count} entries`, out, outOffset, size);
  }

  const bitmapStart = outOffset + HEADER_SIZE;
  const depthsStart = bitmapStart + bitmapSize(groupDepth);
  const hashesStart = depthsStart + packedDepthsSize(count);
  out.fill(0, outOffset, hashesStart);
  out[outOffset] = NODE_TYPE_INTERNAL;
  out[outOffset + 1] = groupDepth;
  for (let i = 0; i < count; i++) {
    const position = positions[i]!;
    const bitmapByte = bitmapStart + (position >> 3);
    out[bitmapByte] = out[bitmapByte]! | (0x80 >> (position & 7));
    writeDepthField(out, depthsStart, i, depthOffsets[i]! - 1);
  }
  const hashBytes = count * HASH_SIZE;
  out.set(hashes.length === hashBytes ? hashes : hashes.subarray(0, hashBytes), hashesStart);
  return size;
}

/**
 * Builds a group blob from the first `count` entries of the parallel arrays.
 *
 * @example
 * ```ts
 * import { encodeGroupBlob } from "@bintrie/codec";
 *
 * const blob = encodeGroupBlob(1, 2, [0, 1], [1, 1], new Uint8Array(64).fill(3));
 * blob.length; // 68
 * ```
 */
export function encodeGroupBlob(
  groupDepth: number,
  count: number,
  positions: ArrayLike<number>,
  depthOffsets: ArrayLike<number>,
  hashes: Uint8Array,
): Uint8Array {
  const size = groupBlobSize(groupDepth, count);
  assertArrayLike("encodeGroupBlob: positions", positions);
  assertArrayLike("encodeGroupBlob: depthOffsets", depthOffsets);
  assertBytes("encodeGroupBlob: hashes", hashes);
  const blob = new Uint8Array(size);
  writeGroupBlob(groupDepth, count, size, positions, depthOffsets, hashes, blob, 0);
  return blob;
}

/**
 * Decodes a group blob with geth's checks in geth's order: length >= 2; group depth 1..8; room for
 * the bitmap; zero bitmap padding (g < 3); exact length; zero depth padding; then per entry in
 * bitmap order: depth offset <= g, position zero below the entry's depth, and no entry inside an
 * earlier entry's subtree. Then one check geth lacks: no entry's hash is 32 zero bytes (geth
 * never writes one; accepting it would give a group a second encoding with the same hash).
 *
 * @example
 * ```ts
 * import { decodeGroupBlob, encodeGroupBlob } from "@bintrie/codec";
 *
 * const blob = encodeGroupBlob(1, 2, [0, 1], [1, 1], new Uint8Array(64).fill(3));
 * decodeGroupBlob(blob).count; // 2
 * ```
 */
export function decodeGroupBlob(blob: Uint8Array): GroupBlob {
  assertBytes("decodeGroupBlob: blob", blob);
  return decodeGroupNode(blob);
}

/** {@link decodeGroupBlob} tagged for decodeNode, built as one object. */
export function decodeGroupNode(blob: Uint8Array): { kind: "group" } & GroupBlob {
  const groupDepth = readGroupDepth(blob);
  const bitmapBytes = groupDepth <= 3 ? 1 : 1 << (groupDepth - 3);
  const depthsStart = HEADER_SIZE + bitmapBytes;
  const count = checkGroupLayout(blob, groupDepth, bitmapBytes);
  const hashesStart = depthsStart + packedDepthsSize(count);
  const positions = new Uint16Array(count);
  const depthOffsets = new Uint8Array(count);
  readGroupEntries(blob, groupDepth, bitmapBytes, positions, depthOffsets);
  // After every check geth makes, so that a blob geth refuses gets geth's reason.
  const zeroEntry = firstZeroHash(blob, hashesStart, count);
  if (zeroEntry >= 0) {
    throw new CodecError(
      "ZERO_HASH_ENTRY",
      `zero hash in group blob: entry ${zeroEntry} at bitmap position ${positions[zeroEntry]!} (depth offset ${depthOffsets[zeroEntry]!}) of a depth-${groupDepth} group holds 32 zero bytes, the hash of an empty child, which has no entry (${blob.length}-byte blob)`,
    );
  }
  return {
    kind: "group",
    groupDepth,
    count,
    positions,
    depthOffsets,
    hashes: blob.subarray(hashesStart, hashesStart + count * HASH_SIZE),
  };
}

/** The group depth of a group blob, after checking its type byte and that it has one. */
function readGroupDepth(blob: Uint8Array): number {
  const length = blob.length;
  if (length === 0) {
    throw new CodecError("INVALID_LENGTH", "group blob is empty");
  }
  if (blob[0] !== NODE_TYPE_INTERNAL) {
    throw new CodecError(
      "INVALID_NODE_TYPE",
      `invalid node type ${blob[0]!} for a group blob (expected ${NODE_TYPE_INTERNAL}), blob of ${length} bytes`,
    );
  }
  if (length < HEADER_SIZE) {
    throw new CodecError(
      "INVALID_LENGTH",
      `invalid serialized node length: group blob is ${length} byte, missing its group depth`,
    );
  }
  const groupDepth = blob[1]!;
  if (groupDepth < 1 || groupDepth > MAX_GROUP_DEPTH) {
    throw new CodecError(
      "INVALID_GROUP_DEPTH",
      `invalid group depth ${groupDepth} (expected 1..${MAX_GROUP_DEPTH}) in a ${length}-byte group blob`,
    );
  }
  return groupDepth;
}

/**
 * Checks the blob's length against its bitmap and the canonical zero padding of the bitmap and
 * of the packed depth fields; returns the entry count (the bitmap's popcount).
 */
function checkGroupLayout(blob: Uint8Array, groupDepth: number, bitmapBytes: number): number {
  const length = blob.length;
  const depthsStart = HEADER_SIZE + bitmapBytes;
  if (length < depthsStart) {
    throw new CodecError(
      "INVALID_LENGTH",
      `invalid serialized node length: ${length}-byte group blob of depth ${groupDepth} cannot hold its ${bitmapBytes}-byte bitmap`,
    );
  }
  const bitmapBits = 1 << groupDepth;
  if (bitmapBits < 8 && (blob[HEADER_SIZE]! & (0xff >> bitmapBits)) !== 0) {
    throw new CodecError(
      "NON_CANONICAL_BITMAP_PADDING",
      `non-canonical bitmap padding: depth-${groupDepth} group bitmap byte 0x${blob[HEADER_SIZE]!.toString(16).padStart(2, "0")} has bits set past bit ${bitmapBits - 1} (${length}-byte blob)`,
    );
  }
  const count = popcount(blob, HEADER_SIZE, depthsStart);
  const hashesStart = depthsStart + packedDepthsSize(count);
  const expectedLength = hashesStart + count * HASH_SIZE;
  if (length !== expectedLength) {
    throw new CodecError(
      "INVALID_LENGTH",
      `invalid serialized node length: depth-${groupDepth} group blob with ${count} entries must be ${expectedLength} bytes, got ${length}`,
    );
  }
  const usedDepthBits = (count * DEPTH_FIELD_BITS) & 7;
  if (usedDepthBits !== 0 && (blob[hashesStart - 1]! & (0xff >> usedDepthBits)) !== 0) {
    throw new CodecError(
      "NON_CANONICAL_DEPTH_PADDING",
      `non-canonical depth padding: last depth byte 0x${blob[hashesStart - 1]!.toString(16).padStart(2, "0")} of a ${count}-entry depth-${groupDepth} group has bits set past its ${usedDepthBits} used bits (${length}-byte blob)`,
    );
  }
  return count;
}

/**
 * Reads each entry's bitmap position and depth offset into `positions` / `depthOffsets`,
 * rejecting depth offsets past the group, positions not aligned to their subtree, and entries
 * inside an earlier entry's subtree.
 */
function readGroupEntries(
  blob: Uint8Array,
  groupDepth: number,
  bitmapBytes: number,
  positions: Uint16Array,
  depthOffsets: Uint8Array,
): void {
  const length = blob.length;
  const depthsStart = HEADER_SIZE + bitmapBytes;
  let entry = 0;
  // End (exclusive) of the subtree ranges of the entries seen so far; bitmap positions are
  // dyadic-aligned, so a later entry overlaps an earlier one exactly when it starts before this.
  let coveredEnd = 0;
  let coveringEntry = -1;
  for (let byteIndex = 0; byteIndex < bitmapBytes; byteIndex++) {
    let remaining = blob[HEADER_SIZE + byteIndex]!;
    while (remaining !== 0) {
      const bitInByte = Math.clz32(remaining) - 24;
      remaining &= ~(0x80 >> bitInByte);
      const position = (byteIndex << 3) | bitInByte;
      const depthOffset = readDepthField(blob, depthsStart, entry) + 1;
      if (depthOffset > groupDepth) {
        throw new CodecError(
          "INVALID_DEPTH_OFFSET",
          `invalid depth offset ${depthOffset} (greater than group depth ${groupDepth}) for entry ${entry} at bitmap position ${position} of a ${length}-byte group blob`,
        );
      }
      const span = 1 << (groupDepth - depthOffset);
      if ((position & (span - 1)) !== 0) {
        throw new CodecError(
          "NON_CANONICAL_BITMAP_POSITION",
          `non-canonical bitmap position ${position} for entry ${entry}: at depth offset ${depthOffset} of a depth-${groupDepth} group its low ${groupDepth - depthOffset} bits must be zero (${length}-byte blob)`,
        );
      }
      if (position < coveredEnd) {
        throw new CodecError(
          "OVERLAPPING_ENTRIES",
          `overlapping entries in group blob: entry ${entry} at bitmap position ${position} (depth offset ${depthOffset}) lies inside the subtree of entry ${coveringEntry} at position ${positions[coveringEntry]!} (depth offset ${depthOffsets[coveringEntry]!}) of this depth-${groupDepth} group (${length}-byte blob)`,
        );
      }
      coveredEnd = position + span;
      coveringEntry = entry;
      positions[entry] = position;
      depthOffsets[entry] = depthOffset;
      entry++;
    }
  }
}
