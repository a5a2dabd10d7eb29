import type { Hasher } from "../hash/hasher.js";
import { ByteSlab } from "./byte-slab.js";
import { EMPTY_SLOT, HashSlots } from "./hash-slots.js";
import { NodeEmitter, type RecordCallback } from "./node-emitter.js";
import { PARTITION_STEM, PARTITION_SUBTREE } from "./partition-kind.js";

/** The built partitions of one tree, by partition index (2^depth of them). */
export interface PartitionTops {
  readonly depth: number;
  /** PARTITION_* per partition. */
  readonly kinds: Uint8Array;
  /** 32 bytes per partition: the subtree root's or the lone stem's hash. */
  readonly hashes: Uint8Array;
  /** The lone stem's blob per PARTITION_STEM partition. */
  readonly stems: ReadonlyArray<Uint8Array | undefined>;
}

/**
 * Emits the nodes above the partitions (depth < k) and the lone stems, in the tree's commit
 * order (post-order, left first), and returns the root hash (32 zero bytes for no stems). A
 * range of partitions holding a single stem and nothing else is that stem, at the range's depth;
 * any other non-empty range is an internal node over its two halves, down to depth k, where a
 * partition's subtree root only joins its group (its records were written by its builder).
 */
export function emitTopRecords(
  tops: PartitionTops,
  groupDepth: number,
  keyPrefix: Uint8Array,
  hasher: Hasher,
  onRecord: RecordCallback,
): Uint8Array {
  const { depth: k, kinds, hashes, stems } = tops;
  const width = 1 << k;
  // Running counts: stems and subtrees in partitions [0, i).
  const stemsBefore = new Uint32Array(width + 1);
  const subtreesBefore = new Uint32Array(width + 1);
  for (let i = 0; i < width; i++) {
    stemsBefore[i + 1] = stemsBefore[i]! + (kinds[i] === PARTITION_STEM ? 1 : 0);
    subtreesBefore[i + 1] = subtreesBefore[i]! + (kinds[i] === PARTITION_SUBTREE ? 1 : 0);
  }
  const slots = new HashSlots();
  slots.ensure(2 * width + 2);
  const emitter = new NodeEmitter(groupDepth, slots, { onRecord, keyPrefix }, new ByteSlab());
  const message = new Uint8Array(64);
  let nextSlot = 0;
  // A stem-blob-shaped path source for partition i: bytes 1.. hold i's k bits.
  const source = (i: number): Uint8Array => {
    const bytes = new Uint8Array(64);
    const bits = i << (16 - k);
    bytes[1] = bits >>> 8;
    bytes[2] = bits & 0xff;
    return bytes;
  };
  const node = (depth: number, lo: number, hi: number): number => {
    const stemCount = stemsBefore[hi]! - stemsBefore[lo]!;
    const subtreeCount = subtreesBefore[hi]! - subtreesBefore[lo]!;
    if (stemCount + subtreeCount === 0) return EMPTY_SLOT;
    if (subtreeCount === 0 && stemCount === 1) {
      let i = lo;
      while (kinds[i] !== PARTITION_STEM) i++;
      const slot = nextSlot++;
      slots.read(slot, hashes, i << 5);
      emitter.stem(stems[i]!, depth, slot);
      return slot;
    }
    if (depth === k) {
      const slot = nextSlot++;
      slots.read(slot, hashes, lo << 5);
      emitter.subtree(depth, source(lo), slot);
      return slot;
    }
    const mid = (lo + hi) >>> 1;
    const left = node(depth + 1, lo, mid);
    const right = node(depth + 1, mid, hi);
    const out = nextSlot++;
    slots.write(left, message, 0);
    slots.write(right, message, 32);
    hasher.hash64Batch(message, 0, 1, message, 0);
    slots.read(out, message, 0);
    emitter.internal(depth, left, right, out, source(lo));
    return out;
  };
  const root = node(0, 0, width);
  return root === EMPTY_SLOT ? new Uint8Array(32) : slots.take(root);
}
