/// <reference types="node" />
import os from "node:os";
import { assertKnownOptions } from "@bintrie/codec";
import { BuilderError } from "../builder/builder-error.js";
import type { PartitionJob, PartitionOutput } from "../builder/partition-build.js";
import type { PartitionPool } from "../builder/partition-pool.js";
import { optionKeys } from "../options/known-options.js";
import { compileWasmSha256Module } from "../sha256/wasm-kernel.js";
import { type JobReply, JobThread } from "./job-thread.js";
import type { PartitionWorkerInit, PartitionWorkerJob } from "./partition-build-worker.js";

export interface PartitionWorkersOptions {
  /** Worker threads. Default `os.availableParallelism()` (the calling thread mostly waits). */
  readonly workers?: number;
}

const PARTITION_WORKERS_OPTION_KEYS = optionKeys<PartitionWorkersOptions>()(["workers"]);

/** A PartitionPool on worker threads; `close()` ends them. */
export interface PartitionWorkers extends PartitionPool {
  readonly workers: number;
  close(): Promise<void>;
}

interface PartitionReply extends JobReply {
  readonly out?: PartitionOutput;
}

/**
 * Opens worker threads that build whole partitions for
 * `buildTreeIntoStore(store, packedEntries, { partitionPool })`: the calling thread only writes
 * the batches they return and merges the top of the tree. A job goes to the worker with the
 * fewest jobs; records in a SharedArrayBuffer are shared, others are copied per job; batches come
 * back transferred. A worker that fails or exits rejects its jobs with
 * BuilderError('WORKER_FAILED') (the build stops before its root record is written).
 *
 * @example
 * ```ts
 * import { MemoryStore } from "@bintrie/core";
 * import { buildTreeIntoStore } from "@bintrie/core/builder";
 * import { openPartitionWorkers } from "@bintrie/core/node";
 *
 * const records = new Uint8Array(64).fill(1); // one entry: key ‖ value
 * const pool = await openPartitionWorkers({ workers: 2 });
 * try {
 *   const source = { records, order: Uint32Array.of(0) };
 *   await buildTreeIntoStore(new MemoryStore(), source, { partitionPool: pool });
 * } finally {
 *   await pool.close();
 * }
 * ```
 */
export async function openPartitionWorkers(
  options: PartitionWorkersOptions = {},
): Promise<PartitionWorkers> {
  assertKnownOptions(options, PARTITION_WORKERS_OPTION_KEYS, "openPartitionWorkers", BuilderError);
  const count = options.workers ?? os.availableParallelism();
  if (!Number.isInteger(count) || count < 1) {
    throw new BuilderError(
      "INVALID_OPTION",
      `workers must be a positive integer, got ${String(options.workers)}`,
    );
  }
  const wasmModule = await compileWasmSha256Module();
  const init: PartitionWorkerInit = wasmModule === undefined ? {} : { wasmModule };
  const threads: PartitionThread[] = [];
  for (let i = 0; i < count; i++) threads.push(new PartitionThread(init));
  return {
    workers: count,
    build(job: PartitionJob): Promise<PartitionOutput> {
      let best = threads[0]!;
      for (const t of threads) if (t.load < best.load) best = t;
      return best.build(job);
    },
    async close(): Promise<void> {
      await Promise.all(threads.map((t) => t.close()));
    },
  };
}

/** One worker and its jobs in flight. */
class PartitionThread {
  readonly #thread: JobThread<PartitionReply, PartitionOutput>;

  constructor(init: PartitionWorkerInit) {
    this.#thread = new JobThread(
      new URL("./partition-build-worker.js", import.meta.url),
      init,
      "partition worker",
      (reply: PartitionReply) => reply.out!,
      failed,
    );
  }

  /** Jobs sent and not answered. */
  get load(): number {
    return this.#thread.load;
  }

  build(job: PartitionJob): Promise<PartitionOutput> {
    // Shared records go as they are; a plain buffer only as the job's own range.
    const shared =
      typeof SharedArrayBuffer !== "undefined" && job.records.buffer instanceof SharedArrayBuffer;
    return this.#thread.send(
      (seq): PartitionWorkerJob => ({
        seq,
        job: shared
          ? job
          : {
              ...job,
              records: job.records.slice(job.start << 6, job.end << 6),
              start: 0,
              end: job.end - job.start,
            },
      }),
    );
  }

  close(): Promise<void> {
    return this.#thread.close();
  }
}

function failed(cause: unknown): BuilderError {
  return new BuilderError("WORKER_FAILED", "a partition worker failed", { cause });
}
