import type { KeyScheme } from "../embedding/key-scheme.js";
import type { Hasher } from "../hash/hasher.js";
import { Arena } from "../tree/arena.js";
import { BulkBuilder } from "../tree/bulk-builder.js";
import { StaleHasher } from "../tree/stale-hasher.js";
import { TreeWalker } from "../tree/tree-walker.js";
import { applyWriteLog } from "../tree/write-flusher.js";
import { WriteLog } from "../tree/write-log.js";
import { readPartitions } from "./partition-results.js";

/** One thread's share of a parallel root: partitions lo..hi-1 of the k-bit prefixes. */
export interface PartitionJob {
  /** Key ‖ value (64 bytes) of every write to these partitions, in call order per partition. */
  readonly entries: Uint8Array;
  readonly k: number;
  readonly lo: number;
  readonly hi: number;
  /** Where the results go (shared memory when run in a worker): 2^k kinds, 2^k × 32 hashes. */
  readonly kinds: Uint8Array;
  readonly hashes: Uint8Array;
  readonly scheme: KeyScheme;
}

/**
 * Builds this job's entries into an arena of its own, as a tree's first flush does (the bulk
 * builder, bottom-up in stem order, straight from the entries: no copy into a write log),
 * hashes it and reads out its partitions.
 */
export function buildPartitions(job: PartitionJob, hasher: Hasher): void {
  const arena = new Arena();
  const log = new WriteLog();
  log.adopt(job.entries);
  const bulk = new BulkBuilder(arena);
  applyWriteLog(log, new TreeWalker(arena), arena, bulk);
  new StaleHasher(arena, hasher, bulk).hashStale();
  readPartitions(arena, job.k, job.lo, job.hi, job.kinds, job.hashes);
}
