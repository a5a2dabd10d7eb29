import { NODE_TYPE_STEM } from "@bintrie/codec";
import type { KeyScheme } from "../embedding/key-scheme.js";
import type { Hasher } from "../hash/hasher.js";
import type { PackedBatch } from "./packed-records.js";
import { PARTITION_EMPTY, PARTITION_STEM, PARTITION_SUBTREE } from "./partition-kind.js";
import { RecordBatcher } from "./record-batcher.js";
import { StreamingBuilder } from "./streaming-builder.js";

/** One partition to build: sorted, unique entries `records[64 start, 64 end)`. */
export interface PartitionJob {
  readonly records: Uint8Array;
  readonly start: number;
  readonly end: number;
  /** Partition depth: a multiple of the group depth (any depth for flat nodes), 1..8. */
  readonly depth: number;
  readonly groupDepth: number;
  readonly scheme: KeyScheme;
  readonly keyPrefix: Uint8Array;
  readonly maxBatchBytes: number;
}

/** A built partition: its kind and hash, and its records at depth ≥ the partition depth. */
export interface PartitionOutput {
  readonly kind: number;
  /** The subtree root's or the lone stem's hash (32 zero bytes when empty). */
  readonly hash: Uint8Array;
  /** The lone stem's blob (PARTITION_STEM), else empty: its record is the top's to write. */
  readonly stem: Uint8Array;
  readonly stems: number;
  /** Records at depth ≥ HELD_DEPTH (8), in batches of at most maxBatchBytes where possible. */
  readonly batches: PackedBatch[];
  /** Records between the partition depth and HELD_DEPTH: they join the final batch. */
  readonly held: PackedBatch;
}

/**
 * Builds one partition of a tree on its own (any thread): the entries of one depth-k prefix,
 * built as a tree of their own by the streaming builder. Below depth k that tree is the whole
 * tree's subtree record for record (no node there depends on keys outside the prefix, and with k
 * a multiple of the group depth no group crosses depth k); above it, only chain nodes that the
 * whole tree does not have, so those records are dropped and the depth-k node's hash is kept.
 * A lone stem is returned unwritten: its depth is decided by its neighbours in other partitions.
 */
export function buildPartition(job: PartitionJob, hasher: Hasher): PartitionOutput {
  const { records, start, end, depth: k, keyPrefix, maxBatchBytes } = job;
  const p = keyPrefix.length;
  const hash = new Uint8Array(32);
  let stem: Uint8Array = new Uint8Array(0);
  // About 110 bytes and 1.3 records per entry of random keys: sized so the buffers rarely grow.
  const entries = end - start;
  const batcher = new RecordBatcher(
    maxBatchBytes,
    p,
    Math.min(maxBatchBytes, entries * 112 + 4096),
    Math.ceil(entries * 1.4) + 64,
  );
  const builder = new StreamingBuilder({
    groupDepth: job.groupDepth,
    scheme: job.scheme,
    hasher,
    keyPrefix,
    onRecord: (key, blob, hashes, hashAt) => {
      const depth = key.length > p ? key[key.length - 1]! : 0;
      if (depth < k) {
        // A lone stem comes out as the root of this partition's own tree (depth 0).
        if (depth === 0 && blob[0] === NODE_TYPE_STEM) stem = blob.slice();
        return;
      }
      if (depth === k) for (let i = 0; i < 32; i++) hash[i] = hashes[hashAt + i]!;
      batcher.add(key, blob);
    },
  });
  addEntries(builder, records, start, end);
  const root = builder.finish();
  const batches = batcher.full;
  if (batcher.openCount > 0) batches.push(batcher.takeOpen());
  const stems = builder.stemCount;
  let kind = PARTITION_SUBTREE;
  if (stems === 0) kind = PARTITION_EMPTY;
  else if (stems === 1) {
    kind = PARTITION_STEM;
    hash.set(root);
  }
  return { kind, hash, stem, stems, batches, held: batcher.takeHeld() };
}

/**
 * The partition's entries into its builder. A loop of its own: optimised as a function, not by
 * on-stack replacement inside buildPartition, whose code after the loop would then lack type
 * feedback and deoptimise at the end of every partition.
 */
function addEntries(builder: StreamingBuilder, records: Uint8Array, start: number, end: number) {
  for (let i = start; i < end; i++) builder.addEntryAt(records, i << 6);
}

/** The partition depth for a group depth: the first multiple of it at or past depth 5. */
export function partitionDepth(groupDepth: number): number {
  if (groupDepth === 0) return 5;
  return groupDepth * Math.ceil(5 / groupDepth);
}
