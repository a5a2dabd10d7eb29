/// <reference types="node" />
import { Worker } from "node:worker_threads";

/** What a job worker posts back: the job's sequence number, then its result or its error. */
export interface JobReply {
  readonly seq: number;
  readonly ok: boolean;
  readonly error?: unknown;
}

interface Pending<Out> {
  readonly resolve: (out: Out) => void;
  readonly reject: (error: unknown) => void;
}

/**
 * One worker thread and the jobs sent to it: each job gets a sequence number and a promise the
 * worker's reply settles. The worker keeps the process alive only while jobs are in flight. An
 * error or an exit of the worker rejects every job in flight and every later one with
 * `failed(cause)`.
 */
export class JobThread<Reply extends JobReply, Out> {
  readonly #worker: Worker;
  readonly #what: string;
  readonly #failed: (cause: unknown) => Error;
  readonly #pending = new Map<number, Pending<Out>>();
  #seq = 0;
  #failure: unknown;
  #closing = false;
  /** Settles once the worker thread has ended (exited, crashed or been terminated). */
  readonly ended: Promise<void>;

  /**
   * `script`: the worker's module (a URL literal in the caller, so the build keeps it an entry);
   * `init`: its first message; `what`: the worker's name in messages; `result`: a reply's output.
   */
  constructor(
    script: URL,
    init: unknown,
    what: string,
    result: (reply: Reply) => Out,
    failed: (cause: unknown) => Error,
  ) {
    this.#what = what;
    this.#failed = failed;
    this.#worker = new Worker(script);
    this.ended = new Promise((resolve) => this.#worker.once("exit", () => resolve()));
    this.#worker.postMessage({ init });
    this.#worker.unref();
    this.#worker.on("message", (reply: Reply) => {
      const pending = this.#pending.get(reply.seq);
      this.#pending.delete(reply.seq);
      if (this.#pending.size === 0) this.#worker.unref();
      if (pending === undefined) return;
      if (reply.ok) pending.resolve(result(reply));
      else pending.reject(failed(reply.error));
    });
    this.#worker.on("error", (cause) => this.#fail(cause));
    this.#worker.on("exit", (code) => {
      if (!this.#closing) this.#fail(new Error(`the ${what} exited with code ${code}`));
    });
  }

  /** Jobs sent and not answered. */
  get load(): number {
    return this.#pending.size;
  }

  /** True once the worker failed, exited or was closed (every later job is rejected). */
  get failed(): boolean {
    return this.#failure !== undefined;
  }

  /** Posts the job `message(seq)` (with `transfer`) and resolves with the worker's output. */
  send(message: (seq: number) => unknown, transfer: ArrayBuffer[] = []): Promise<Out> {
    if (this.#failure !== undefined) return Promise.reject(this.#failed(this.#failure));
    return new Promise((resolve, reject) => {
      const seq = this.#seq++;
      this.#pending.set(seq, { resolve, reject });
      this.#worker.ref();
      this.#worker.postMessage(message(seq), transfer);
    });
  }

  async close(): Promise<void> {
    this.#closing = true;
    await this.#worker.terminate();
    this.#fail(new Error(`the ${this.#what}s were closed`));
  }

  #fail(cause: unknown): void {
    this.#failure ??= cause;
    const pending = [...this.#pending.values()];
    this.#pending.clear();
    for (const p of pending) p.reject(this.#failed(cause));
  }
}
