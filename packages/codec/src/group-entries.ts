import {
  assertArrayLike,
  assertByteLength,
  assertBytes,
  assertIntegerInRange,
  assertIterable,
  assertObject,
} from "./argument-checks.js";
import { HASH_SIZE, MAX_GROUP_DEPTH } from "./constants.js";
import {
  assertGroupArrayLengths,
  encodeGroupBlob,
  firstZeroHash,
  type GroupBlob,
  validateEntries,
  zeroHashEntry,
} from "./group-blob.js";

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
 * The entries of a decoded group blob in bitmap order; hashes are views into the blob. A group
 * built by hand must be one {@link encodeGroupBlob} would accept.
 *
 * @example
 * ```ts
 * import { decodeGroupBlob, encodeGroupBlob, groupEntries } from "@bintrie/codec";
 *
 * const group = decodeGroupBlob(encodeGroupBlob(1, 2, [0, 1], [1, 1], new Uint8Array(64).fill(3)));
 * groupEntries(group).map((e) => e.position); // [0, 1]
 * ```
 */
export function groupEntries(group: GroupBlob): GroupEntry[] {
  assertObject("groupEntries: group", group, "a decoded GroupBlob");
  const { groupDepth, count, positions, depthOffsets, hashes } = group;
  assertIntegerInRange("groupEntries: group.groupDepth", groupDepth, 1, MAX_GROUP_DEPTH);
  assertIntegerInRange("groupEntries: group.count", count, 0, 1 << groupDepth);
  assertArrayLike("groupEntries: group.positions", positions);
  assertArrayLike("groupEntries: group.depthOffsets", depthOffsets);
  assertBytes("groupEntries: group.hashes", hashes);
  assertGroupArrayLengths(count, positions, depthOffsets, hashes);
  validateEntries(groupDepth, count, positions, depthOffsets);
  const zeroEntry = firstZeroHash(hashes, 0, count);
  if (zeroEntry >= 0) {
    throw zeroHashEntry(groupDepth, zeroEntry, positions);
  }
  const entries: GroupEntry[] = [];
  for (let i = 0; i < count; i++) {
    entries.push({
      position: positions[i]!,
      depthOffset: depthOffsets[i]!,
      hash: hashes.subarray(i * HASH_SIZE, (i + 1) * HASH_SIZE),
    });
  }
  return entries;
}

/**
 * Builds a group blob from entries in any order (they are sorted by position); the same rules as
 * {@link encodeGroupBlob} apply, and every hash must be 32 bytes, not all zero.
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
  assertIntegerInRange("encodeGroupBlobFromEntries: groupDepth", groupDepth, 1, MAX_GROUP_DEPTH);
  assertIterable("encodeGroupBlobFromEntries: entries", entries);
  const list: unknown[] = Array.from(entries);
  // Each entry's types (and ranges) before the sort does arithmetic on the positions; order and
  // overlaps are encodeGroupBlob's to check. Not a hot path: the names are built per entry.
  for (let i = 0; i < list.length; i++) {
    const entry = list[i];
    const name = `encodeGroupBlobFromEntries: entries[${i}]`;
    assertObject(name, entry, "a GroupEntry object");
    const { position, depthOffset, hash } = entry as Partial<Record<keyof GroupEntry, unknown>>;
    assertIntegerInRange(`${name}.position`, position, 0, (1 << groupDepth) - 1);
    assertIntegerInRange(`${name}.depthOffset`, depthOffset, 1, groupDepth);
    assertByteLength(`${name}.hash`, hash, HASH_SIZE);
  }
  const sorted = (list as GroupEntry[]).sort((a, b) => a.position - b.position);
  const count = sorted.length;
  const positions: number[] = [];
  const depthOffsets: number[] = [];
  const hashes = new Uint8Array(count * HASH_SIZE);
  for (let i = 0; i < count; i++) {
    const entry = sorted[i]!;
    positions.push(entry.position);
    depthOffsets.push(entry.depthOffset);
    hashes.set(entry.hash, i * HASH_SIZE);
  }
  return encodeGroupBlob(groupDepth, count, positions, depthOffsets, hashes);
}
