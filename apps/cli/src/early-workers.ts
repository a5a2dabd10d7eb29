import { availableParallelism } from "node:os";
import { partitionDepth } from "@bintrie/core/builder";
import type { PartitionWorkers } from "@bintrie/core/node";
import { CANONICAL_LINE_BYTES } from "./canonical-line.js";

/** Below this many entries worker threads cost more (start-up) than they save. */
export const PARALLEL_MIN_ENTRIES = 50_000;

/**
 * The worker threads a build into an empty store starts for `threadsFlag` (`--threads`; default
 * the CPU count) with at most `entries` entries (undefined: not known yet): never more than
 * can have a partition to build (the partitions, the entries), at least 1. `--threads 1` (or
 * one CPU) means none: 0.
 */
export function workerCount(
  threadsFlag: number | undefined,
  groupDepth: number,
  entries?: number,
): number {
  const asked = threadsFlag ?? availableParallelism();
  if (asked <= 1) return 0;
  const usable = Math.min(
    asked,
    2 ** partitionDepth(groupDepth),
    entries ?? Number.POSITIVE_INFINITY,
  );
  return Math.max(1, usable);
}

/**
 * The partition workers of a build into an empty store: started by `prepare()` before the input
 * is read when `--threads` is given or the file is large enough to probably hold
 * PARALLEL_MIN_ENTRIES entries, else when the sorted entries turn out to be that many; never for
 * one thread. Their number is workerCount()'s. `close()` ends them, used or not.
 */
export class EarlyWorkers {
  readonly #threadsFlag: number | undefined;
  readonly #forced: boolean;
  readonly #inputBytes: number | undefined;
  #opening: Promise<PartitionWorkers> | undefined;

  constructor(threadsFlag: number | undefined, inputBytes: number | undefined) {
    this.#threadsFlag = threadsFlag;
    this.#forced = threadsFlag !== undefined;
    this.#inputBytes = inputBytes;
  }

  /**
   * Starts the workers for a tree of `groupDepth` now if the input will probably use them
   * (before it is read).
   */
  prepare(groupDepth: number): void {
    if (this.#opening !== undefined) return;
    // The most entries the file can hold: no entry's line is shorter than a canonical line.
    const most =
      this.#inputBytes === undefined
        ? undefined
        : Math.ceil(this.#inputBytes / CANONICAL_LINE_BYTES) + 1;
    const workers = workerCount(this.#threadsFlag, groupDepth, most);
    if (workers === 0) return;
    // A file this many canonical lines long probably holds PARALLEL_MIN_ENTRIES entries.
    if (this.#forced || (this.#inputBytes ?? 0) >= PARALLEL_MIN_ENTRIES * CANONICAL_LINE_BYTES)
      this.#open(workers);
  }

  /** The pool for `count` packed entries, or undefined when they are built on this thread. */
  async forEntries(count: number, groupDepth: number): Promise<PartitionWorkers | undefined> {
    const workers = workerCount(this.#threadsFlag, groupDepth, count);
    if (workers === 0 || (!this.#forced && count < PARALLEL_MIN_ENTRIES)) return undefined;
    return this.#opening ?? this.#open(workers);
  }

  async close(): Promise<void> {
    const opening = this.#opening;
    this.#opening = undefined;
    if (opening === undefined) return;
    const pool = await opening.catch(() => undefined);
    await pool?.close();
  }

  #open(workers: number): Promise<PartitionWorkers> {
    const opening = import("@bintrie/core/node").then((node) =>
      node.openPartitionWorkers({ workers }),
    );
    // Awaited by forEntries or close; a failure to start is not unhandled meanwhile.
    opening.catch(() => {});
    this.#opening = opening;
    return opening;
  }
}
