import type { PartitionJob, PartitionOutput } from "./partition-build.js";

/**
 * Builds partitions somewhere else (e.g. `openPartitionWorkers()` from `@bintrie/core/node`,
 * worker threads): the calling thread only sorts, writes batches and merges the top. Jobs may
 * run concurrently; each promise resolves with its own partition. `build` may share or take the
 * job's records (a SharedArrayBuffer view is shared, anything else may be copied).
 */
export interface PartitionPool {
  build(job: PartitionJob): Promise<PartitionOutput>;
  /** Jobs it runs at once (its worker threads): the build keeps twice as many in flight. */
  readonly workers?: number;
}
