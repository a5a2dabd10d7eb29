import {
  encodeGroupBlobInto,
  groupBlobSize,
  NODE_TYPE_INTERNAL,
  pathKeySize,
  writePathKey,
} from "@bintrie/codec";
import type { NodeWrite } from "../tree/node-set.js";
import type { ByteSlab } from "./byte-slab.js";
import type { HashSlots } from "./hash-slots.js";
import type { NodeOpVisitor } from "./node-op-log.js";

/** The entries collected so far for the one open group root at a given group level. */
class GroupEntries {
  count = 0;
  readonly positions: Uint16Array;
  readonly depthOffsets: Uint8Array;
  readonly hashes: Uint8Array;
  readonly hashes32: Uint32Array;

  constructor(groupDepth: number) {
    const width = 1 << groupDepth;
    this.positions = new Uint16Array(width);
    this.depthOffsets = new Uint8Array(width);
    this.hashes = new Uint8Array(width * 32);
    this.hashes32 = new Uint32Array(this.hashes.buffer);
  }
}

/**
 * Receives a record as its store key and blob; the node's hash is `hashes[hashAt, hashAt + 32)`,
 * valid only during the call (a table the builder reuses).
 */
export type RecordCallback = (
  key: Uint8Array,
  blob: Uint8Array,
  hashes: Uint8Array,
  hashAt: number,
) => void;

/**
 * Where an emitter sends each record: a NodeWrite (path, hash copy, blob), or just the store key
 * (key prefix ‖ path key) and blob, which skips the path and hash copies a store write never uses.
 */
export type RecordTarget =
  | { readonly onNode: (node: NodeWrite) => void }
  | {
      readonly onRecord: RecordCallback;
      readonly keyPrefix: Uint8Array;
    };

/**
 * Turns completed nodes (in post-order, hashes known) into node records, in the formats of the
 * tree's commit: stems at their natural path; internal nodes as flat 65-byte blobs (g = 0) or
 * one group blob per group root (depth % g == 0). A group blob is written only when its group
 * root completes, i.e. after its whole subtree: each path is emitted exactly once.
 */
export class NodeEmitter implements NodeOpVisitor {
  readonly #groupDepth: number;
  readonly #slots: HashSlots;
  readonly #onNode: ((node: NodeWrite) => void) | undefined;
  readonly #onRecord: RecordCallback | undefined;
  readonly #keyPrefix: Uint8Array;
  readonly #slab: ByteSlab;
  /** One open group per group level: open group roots lie on a single root-to-leaf path. */
  readonly #groups: GroupEntries[] = [];
  count = 0;

  constructor(groupDepth: number, slots: HashSlots, target: RecordTarget, slab: ByteSlab) {
    this.#groupDepth = groupDepth;
    this.#slots = slots;
    this.#slab = slab;
    if ("onRecord" in target) {
      this.#onNode = undefined;
      this.#onRecord = target.onRecord;
      this.#keyPrefix = target.keyPrefix;
    } else {
      this.#onNode = target.onNode;
      this.#onRecord = undefined;
      this.#keyPrefix = new Uint8Array(0);
    }
  }

  stem(blob: Uint8Array, depth: number, slot: number): void {
    this.#emit(blob, depth, slot, blob);
    if (this.#groupDepth > 0 && depth > 0) this.#addEntry(depth, blob, slot);
  }

  internal(depth: number, left: number, right: number, out: number, source: Uint8Array): void {
    const g = this.#groupDepth;
    if (g === 0) {
      const blob = this.#slab.alloc(65);
      blob[0] = NODE_TYPE_INTERNAL;
      this.#slots.write(left, blob, 1);
      this.#slots.write(right, blob, 33);
      this.#emit(source, depth, out, blob);
      return;
    }
    // Internal nodes inside a group have no blob of their own: the group root's blob covers them.
    if (depth % g !== 0) return;
    const group = this.#group(depth / g);
    const blob = this.#slab.alloc(groupBlobSize(g, group.count));
    encodeGroupBlobInto(g, group.count, group.positions, group.depthOffsets, group.hashes, blob, 0);
    group.count = 0;
    this.#emit(source, depth, out, blob);
    if (depth > 0) this.#addEntry(depth, source, out);
  }

  /**
   * A completed subtree root at `depth` whose own records were emitted elsewhere (a partition
   * built on another thread): it only joins the group above it, like a group root would.
   */
  subtree(depth: number, source: Uint8Array, slot: number): void {
    if (this.#groupDepth > 0 && depth > 0) this.#addEntry(depth, source, slot);
  }

  /** Records a node at `depth` as an entry of the group root above it. */
  #addEntry(depth: number, source: Uint8Array, slot: number): void {
    const g = this.#groupDepth;
    const level = Math.floor((depth - 1) / g);
    const rootDepth = level * g;
    const offset = depth - rootDepth;
    const group = this.#group(level);
    const k = group.count++;
    group.positions[k] = readBits(source, 1, rootDepth, offset) << (g - offset);
    group.depthOffsets[k] = offset;
    this.#slots.writeWords(slot, group.hashes32, k << 3);
  }

  #group(level: number): GroupEntries {
    let group = this.#groups[level];
    if (group === undefined) {
      group = new GroupEntries(this.#groupDepth);
      this.#groups[level] = group;
    }
    return group;
  }

  #emit(source: Uint8Array, depth: number, slot: number, blob: Uint8Array): void {
    this.count++;
    const onRecord = this.#onRecord;
    if (onRecord !== undefined) {
      onRecord(this.#storeKey(source, depth), blob, this.#slots.bytes, slot << 5);
      return;
    }
    const path = new Uint8Array(pathKeySize(depth));
    writePathKey(source.subarray(1, 32), depth, path, 0);
    this.#onNode!({ path, hash: this.#slots.take(slot), blob });
  }

  /** key prefix ‖ path key of the first `depth` stem bits of `source` (bytes 1..31), in the slab. */
  #storeKey(source: Uint8Array, depth: number): Uint8Array {
    const prefix = this.#keyPrefix;
    const p = prefix.length;
    // The path key (geth's BitArray.KeyBytes): the path bytes, bits past `depth` zeroed, then
    // the bit count; the root's path key is empty.
    const pathBytes = (depth + 7) >>> 3;
    const key = this.#slab.alloc(p + (depth === 0 ? 0 : pathBytes + 1));
    for (let i = 0; i < p; i++) key[i] = prefix[i]!;
    if (depth === 0) return key;
    for (let i = 0; i < pathBytes; i++) key[p + i] = source[1 + i]!;
    const used = depth & 7;
    if (used !== 0) key[p + pathBytes - 1]! &= (0xff00 >>> used) & 0xff;
    key[p + pathBytes] = depth;
    return key;
  }
}

/** `count` (<= 8) bits of bytes[base..] starting at bit `start`, MSB-first, as an integer. */
function readBits(bytes: Uint8Array, base: number, start: number, count: number): number {
  const at = base + (start >>> 3);
  const word = (bytes[at]! << 8) | (bytes[at + 1] ?? 0);
  return (word >>> (16 - (start & 7) - count)) & ((1 << count) - 1);
}
