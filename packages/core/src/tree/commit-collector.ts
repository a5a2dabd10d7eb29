import {
  encodeGroupBlob,
  encodeInternalBlob,
  encodePathKey,
  encodeStemBlob,
  MAX_GROUP_DEPTH,
} from "@bintrie/codec";
import { bytesToKeyString } from "../store/bytes-order.js";
import type { Arena } from "./arena.js";
import { CommitMarks } from "./commit-marks.js";
import {
  FLAG_BLOB_STALE,
  KIND_EMPTY,
  KIND_HASHED,
  KIND_INTERNAL,
  KIND_STEM,
  type NodeRef,
  refIndex,
  refKind,
} from "./node-ref.js";
import type { NodeSet, NodeWrite } from "./node-set.js";
import { TreeError } from "./tree-error.js";

/** Scratch for one group blob; one per group level, since group collection nests. */
class GroupScratch {
  count = 0;
  readonly positions: Uint16Array;
  readonly depthOffsets: Uint8Array;
  readonly hashes: Uint8Array;
  readonly children: Uint32Array;
  readonly childDepths: Uint8Array;
  readonly childPaths: Uint8Array;
  readonly walkPath = new Uint8Array(32);

  constructor(groupDepth: number) {
    const width = 1 << groupDepth;
    this.positions = new Uint16Array(width);
    this.depthOffsets = new Uint8Array(width);
    this.hashes = new Uint8Array(width * 32);
    this.children = new Uint32Array(width);
    this.childDepths = new Uint8Array(width);
    this.childPaths = new Uint8Array(width * 32);
  }
}

/**
 * Serializes every blob-stale node into a node set, post-order and left first (go-ethereum's
 * order): stems at their natural path, internal nodes as flat 65-byte blobs (group depth 0) or
 * as one group blob per group root (depth % g == 0). Clean subtrees are skipped whole. Hashes
 * must be up to date. Collection changes nothing: the flag changes that make the tree clean are
 * recorded in CommitMarks, applied once the node set is durable (or at once by `commit()`).
 */
export class CommitCollector {
  readonly #arena: Arena;
  #groupDepth = 0;
  #writes: NodeWrite[] = [];
  #marks = new CommitMarks();
  readonly #scratch: GroupScratch[] = [];
  readonly #path = new Uint8Array(32);

  constructor(arena: Arena) {
    this.#arena = arena;
  }

  collect(groupDepth: number, rootHash: Uint8Array): { set: NodeSet; marks: CommitMarks } {
    if (!Number.isInteger(groupDepth) || groupDepth < 0 || groupDepth > MAX_GROUP_DEPTH) {
      throw new TreeError(
        "INVALID_OPTION",
        `commit: group depth must be an integer 0..8, got ${groupDepth}`,
      );
    }
    const marks = new CommitMarks();
    this.#marks = marks;
    // Group scratch is sized by the group depth: keep it across commits unless that changes.
    if (groupDepth !== this.#groupDepth) this.#scratch.length = 0;
    this.#groupDepth = groupDepth;
    this.#writes = [];
    this.#path.fill(0);
    this.#collectNode(this.#arena.root, 0, this.#path);
    const writes = this.#writes;
    this.#writes = [];
    const deletes = this.#orphanDeletes(writes);
    marks.orphans = this.#arena.orphans.length;
    return { set: { root: rootHash, groupDepth, writes, deletes }, marks };
  }

  #collectNode(ref: NodeRef, depth: number, path: Uint8Array): void {
    const kind = refKind(ref);
    const index = refIndex(ref);
    if (kind === KIND_STEM) {
      const { stems } = this.#arena;
      if ((stems.getFlags(index) & FLAG_BLOB_STALE) === 0) return;
      this.#emitStem(index);
      this.#marks.stems.push(index);
      return;
    }
    if (kind !== KIND_INTERNAL) return;
    const { internals } = this.#arena;
    if ((internals.getFlags(index) & FLAG_BLOB_STALE) === 0) return;
    const g = this.#groupDepth;
    if (g === 0) {
      // Depth-first with one path buffer: bits below `depth` are not touched below this node.
      setBit(path, depth, 0);
      this.#collectNode(internals.getLeft(index), depth + 1, path);
      setBit(path, depth, 1);
      this.#collectNode(internals.getRight(index), depth + 1, path);
      const left = new Uint8Array(32);
      const right = new Uint8Array(32);
      this.#arena.writeHash(internals.getLeft(index), left, 0);
      this.#arena.writeHash(internals.getRight(index), right, 0);
      this.#emit(
        encodePathKey(path, depth),
        this.#internalHash(index),
        encodeInternalBlob(left, right),
      );
      this.#marks.stored.push(index);
      return;
    }
    const level = Math.floor(depth / g);
    let scratch = this.#scratch[level];
    if (scratch === undefined) {
      scratch = new GroupScratch(g);
      this.#scratch[level] = scratch;
    }
    scratch.count = 0;
    scratch.walkPath.set(path);
    this.#gatherGroup(scratch, ref, depth, scratch.walkPath, g, 0);
    this.#marks.stored.push(index);
    // Children first (they were gathered left to right), then the group root itself.
    const n = scratch.count;
    for (let k = 0; k < n; k++) {
      this.#collectNode(
        scratch.children[k]!,
        scratch.childDepths[k]!,
        scratch.childPaths.subarray(k << 5, (k << 5) + 32),
      );
    }
    const blob = encodeGroupBlob(g, n, scratch.positions, scratch.depthOffsets, scratch.hashes);
    this.#emit(encodePathKey(path, depth), this.#internalHash(index), blob);
  }

  /** Left-first walk of the group below a group root, recording one entry per non-empty node on
   * the bottom layer or per stem/hashed node that ends above it (position zero-extended). */
  #gatherGroup(
    scratch: GroupScratch,
    ref: NodeRef,
    depth: number,
    path: Uint8Array,
    remaining: number,
    position: number,
  ): void {
    const kind = refKind(ref);
    if (kind === KIND_EMPTY) return;
    const g = this.#groupDepth;
    if (kind === KIND_INTERNAL && remaining > 0) {
      const { internals } = this.#arena;
      const index = refIndex(ref);
      // Inner nodes of a group have no blob of their own: the group blob covers them.
      if (remaining < g) this.#marks.inner.push(index);
      // One path buffer for the whole walk: bits below `depth` stay put while a subtree is
      // walked, so setting bit `depth` before each side is enough (no buffer per node).
      setBit(path, depth, 0);
      this.#gatherGroup(
        scratch,
        internals.getLeft(index),
        depth + 1,
        path,
        remaining - 1,
        position * 2,
      );
      setBit(path, depth, 1);
      this.#gatherGroup(
        scratch,
        internals.getRight(index),
        depth + 1,
        path,
        remaining - 1,
        position * 2 + 1,
      );
      return;
    }
    const k = scratch.count++;
    scratch.positions[k] = position << remaining;
    scratch.depthOffsets[k] = g - remaining;
    this.#arena.writeHash(ref, scratch.hashes, k << 5);
    scratch.children[k] = ref;
    scratch.childDepths[k] = depth;
    scratch.childPaths.set(path, k << 5);
    if (kind === KIND_HASHED) scratch.children[k] = 0;
  }

  #emitStem(index: number): void {
    const { stems } = this.#arena;
    const stemChunk = stems.stemChunk(index);
    const so = stems.stemOffset(index);
    const stem = stemChunk.subarray(so, so + 31);
    const bitmap = new Uint8Array(32);
    stems.writeBlobBitmap(index, bitmap, 0);
    const count = stems.getCount(index);
    const values =
      count === 0
        ? new Uint8Array(0)
        : stems
            .blockPage(index)
            .subarray(stems.blockOffset(index), stems.blockOffset(index) + count * 32);
    const hc = stems.hashChunk(index);
    const ho = stems.hashOffset(index);
    this.#emit(
      encodePathKey(stem, stems.getDepth(index)),
      hc.slice(ho, ho + 32),
      encodeStemBlob(stem, bitmap, values),
    );
  }

  #internalHash(index: number): Uint8Array {
    const { internals } = this.#arena;
    const at = internals.hashOffset(index);
    return internals.hashChunk(index).slice(at, at + 32);
  }

  #emit(path: Uint8Array, hash: Uint8Array, blob: Uint8Array): void {
    this.#writes.push({ path, hash, blob });
  }

  /** Old paths of stored stems that splits pushed deeper, unless this commit rewrote them. */
  #orphanDeletes(writes: NodeWrite[]): Uint8Array[] {
    const arena = this.#arena;
    if (arena.orphans.length === 0) return [];
    const written = new Set<string>();
    for (const w of writes) written.add(bytesToKeyString(w.path));
    const deletes: Uint8Array[] = [];
    const seen = new Set<string>();
    for (const orphan of arena.orphans) {
      const path = encodePathKey(orphan.bits, orphan.depth);
      const key = bytesToKeyString(path);
      if (written.has(key) || seen.has(key)) continue;
      seen.add(key);
      deletes.push(path);
    }
    return deletes;
  }
}

function setBit(bits: Uint8Array, position: number, bit: number): void {
  const mask = 0x80 >>> (position & 7);
  if (bit === 0) bits[position >>> 3]! &= ~mask;
  else bits[position >>> 3]! |= mask;
}
