/** What one thread of a parallelRoot call did (times in ms from the call's start). */
export interface ParallelRootThreadTimings {
  /** Units (runs of consecutive partitions) and entries it built. */
  readonly units: number;
  readonly entries: number;
  /** When it was ready to build, began its first unit, and finished its last. */
  readonly startAt: number;
  readonly firstAt: number;
  readonly endAt: number;
  /** Time spent building units, and blocked waiting for their entries to be laid out. */
  readonly busyMs: number;
  readonly waitMs: number;
}

/**
 * Where the time of one parallelRoot call went (ms from its start), filled in when passed as
 * `options.timings` (diagnostics: `bench/profile-parallel.mjs` prints them). Only the calling
 * thread works before `firstReady` and after `joined`: that is the serial part.
 */
export interface ParallelRootTimings {
  /** The keys counted per partition (the first pass over the keys). */
  counted: number;
  /** The entries of each thread's first unit laid out: the workers can start. */
  firstReady: number;
  /** Every entry laid out: the calling thread starts building too. */
  allReady: number;
  /** The calling thread built its last unit. */
  built: number;
  /** The last worker answered. */
  joined: number;
  /** The root merged: the whole call. */
  total: number;
  /** The calling thread first, then each worker. */
  threads: ParallelRootThreadTimings[];
}
