import { encodeGroupBlob, NODE_TYPE_INTERNAL, pathKeySize, writePathKey } from "@bintrie/codec";
import type { NodeWrite } from "../tree/node-set.js";
import type { HashSlots } from "./hash-slots.js";
import type { NodeOpVisitor } from "./node-op-log.js";

/** The entries collected so far for the one open group root at a given group level. */
class GroupEntries {
  count = 0;
  readonly positions: Uint16Array;
  readonly depthOffsets: Uint8Array;
  readonly hashes: Uint8Array;

  constructor(groupDepth: number) {
    const width = 1 << groupDepth;
    this.positions = new Uint16Array(width);
    this.depthOffsets = new Uint8Array(width);
    this.hashes = new Uint8Array(width * 32);
  }
}

/**
 * Turns completed nodes (in post-order, hashes known) into node records, in the formats of the
 * tree's commit: stems at their natural path; internal nodes as flat 65-byte blobs (g = 0) or
 * one group blob per group root (depth % g == 0). A group blob is written only when its group
 * root completes, i.e. after its whole subtree: each path is emitted exactly once.
 */
export class NodeEmitter implements NodeOpVisitor {
  readonly #groupDepth: number;
  readonly #slots: HashSlots;
  readonly #onNode: (node: NodeWrite) => void;
  /** One open group per group level: open group roots lie on a single root-to-leaf path. */
  readonly #groups: GroupEntries[] = [];
  count = 0;

  constructor(groupDepth: number, slots: HashSlots, onNode: (node: NodeWrite) => void) {
    this.#groupDepth = groupDepth;
    this.#slots = slots;
    this.#onNode = onNode;
  }

  stem(blob: Uint8Array, depth: number, slot: number): void {
    this.#emit(blob, depth, slot, blob);
    if (this.#groupDepth > 0 && depth > 0) this.#addEntry(depth, blob, slot);
  }

  internal(depth: number, left: number, right: number, out: number, source: Uint8Array): void {
    const g = this.#groupDepth;
    if (g === 0) {
      const blob = new Uint8Array(65);
      blob[0] = NODE_TYPE_INTERNAL;
      this.#slots.write(left, blob, 1);
      this.#slots.write(right, blob, 33);
      this.#emit(source, depth, out, blob);
      return;
    }
    // Internal nodes inside a group have no blob of their own: the group root's blob covers them.
    if (depth % g !== 0) return;
    const group = this.#group(depth / g);
    const blob = encodeGroupBlob(g, group.count, group.positions, group.depthOffsets, group.hashes);
    group.count = 0;
    this.#emit(source, depth, out, blob);
    if (depth > 0) this.#addEntry(depth, source, out);
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
    this.#slots.write(slot, group.hashes, k << 5);
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
    const path = new Uint8Array(pathKeySize(depth));
    writePathKey(source.subarray(1, 32), depth, path, 0);
    this.count++;
    this.#onNode({ path, hash: this.#slots.take(slot), blob });
  }
}

/** `count` (<= 8) bits of bytes[base..] starting at bit `start`, MSB-first, as an integer. */
function readBits(bytes: Uint8Array, base: number, start: number, count: number): number {
  const at = base + (start >>> 3);
  const word = (bytes[at]! << 8) | (bytes[at + 1] ?? 0);
  return (word >>> (16 - (start & 7) - count)) & ((1 << count) - 1);
}
