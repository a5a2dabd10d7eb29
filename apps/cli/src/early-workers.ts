import { availableParallelism } from "node:os";
import type { PartitionWorkers } from "@bintrie/core/node";
import { CANONICAL_LINE_BYTES } from "./canonical-line.js";

/** Below this many entries worker threads cost more (start-up) than they save. */
export const PARALLEL_MIN_ENTRIES = 50_000;

/**
 * The partition workers of a build into an empty store: started by `prepare()` before the input
 * is read when `--threads` is given or the file is large enough to probably hold
 * PARALLEL_MIN_ENTRIES entries, else when the sorted entries turn out to be that many; never for
 * one thread. `close()` ends them, used or not.
 */
export class EarlyWorkers {
  readonly #threads: number;
  readonly #forced: boolean;
  readonly #inputBytes: number;
  #opening: Promise<PartitionWorkers> | undefined;

  constructor(threadsFlag: number | undefined, inputBytes: number | undefined) {
    this.#threads = threadsFlag ?? availableParallelism();
    this.#forced = threadsFlag !== undefined;
    this.#inputBytes = inputBytes ?? 0;
  }

  /** Starts the workers now if the input will probably use them (before it is read). */
  prepare(): void {
    if (this.#opening !== undefined || this.#threads <= 1) return;
    // A file this many canonical lines long probably holds PARALLEL_MIN_ENTRIES entries.
    if (this.#forced || this.#inputBytes >= PARALLEL_MIN_ENTRIES * CANONICAL_LINE_BYTES)
      this.#open();
  }

  /** The pool for `count` packed entries, or undefined when they are built on this thread. */
  async forEntries(count: number): Promise<PartitionWorkers | undefined> {
    if (this.#threads <= 1 || (!this.#forced && count < PARALLEL_MIN_ENTRIES)) return undefined;
    return this.#opening ?? this.#open();
  }

  async close(): Promise<void> {
    const opening = this.#opening;
    this.#opening = undefined;
    if (opening === undefined) return;
    const pool = await opening.catch(() => undefined);
    await pool?.close();
  }

  #open(): Promise<PartitionWorkers> {
    const opening = import("@bintrie/core/node").then((node) =>
      node.openPartitionWorkers({ workers: this.#threads }),
    );
    // Awaited by forEntries or close; a failure to start is not unhandled meanwhile.
    opening.catch(() => {});
    this.#opening = opening;
    return opening;
  }
}
