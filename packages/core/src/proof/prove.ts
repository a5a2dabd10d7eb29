import { describeValue } from "@bintrie/codec";
import { bytesToHex } from "../bytes/hex.js";
import type { Hasher } from "../hash/hasher.js";
import type { Arena } from "../tree/arena.js";
import { arenaOf, BinaryTree } from "../tree/binary-tree.js";
import {
  KIND_EMPTY,
  KIND_INTERNAL,
  KIND_STEM,
  type NodeRef,
  refIndex,
  refKind,
} from "../tree/node-ref.js";
import { TreeError } from "../tree/tree-error.js";
import { BitWriter } from "./bit-writer.js";
import { ByteWriter } from "./byte-writer.js";
import { indexWidth, splitOnStemBit, splitOnSubindexBit, stemEquals } from "./key-ranges.js";
import { keySetDigest } from "./key-set-digest.js";
import { ProofError } from "./proof-error.js";
import { FIXED_HEADER_BYTES, hashId, PROOF_VERSION, STEM_LEVELS } from "./proof-format.js";
import { sortKeys } from "./sorted-keys.js";
import { StemSubtree, stemNodeIndex } from "./stem-subtree.js";

/** How many times `prove` reloads when something evicted a path between its load and its walk. */
const MAX_LOAD_ATTEMPTS = 4;

/**
 * A proof for `keys` (present or absent, any order, duplicates allowed) against the tree's
 * current root, in the versioned byte encoding that {@link verifyProof} reads. Loads the nodes
 * on the keys' paths from the tree's store first.
 *
 * @example
 * ```ts
 * import { BinaryTree } from "@bintrie/core";
 * import { prove, verifyProof } from "@bintrie/core/proof";
 *
 * const tree = new BinaryTree();
 * const key = new Uint8Array(32).fill(1);
 * tree.put(key, new Uint8Array(32).fill(2));
 * const proof = await prove(tree, [key]);
 * verifyProof(tree.hash(), [key], proof); // [the 32-byte value]
 * ```
 */
export async function prove(tree: BinaryTree, keys: readonly Uint8Array[]): Promise<Uint8Array> {
  assertTree(tree, "prove");
  sortKeys(keys, "prove");
  for (let attempt = 1; ; attempt++) {
    await tree.load(keys);
    try {
      return proveSync(tree, keys);
    } catch (error) {
      // Only a concurrent eviction between the load and the walk gets here; load again.
      if (!(error instanceof TreeError && error.code === "MISSING_NODE")) throw error;
      if (attempt >= MAX_LOAD_ATTEMPTS) throw error;
    }
  }
}

/**
 * {@link prove} for trees whose nodes on the keys' paths are in memory. Throws
 * TreeError('MISSING_NODE') when a path reaches a node still in the store (use `prove`, or
 * `await tree.load(keys)` first).
 */
export function proveSync(tree: BinaryTree, keys: readonly Uint8Array[]): Uint8Array {
  assertTree(tree, "proveSync");
  const { keys: sorted } = sortKeys(keys, "proveSync");
  tree.hash(); // every cached hash the walk reads must be current
  const writer = new ProofWriter(arenaOf(tree), tree.hasher, sorted);
  writer.node(arenaOf(tree).root, 0, 0, sorted.length);
  return writer.finish(keySetDigest(tree.hasher, sorted));
}

function assertTree(tree: unknown, operation: string): asserts tree is BinaryTree {
  if (!(tree instanceof BinaryTree)) {
    throw new ProofError(
      "INVALID_TREE",
      `${operation}: tree must be a BinaryTree, got ${describeValue(tree)}`,
    );
  }
}

/** Walks the arena along the sorted keys and writes the shape bits and the data bytes. */
class ProofWriter {
  readonly #arena: Arena;
  readonly #hasher: Hasher;
  readonly #keys: readonly Uint8Array[];
  readonly #bits = new BitWriter();
  readonly #data = new ByteWriter();
  readonly #subtree: StemSubtree;

  constructor(arena: Arena, hasher: Hasher, keys: readonly Uint8Array[]) {
    this.#arena = arena;
    this.#hasher = hasher;
    this.#keys = keys;
    this.#subtree = new StemSubtree(hasher);
  }

  /** The node `ref` at `depth`, reached by keys [lo, hi). */
  node(ref: NodeRef, depth: number, lo: number, hi: number): void {
    const kind = refKind(ref);
    const index = refIndex(ref);
    const bits = this.#bits;
    if (kind === KIND_INTERNAL) {
      const internals = this.#arena.internals;
      if (internals.getDepth(index) !== depth) {
        throw new ProofError(
          "INCONSISTENT_TREE",
          `internal node at depth ${depth} records depth ${internals.getDepth(index)}`,
        );
      }
      bits.write(0);
      const mid = splitOnStemBit(this.#keys, lo, hi, depth);
      const left = internals.getLeft(index);
      const right = internals.getRight(index);
      if (mid > lo) this.node(left, depth + 1, lo, mid);
      else this.#sibling(left);
      if (hi > mid) this.node(right, depth + 1, mid, hi);
      else this.#sibling(right);
    } else if (kind === KIND_STEM) {
      bits.write(1);
      bits.write(0);
      this.#stem(index, depth, lo, hi);
    } else if (kind === KIND_EMPTY) {
      bits.write(1);
      bits.write(1);
    } else {
      const key = this.#keys[lo]!;
      throw new TreeError(
        "MISSING_NODE",
        `prove: the node at depth ${depth} on the path of key ${bytesToHex(key)} is not loaded; use prove() or tree.load(keys) first`,
      );
    }
  }

  /** A child no key goes to: one bit "empty", or 0 and its 32-byte hash. */
  #sibling(ref: NodeRef): void {
    if (refKind(ref) === KIND_EMPTY) {
      this.#bits.write(1);
      return;
    }
    this.#bits.write(0);
    const at = this.#data.reserve(32);
    this.#arena.writeHash(ref, this.#data.buffer, at);
  }

  #stem(index: number, depth: number, lo: number, hi: number): void {
    const { stems } = this.#arena;
    const keys = this.#keys;
    const chunk = stems.stemChunk(index);
    const offset = stems.stemOffset(index);
    if (stems.getDepth(index) !== depth) {
      throw new ProofError(
        "INCONSISTENT_TREE",
        `stem node at depth ${depth} records depth ${stems.getDepth(index)}`,
      );
    }
    // Distinct stems among the keys here, and which of them (if any) is this node's stem.
    let distinct = 0;
    let matchLo = -1;
    let matchHi = -1;
    let matchIndex = -1;
    for (let i = lo; i < hi; i++) {
      const isNew = i === lo || !stemEquals(keys[i]!, keys[i - 1]!, 0);
      if (isNew) distinct++;
      if (stemEquals(keys[i]!, chunk, offset)) {
        if (matchLo < 0) {
          matchLo = i;
          matchIndex = distinct - 1;
        }
        matchHi = i + 1;
      }
    }
    const bits = this.#bits;
    const subtree = this.#subtree;
    if (matchLo >= 0) {
      bits.write(1);
      bits.writeBits(matchIndex, indexWidth(distinct));
      subtree.compute(stems, index);
      this.#openMatched(index, 0, 0, matchLo, matchHi);
      return;
    }
    if (stems.getCount(index) === 0) {
      // H(stem || 0x00 || 0^32) is also the hash of an internal node whose right child is empty
      // and whose left child hash is stem || 0x00: nothing can show which one it is.
      throw new ProofError(
        "UNPROVABLE",
        `key ${bytesToHex(keys[lo]!)} reaches stem ${bytesToHex(chunk.subarray(offset, offset + 31))}, which has no values; EIP-7864 hashes such a stem exactly like an internal node, so its absence cannot be proven`,
      );
    }
    bits.write(0);
    this.#data.writeFrom(chunk, offset, 31);
    // Opened down to its lowest present value: evidence that this is a stem (see README).
    subtree.compute(stems, index);
    let lowest = 0;
    while (!stems.has(index, lowest)) lowest++;
    this.#data.writeByte(lowest);
    this.#openLowest(index, 0, 0, lowest);
  }

  /** Stem subtree node (level, i) for matched keys [lo, hi). */
  #openMatched(stem: number, level: number, i: number, lo: number, hi: number): void {
    const bits = this.#bits;
    const subtree = this.#subtree;
    if (level === STEM_LEVELS) {
      const stems = this.#arena.stems;
      const sub = this.#keys[lo]![31]!;
      if (!stems.has(stem, sub)) {
        bits.write(0);
        return;
      }
      bits.write(1);
      this.#data.writeFrom(stems.blockPage(stem), stems.valueOffset(stem, sub), 32);
      return;
    }
    if (subtree.nonZero[stemNodeIndex(level, i)] === 0) {
      bits.write(1);
      return;
    }
    bits.write(0);
    const mid = splitOnSubindexBit(this.#keys, lo, hi, level);
    if (mid > lo) this.#openMatched(stem, level + 1, 2 * i, lo, mid);
    else this.#stemSibling(level + 1, 2 * i);
    if (hi > mid) this.#openMatched(stem, level + 1, 2 * i + 1, mid, hi);
    else this.#stemSibling(level + 1, 2 * i + 1);
  }

  /** The path to `sub`, the lowest present subindex: every left sibling is zero and implied. */
  #openLowest(stem: number, level: number, i: number, sub: number): void {
    if (level === STEM_LEVELS) {
      const stems = this.#arena.stems;
      this.#data.writeFrom(stems.blockPage(stem), stems.valueOffset(stem, sub), 32);
      return;
    }
    if (((sub >>> (7 - level)) & 1) === 0) {
      this.#openLowest(stem, level + 1, 2 * i, sub);
      this.#stemSibling(level + 1, 2 * i + 1);
    } else {
      this.#openLowest(stem, level + 1, 2 * i + 1, sub);
    }
  }

  #stemSibling(level: number, i: number): void {
    const node = stemNodeIndex(level, i);
    const subtree = this.#subtree;
    if (subtree.nonZero[node] === 0) {
      this.#bits.write(1);
      return;
    }
    this.#bits.write(0);
    this.#data.writeFrom(subtree.hashes, node << 5, 32);
  }

  finish(digest: Uint8Array): Uint8Array {
    const shape = this.#bits.finish();
    const data = this.#data.finish();
    const lengthBytes = leb128Length(shape.length);
    const out = new Uint8Array(FIXED_HEADER_BYTES + lengthBytes + shape.length + data.length);
    out[0] = PROOF_VERSION;
    out[1] = hashId(this.#hasher.name);
    out.set(digest, 2);
    let at = FIXED_HEADER_BYTES;
    let n = shape.length;
    do {
      const low = n & 0x7f;
      n >>>= 7;
      out[at++] = n === 0 ? low : low | 0x80;
    } while (n !== 0);
    out.set(shape, at);
    out.set(data, at + shape.length);
    return out;
  }
}

function leb128Length(n: number): number {
  let bytes = 1;
  while (n >= 0x80) {
    n >>>= 7;
    bytes++;
  }
  return bytes;
}
