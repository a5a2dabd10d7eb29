import { CodecError, decodeNode, type GroupBlob } from "@bintrie/codec";
import { equalBitPrefix } from "../bytes/bit-prefix.js";
import { bytesToHex } from "../bytes/hex.js";
import { isZero } from "../bytes/is-zero.js";
import type { Hasher } from "../hash/hasher.js";
import type { Arena } from "./arena.js";
import type { GroupBlobCache } from "./group-blob-cache.js";
import {
  EMPTY_REF,
  FLAG_PERSISTED,
  FLAG_REFERENCED,
  KIND_HASHED,
  KIND_INTERNAL,
  KIND_STEM,
  makeRef,
  type NodeRef,
  refIndex,
  refKind,
} from "./node-ref.js";
import type { StaleHasher } from "./stale-hasher.js";
import { TreeError } from "./tree-error.js";

/** No internal node sits at depth 248 or below: a stem's path has 248 bits. */
const MAX_INTERNAL_DEPTH = 247;

/**
 * Turns a stored blob back into arena nodes, and refuses it unless its recomputed hash equals
 * the hash its parent holds. Loaded nodes are clean: their hash is known and their blob is
 * the stored one. A loaded blob's root starts referenced, so a memory bound does not evict it
 * before the read that loaded it.
 */
export class NodeLoader {
  readonly #arena: Arena;
  readonly #hasher: Hasher;
  readonly #staleHasher: StaleHasher;
  readonly #groupDepth: number;
  readonly #pair = new Uint8Array(64);
  readonly #groupCache: GroupBlobCache | undefined;

  /** `groupCache`: the commit collector's; a loaded large group's blob goes there as it is. */
  constructor(
    arena: Arena,
    staleHasher: StaleHasher,
    groupDepth: number,
    groupCache?: GroupBlobCache,
  ) {
    this.#arena = arena;
    this.#staleHasher = staleHasher;
    this.#hasher = staleHasher.hasher;
    this.#groupDepth = groupDepth;
    this.#groupCache = groupCache;
  }

  /**
   * Builds the node stored at `path` (the first `depth` bits of `pathBits`) from `blob`, checks
   * it against `expected` (32 bytes at expectedOffset), and returns its ref.
   */
  load(
    blob: Uint8Array | undefined,
    depth: number,
    pathBits: Uint8Array,
    expected: Uint8Array,
    expectedOffset: number,
  ): NodeRef {
    if (blob === undefined || blob.length === 0) {
      if (isZero(expected, expectedOffset, 32)) return EMPTY_REF;
      throw new TreeError(
        "MISSING_NODE",
        `missing trie node at path ${describePath(pathBits, depth)} (expected hash ${bytesToHex(expected.subarray(expectedOffset, expectedOffset + 32))})`,
      );
    }
    let node: ReturnType<typeof decodeNode>;
    try {
      node = decodeNode(blob);
    } catch (error) {
      if (error instanceof CodecError) {
        throw new TreeError(
          "CORRUPT_NODE",
          `undecodable node at path ${describePath(pathBits, depth)}: ${error.message}`,
          { cause: error },
        );
      }
      throw error;
    }
    let ref: NodeRef;
    if (node.kind === "stem") {
      if (depth > 248 || !equalBitPrefix(node.stem, pathBits, depth)) {
        throw new TreeError(
          "CORRUPT_NODE",
          `stem blob at path ${describePath(pathBits, depth)} holds a stem outside that path`,
        );
      }
      const { stems } = this.#arena;
      const index = stems.alloc(node.stem, 0, depth, FLAG_PERSISTED);
      stems.loadValues(index, node.bitmap, node.values, node.count);
      this.#staleHasher.hashStem(index);
      ref = makeRef(KIND_STEM, index);
    } else if (node.kind === "internal") {
      ref = this.#internalFromPair(node.left, node.right, depth);
    } else if (node.kind === "group") {
      ref = this.#internalFromGroup(node, depth, pathBits);
    } else {
      ref = EMPTY_REF;
    }
    this.#verify(ref, depth, pathBits, expected, expectedOffset);
    if (node.kind === "group" && refKind(ref) === KIND_INTERNAL && this.#groupCache !== undefined) {
      // The stored blob is exactly what the next commit of this group would start from.
      this.#groupCache.keep(
        this.#arena.internals,
        refIndex(ref),
        node.groupDepth,
        node.count,
        node.positions,
        node.depthOffsets,
        blob,
        0,
        blob.length,
      );
    }
    return ref;
  }

  #verify(
    ref: NodeRef,
    depth: number,
    pathBits: Uint8Array,
    expected: Uint8Array,
    offset: number,
  ): void {
    const actual = this.#pair;
    this.#arena.writeHash(ref, actual, 0);
    for (let i = 0; i < 32; i++) {
      if (actual[i] !== expected[offset + i]) {
        this.release(ref);
        throw new TreeError(
          "HASH_MISMATCH",
          `node at path ${describePath(pathBits, depth)} hashes to ${bytesToHex(actual.subarray(0, 32))}, but its parent expects ${bytesToHex(expected.subarray(offset, offset + 32))}`,
        );
      }
    }
  }

  #internalFromPair(left: Uint8Array, right: Uint8Array, depth: number): NodeRef {
    if (this.#groupDepth !== 0) {
      throw new TreeError(
        "CORRUPT_NODE",
        `found a flat 65-byte internal node but the tree uses group depth ${this.#groupDepth}`,
      );
    }
    if (depth > MAX_INTERNAL_DEPTH) {
      throw new TreeError(
        "CORRUPT_NODE",
        `internal node at depth ${depth}: internal nodes end at depth ${MAX_INTERNAL_DEPTH}`,
      );
    }
    const { internals } = this.#arena;
    const index = internals.alloc(depth, FLAG_PERSISTED | FLAG_REFERENCED);
    internals.setChild(index, 0, this.#placeholder(left, 0));
    internals.setChild(index, 1, this.#placeholder(right, 0));
    this.#hashInternal(index);
    return makeRef(KIND_INTERNAL, index);
  }

  #internalFromGroup(group: GroupBlob, depth: number, pathBits: Uint8Array): NodeRef {
    const g = group.groupDepth;
    if (g !== this.#groupDepth) {
      throw new TreeError(
        "CORRUPT_NODE",
        `group blob at path ${describePath(pathBits, depth)} has group depth ${g}, the tree uses ${this.#groupDepth}`,
      );
    }
    if (depth % g !== 0) {
      throw new TreeError(
        "CORRUPT_NODE",
        `group blob at path ${describePath(pathBits, depth)}: depth ${depth} is not a group boundary for g=${g}`,
      );
    }
    if (group.count === 0) return EMPTY_REF;
    let deepest = 0;
    for (let e = 0; e < group.count; e++) deepest = Math.max(deepest, group.depthOffsets[e]!);
    if (depth + deepest - 1 > MAX_INTERNAL_DEPTH) {
      throw new TreeError(
        "CORRUPT_NODE",
        `group blob at path ${describePath(pathBits, depth)} needs internal nodes at depth ${depth + deepest - 1}: internal nodes end at depth ${MAX_INTERNAL_DEPTH}`,
      );
    }
    const { internals } = this.#arena;
    const root = internals.alloc(depth, FLAG_PERSISTED | FLAG_REFERENCED);
    for (let e = 0; e < group.count; e++) {
      const position = group.positions[e]!;
      const offset = group.depthOffsets[e]!;
      let parent = root;
      for (let level = 0; level < offset; level++) {
        const bit = (position >>> (g - 1 - level)) & 1;
        if (level === offset - 1) {
          internals.setChild(parent, bit, this.#placeholder(group.hashes, e << 5));
          break;
        }
        const child = internals.getChild(parent, bit);
        if (refKind(child) === KIND_INTERNAL) {
          parent = refIndex(child);
        } else {
          const created = internals.alloc(depth + level + 1, 0);
          internals.setChild(parent, bit, makeRef(KIND_INTERNAL, created));
          parent = created;
        }
      }
    }
    this.#hashGroupInternals(root, depth + g);
    return makeRef(KIND_INTERNAL, root);
  }

  /** Post-order hash of the inner nodes of a freshly decoded group. */
  #hashGroupInternals(index: number, bottom: number): void {
    const { internals } = this.#arena;
    if (internals.getDepth(index) + 1 < bottom) {
      for (let bit = 0; bit < 2; bit++) {
        const child = internals.getChild(index, bit);
        if (refKind(child) === KIND_INTERNAL) this.#hashGroupInternals(refIndex(child), bottom);
      }
    }
    this.#hashInternal(index);
  }

  #hashInternal(index: number): void {
    const { internals } = this.#arena;
    const pair = this.#pair;
    this.#arena.writeHash(internals.getLeft(index), pair, 0);
    this.#arena.writeHash(internals.getRight(index), pair, 32);
    this.#hasher.hash64Batch(pair, 0, 1, internals.hashChunk(index), internals.hashOffset(index));
  }

  /** A hashed placeholder for a child that stays in the store; a zero hash is an empty child. */
  #placeholder(source: Uint8Array, offset: number): NodeRef {
    if (isZero(source, offset, 32)) return EMPTY_REF;
    return makeRef(KIND_HASHED, this.#arena.hashed.alloc(source, offset));
  }

  /** Returns a node built by `load` (and its loaded descendants) to the pools' free lists. */
  release(ref: NodeRef): void {
    const kind = refKind(ref);
    const index = refIndex(ref);
    const arena = this.#arena;
    if (kind === KIND_STEM) arena.stems.release(index);
    else if (kind === KIND_HASHED) arena.hashed.release(index);
    else if (kind === KIND_INTERNAL) {
      this.release(arena.internals.getLeft(index));
      this.release(arena.internals.getRight(index));
      arena.internals.release(index);
    }
  }
}

/** A path for error messages: its bits as 0/1 text, or "root". */
export function describePath(pathBits: Uint8Array, depth: number): string {
  if (depth === 0) return "(root)";
  let s = "";
  for (let d = 0; d < depth; d++) s += (pathBits[d >>> 3]! >>> (7 - (d & 7))) & 1;
  return `${s} (${depth} bits)`;
}
