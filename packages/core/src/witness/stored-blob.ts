import { encodeGroupBlob, encodeInternalBlob, encodeStemBlob } from "@bintrie/codec";
import type { Arena } from "../tree/arena.js";
import { KIND_EMPTY, KIND_INTERNAL, type NodeRef, refIndex, refKind } from "../tree/node-ref.js";

/**
 * The blob `commit()` stores for a stem: stem ‖ bitmap ‖ present values. Cached hashes are not
 * involved, so it is exact whatever the node's flags.
 */
export function storedStemBlob(arena: Arena, index: number): Uint8Array {
  const { stems } = arena;
  const so = stems.stemOffset(index);
  const stem = stems.stemChunk(index).subarray(so, so + 31);
  const bitmap = new Uint8Array(32);
  stems.writeBlobBitmap(index, bitmap, 0);
  const n = stems.getCount(index);
  const base = stems.blockOffset(index);
  const values = n === 0 ? new Uint8Array(0) : stems.blockPage(index).subarray(base, base + n * 32);
  return encodeStemBlob(stem, bitmap, values);
}

/**
 * The blob `commit()` stores at an internal node that starts a group (depth % g == 0): the
 * flat 65-byte node for g = 0, else the group blob of the subtree's bottom layer (and of the
 * nodes that end above it), in go-ethereum's layout. Child hashes must be up to date.
 */
export function storedGroupBlob(arena: Arena, index: number, groupDepth: number): Uint8Array {
  const { internals } = arena;
  if (groupDepth === 0) {
    const left = new Uint8Array(32);
    const right = new Uint8Array(32);
    arena.writeHash(internals.getLeft(index), left, 0);
    arena.writeHash(internals.getRight(index), right, 0);
    return encodeInternalBlob(left, right);
  }
  const width = 1 << groupDepth;
  const gather: GroupGather = {
    count: 0,
    positions: new Uint16Array(width),
    depthOffsets: new Uint8Array(width),
    hashes: new Uint8Array(width * 32),
  };
  gatherGroup(arena, gather, internals.getLeft(index), groupDepth, groupDepth - 1, 0);
  gatherGroup(arena, gather, internals.getRight(index), groupDepth, groupDepth - 1, 1);
  return encodeGroupBlob(
    groupDepth,
    gather.count,
    gather.positions,
    gather.depthOffsets,
    gather.hashes,
  );
}

interface GroupGather {
  count: number;
  readonly positions: Uint16Array;
  readonly depthOffsets: Uint8Array;
  readonly hashes: Uint8Array;
}

/** Left first: one entry per node on the bottom layer, or per node that ends above it. */
function gatherGroup(
  arena: Arena,
  gather: GroupGather,
  ref: NodeRef,
  groupDepth: number,
  remaining: number,
  position: number,
): void {
  const kind = refKind(ref);
  if (kind === KIND_EMPTY) return;
  if (kind === KIND_INTERNAL && remaining > 0) {
    const { internals } = arena;
    const index = refIndex(ref);
    gatherGroup(arena, gather, internals.getLeft(index), groupDepth, remaining - 1, position * 2);
    gatherGroup(
      arena,
      gather,
      internals.getRight(index),
      groupDepth,
      remaining - 1,
      position * 2 + 1,
    );
    return;
  }
  const k = gather.count++;
  gather.positions[k] = position << remaining;
  gather.depthOffsets[k] = groupDepth - remaining;
  arena.writeHash(ref, gather.hashes, k << 5);
}
