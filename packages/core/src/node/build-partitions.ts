import type { KeyScheme } from "../embedding/key-scheme.js";
import type { Hasher } from "../hash/hasher.js";
import { BinaryTree } from "../tree/binary-tree.js";
import { readPartitions, topBits } from "./partition-results.js";

/** One thread's share of a parallel root: the keys of partitions lo..hi-1 of k-bit prefixes. */
export interface PartitionJob {
  readonly keys: Uint8Array;
  readonly values: Uint8Array;
  readonly count: number;
  readonly k: number;
  readonly lo: number;
  readonly hi: number;
  /** Where the results go (shared memory when run in a worker): 2^k kinds, 2^k × 32 hashes. */
  readonly kinds: Uint8Array;
  readonly hashes: Uint8Array;
  readonly scheme: KeyScheme;
}

/** Inserts this job's keys into a tree of its own, hashes it and reads out its partitions. */
export function buildPartitions(job: PartitionJob, hasher: Hasher): void {
  const { keys, values, count, k, lo, hi } = job;
  const tree = new BinaryTree({ scheme: job.scheme, hasher });
  for (let i = 0; i < count; i++) {
    const at = i << 5;
    const p = topBits(keys, at, k);
    if (p >= lo && p < hi) tree.put(keys.subarray(at, at + 32), values.subarray(at, at + 32));
  }
  tree.hash();
  readPartitions(tree, k, lo, hi, job.kinds, job.hashes);
}
