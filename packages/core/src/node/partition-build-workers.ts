/// <reference types="node" />
import os from "node:os";
import { Worker } from "node:worker_threads";
import { BuilderError } from "../builder/builder-error.js";
import type { PartitionJob, PartitionOutput } from "../builder/partition-build.js";
import type { PartitionPool } from "../builder/partition-pool.js";
import { compileWasmSha256Module } from "../sha256/wasm-kernel.js";
import type { PartitionWorkerInit, PartitionWorkerJob } from "./partition-build-worker.js";

export interface PartitionWorkersOptions {
  /** Worker threads. Default `os.availableParallelism()` (the calling thread mostly waits). */
  readonly workers?: number;
}

/** A PartitionPool on worker threads; `close()` ends them. */
export interface PartitionWorkers extends PartitionPool {
  readonly workers: number;
  close(): Promise<void>;
}

interface Pending {
  readonly resolve: (out: PartitionOutput) => void;
  readonly reject: (error: unknown) => void;
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
  readonly #worker: Worker;
  readonly #pending = new Map<number, Pending>();
  #seq = 0;
  #failure: unknown;
  #closing = false;

  constructor(init: PartitionWorkerInit) {
    this.#worker = new Worker(new URL("./partition-build-worker.js", import.meta.url));
    this.#worker.postMessage({ init });
    this.#worker.unref();
    this.#worker.on(
      "message",
      (reply: { seq: number; ok: boolean; out?: PartitionOutput; error?: unknown }) => {
        const pending = this.#pending.get(reply.seq);
        this.#pending.delete(reply.seq);
        if (this.#pending.size === 0) this.#worker.unref();
        if (pending === undefined) return;
        if (reply.ok) pending.resolve(reply.out!);
        else pending.reject(failed(reply.error));
      },
    );
    this.#worker.on("error", (cause) => this.#fail(cause));
    this.#worker.on("exit", (code) => {
      if (!this.#closing) this.#fail(new Error(`the partition worker exited with code ${code}`));
    });
  }

  /** Jobs sent and not answered. */
  get load(): number {
    return this.#pending.size;
  }

  build(job: PartitionJob): Promise<PartitionOutput> {
    if (this.#failure !== undefined) return Promise.reject(failed(this.#failure));
    return new Promise((resolve, reject) => {
      const seq = this.#seq++;
      this.#pending.set(seq, { resolve, reject });
      this.#worker.ref();
      // Shared records go as they are; a plain buffer only as the job's own range.
      const shared =
        typeof SharedArrayBuffer !== "undefined" && job.records.buffer instanceof SharedArrayBuffer;
      const message: PartitionWorkerJob = {
        seq,
        job: shared
          ? job
          : {
              ...job,
              records: job.records.slice(job.start << 6, job.end << 6),
              start: 0,
              end: job.end - job.start,
            },
      };
      this.#worker.postMessage(message);
    });
  }

  async close(): Promise<void> {
    this.#closing = true;
    await this.#worker.terminate();
    this.#fail(new Error("the partition workers were closed"));
  }

  #fail(cause: unknown): void {
    this.#failure ??= cause;
    const pending = [...this.#pending.values()];
    this.#pending.clear();
    for (const p of pending) p.reject(failed(cause));
  }
}

function failed(cause: unknown): BuilderError {
  return new BuilderError("WORKER_FAILED", "a partition worker failed", { cause });
}
