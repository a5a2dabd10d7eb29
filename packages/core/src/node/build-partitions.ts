import type { KeyScheme } from "../embedding/key-scheme.js";
import type { Hasher } from "../hash/hasher.js";
import { Arena } from "../tree/arena.js";
import { BulkBuilder } from "../tree/bulk-builder.js";
import { StaleHasher } from "../tree/stale-hasher.js";
import { TreeWalker } from "../tree/tree-walker.js";
import { applyWriteLog } from "../tree/write-flusher.js";
import { WriteLog } from "../tree/write-log.js";
import { scatterEntries } from "./partition-entries.js";
import { readPartitions } from "./partition-results.js";

/** One thread's share of a parallel root: partitions lo..hi-1 of the k-bit prefixes. */
export interface PartitionJob {
  /** All `count` keys and values, 32 bytes each (shared memory when run in a worker). */
  readonly keys: Uint8Array;
  readonly values: Uint8Array;
  readonly count: number;
  /** starts[p]: how many keys have a prefix below p (prefixStarts of the keys' histogram). */
  readonly starts: Uint32Array;
  readonly k: number;
  readonly lo: number;
  readonly hi: number;
  /** Where the results go (shared memory when run in a worker): 2^k kinds, 2^k × 32 hashes. */
  readonly kinds: Uint8Array;
  readonly hashes: Uint8Array;
  readonly scheme: KeyScheme;
}

/** Partitions are built and hashed in groups of about this many entries (see buildPartitions). */
const GROUP_ENTRIES = 1 << 14;

/**
 * Lays this job's keys and values out as 64-byte entries grouped by partition (one counting-sort
 * pass on the top k bits, in this thread's own memory), then, a group of consecutive partitions
 * at a time, builds them into an arena of their own as a tree's first flush does (the bulk
 * builder, bottom-up in stem order, reading the entries in place), hashes it while its nodes are
 * still in cache, and reads out its partitions. `groupEntries` (tests) overrides the group size.
 */
export function buildPartitions(
  job: PartitionJob,
  hasher: Hasher,
  groupEntries: number = GROUP_ENTRIES,
): void {
  const { starts, k, lo, hi } = job;
  const base = starts[lo]!;
  const entries = new Uint8Array((starts[hi]! - base) * 64);
  const cursors = new Uint32Array(hi);
  for (let p = lo; p < hi; p++) cursors[p] = starts[p]! - base;
  scatterEntries(job.keys, job.values, job.count, k, lo, hi, cursors, entries);
  const log = new WriteLog();
  for (let from = lo; from < hi; ) {
    let to = from + 1;
    while (to < hi && starts[to + 1]! - starts[from]! <= groupEntries) to++;
    const arena = new Arena();
    log.adopt(entries.subarray((starts[from]! - base) << 6, (starts[to]! - base) << 6));
    const bulk = new BulkBuilder(arena);
    const stale = new StaleHasher(arena, hasher, bulk);
    // Hashed as the build places the nodes (see BulkBuilder.hashNext); the hash after finds nothing stale.
    bulk.windows = stale;
    bulk.hashNext = true;
    applyWriteLog(log, new TreeWalker(arena), arena, bulk);
    stale.hashStale();
    readPartitions(arena, k, from, to, job.kinds, job.hashes);
    from = to;
  }
}
