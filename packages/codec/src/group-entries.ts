import { HASH_SIZE } from "./constants.js";
import { CodecError } from "./errors.js";
import { encodeGroupBlob, type GroupBlob } from "./group-blob.js";

/** One entry of a group blob as an object: convenient, but allocates per entry. */
export interface GroupEntry {
  /** Bitmap bit: the entry's path below the group root, zero-extended to g bits. */
  position: number;
  /** Levels below the group root, 1..g. */
  depthOffset: number;
  /** The entry's 32-byte hash. */
  hash: Uint8Array;
}

/**
 * The entries of a decoded group blob in bitmap order; hashes are views into the blob.
 *
 * @example
 * ```ts
 * import { decodeGroupBlob, encodeGroupBlob, groupEntries } from "@bintrie/codec";
 *
 * const group = decodeGroupBlob(encodeGroupBlob(1, 2, [0, 1], [1, 1], new Uint8Array(64)));
 * groupEntries(group).map((e) => e.position); // [0, 1]
 * ```
 */
export function groupEntries(group: GroupBlob): GroupEntry[] {
  const entries: GroupEntry[] = [];
  for (let i = 0; i < group.count; i++) {
    entries.push({
      position: group.positions[i]!,
      depthOffset: group.depthOffsets[i]!,
      hash: group.hashes.subarray(i * HASH_SIZE, (i + 1) * HASH_SIZE),
    });
  }
  return entries;
}

/**
 * Builds a group blob from entries in any order (they are sorted by position); the same rules as
 * {@link encodeGroupBlob} apply, and every hash must be 32 bytes.
 *
 * @example
 * ```ts
 * import { encodeGroupBlobFromEntries } from "@bintrie/codec";
 *
 * const blob = encodeGroupBlobFromEntries(1, [
 *   { position: 1, depthOffset: 1, hash: new Uint8Array(32).fill(4) },
 *   { position: 0, depthOffset: 1, hash: new Uint8Array(32).fill(3) },
 * ]);
 * blob.length; // 68
 * ```
 */
export function encodeGroupBlobFromEntries(
  groupDepth: number,
  entries: ReadonlyArray<GroupEntry>,
): Uint8Array {
  const sorted = [...entries].sort((a, b) => a.position - b.position);
  const count = sorted.length;
  const positions: number[] = [];
  const depthOffsets: number[] = [];
  const hashes = new Uint8Array(count * HASH_SIZE);
  for (let i = 0; i < count; i++) {
    const entry = sorted[i]!;
    if (!(entry.hash instanceof Uint8Array) || entry.hash.length !== HASH_SIZE) {
      throw new CodecError(
        "INVALID_ARGUMENT",
        `hash of the group entry at position ${String(entry.position)} must be ${HASH_SIZE} bytes, got ${entry.hash?.length ?? "none"}`,
      );
    }
    positions.push(entry.position);
    depthOffsets.push(entry.depthOffset);
    hashes.set(entry.hash, i * HASH_SIZE);
  }
  return encodeGroupBlob(groupDepth, count, positions, depthOffsets, hashes);
}
