/// <reference types="node" />
import { TreeError } from "../tree/tree-error.js";
import { type JobReply, JobThread } from "./job-thread.js";
import type { PartitionWork, UnitsDone } from "./partition-work.js";
import { SpareSharedBytes } from "./spare-shared-bytes.js";

/** The first message of a parallelRoot worker. */
export interface PartitionWorkerInit {
  /** The SHA-256 kernel's module, compiled once by the calling thread. */
  readonly wasmModule?: object;
}

/** A worker's share of one parallelRoot call: the shared work and the unit it starts with. */
export interface PartitionWorkerJob {
  readonly work: PartitionWork;
  readonly first: number;
}

interface PartitionReply extends JobReply {
  readonly done?: UnitsDone;
}

/**
 * The worker threads parallelRoot keeps between calls (warm JIT, instantiated kernel), each
 * lent to one call at a time: concurrent calls get workers of their own. A worker whose job
 * failed, or that failed or exited, is terminated and never lent again; idle workers beyond
 * `maxIdle` are terminated. Workers keep the process alive only while they work. The pool also
 * keeps the last call's entry layout (`entries`) for the next call; close() frees it.
 */
export class PartitionWorkerPool {
  readonly #script: URL;
  readonly #maxIdle: number;
  readonly #idle: JobThread<PartitionReply, UnitsDone>[] = [];
  readonly #all = new Set<JobThread<PartitionReply, UnitsDone>>();
  /** Workers dropped and not known to have ended yet. */
  readonly #ending = new Set<Promise<void>>();
  /** The shared buffer a call lays its entries out in, kept between calls. */
  readonly entries = new SpareSharedBytes();

  /** `script`: the worker's module (a URL literal in the caller, so the build keeps it an entry). */
  constructor(script: URL, maxIdle: number) {
    this.#script = script;
    this.#maxIdle = maxIdle;
  }

  /** Workers started and not yet terminated (idle or working). */
  get size(): number {
    return this.#all.size;
  }

  /**
   * Runs job i on worker i (idle workers first, new ones given `init` for the rest); each
   * promise settles with that worker's account or a TreeError('WORKER_FAILED').
   */
  start(init: PartitionWorkerInit, jobs: readonly PartitionWorkerJob[]): Promise<UnitsDone>[] {
    return jobs.map((job) => {
      let thread: JobThread<PartitionReply, UnitsDone>;
      try {
        thread = this.#take(init);
      } catch (cause) {
        return Promise.reject(failed(cause));
      }
      return thread
        .send((seq) => ({ seq, ...job }))
        .then(
          (done) => {
            this.#release(thread);
            return done;
          },
          (error: unknown) => {
            this.#drop(thread);
            throw error;
          },
        );
    });
  }

  /** Settles once every worker this pool dropped (failed or surplus) has ended. */
  async drained(): Promise<void> {
    await Promise.all(this.#ending);
  }

  /** Terminates every worker (jobs in flight are rejected). */
  async close(): Promise<void> {
    const all = [...this.#all];
    this.#all.clear();
    this.#idle.length = 0;
    this.entries.clear();
    await Promise.all(all.map((t) => t.close()));
  }

  #take(init: PartitionWorkerInit): JobThread<PartitionReply, UnitsDone> {
    for (let t = this.#idle.pop(); t !== undefined; t = this.#idle.pop()) {
      if (!t.failed) return t;
      this.#drop(t);
    }
    const thread = new JobThread(
      this.#script,
      init,
      "parallelRoot worker",
      (reply: PartitionReply) => reply.done!,
      failed,
    );
    this.#all.add(thread);
    return thread;
  }

  #release(thread: JobThread<PartitionReply, UnitsDone>): void {
    if (!this.#all.has(thread)) return;
    if (thread.failed || this.#idle.length >= this.#maxIdle) this.#drop(thread);
    else this.#idle.push(thread);
  }

  #drop(thread: JobThread<PartitionReply, UnitsDone>): void {
    if (!this.#all.delete(thread)) return;
    const at = this.#idle.indexOf(thread);
    if (at >= 0) this.#idle.splice(at, 1);
    // A worker that failed may be in any state: end it (its pending jobs are already settled).
    void thread.close();
    const ended = thread.ended.then(() => {
      this.#ending.delete(ended);
    });
    this.#ending.add(ended);
  }
}

function failed(cause: unknown): TreeError {
  return new TreeError("WORKER_FAILED", "parallelRoot: a worker failed", { cause });
}
