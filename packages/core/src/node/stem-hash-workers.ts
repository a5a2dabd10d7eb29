/// <reference types="node" />
import os from "node:os";
import { Worker } from "node:worker_threads";
import { BuilderError } from "../builder/builder-error.js";
import type { HashedStems, PackedStems, StemHashPool } from "../builder/stem-hash-pool.js";
import {
  DEFAULT_KEY_SCHEME,
  hashFunctionOfScheme,
  type KeyScheme,
} from "../embedding/key-scheme.js";
import { compileWasmSha256Module } from "../sha256/wasm-kernel.js";
import type { StemHashJob, StemHashWorkerInit } from "./stem-hash-worker.js";

export interface StemHashWorkersOptions {
  /** Worker threads. Default `os.availableParallelism() - 1` (the calling thread builds), at least 1. */
  readonly workers?: number;
  /** Selects the hash function. Default 'sha256-be' (go-ethereum). */
  readonly scheme?: KeyScheme;
}

/** A StemHashPool on worker threads; `close()` ends them. */
export interface StemHashWorkers extends StemHashPool {
  readonly workers: number;
  close(): Promise<void>;
}

interface Pending {
  readonly resolve: (hashed: HashedStems) => void;
  readonly reject: (error: unknown) => void;
}

/**
 * Opens worker threads that hash stem chunks for `buildTreeIntoStore(..., { stemHashPool })`:
 * the calling thread places stems, hashes internal nodes and writes batches while the workers
 * hash the next chunks. Chunks go round-robin; buffers are transferred, not copied. A worker
 * that fails or exits rejects its chunks with BuilderError('WORKER_FAILED') (the build stops
 * before its root record is written, so it can be run again).
 *
 * @example
 * ```ts
 * import { MemoryStore } from "@bintrie/core";
 * import { buildTreeIntoStore } from "@bintrie/core/builder";
 * import { openStemHashWorkers } from "@bintrie/core/node";
 *
 * const records = new Uint8Array(64).fill(1); // one entry: key ‖ value
 * const pool = await openStemHashWorkers({ workers: 1 });
 * try {
 *   const source = { records, order: Uint32Array.of(0) };
 *   await buildTreeIntoStore(new MemoryStore(), source, { stemHashPool: pool });
 * } finally {
 *   await pool.close();
 * }
 * ```
 */
export async function openStemHashWorkers(
  options: StemHashWorkersOptions = {},
): Promise<StemHashWorkers> {
  const count = options.workers ?? Math.max(1, os.availableParallelism() - 1);
  if (!Number.isInteger(count) || count < 1) {
    throw new BuilderError(
      "INVALID_OPTION",
      `workers must be a positive integer, got ${String(options.workers)}`,
    );
  }
  const scheme = options.scheme ?? DEFAULT_KEY_SCHEME;
  const sha256 = hashFunctionOfScheme(scheme) === "sha256";
  const wasmModule = sha256 ? await compileWasmSha256Module() : undefined;
  const init: StemHashWorkerInit = {
    scheme,
    sha256,
    ...(wasmModule === undefined ? {} : { wasmModule }),
  };
  const threads: StemHashThread[] = [];
  for (let i = 0; i < count; i++) threads.push(new StemHashThread(init));
  let next = 0;
  return {
    workers: count,
    hash(stems: PackedStems): Promise<HashedStems> {
      const thread = threads[next]!;
      next = (next + 1) % threads.length;
      return thread.hash(stems);
    },
    async close(): Promise<void> {
      await Promise.all(threads.map((t) => t.close()));
    },
  };
}

/** One worker and its chunks in flight. */
class StemHashThread {
  readonly #worker: Worker;
  readonly #pending = new Map<number, Pending>();
  #seq = 0;
  #failure: unknown;
  #closing = false;

  constructor(init: StemHashWorkerInit) {
    this.#worker = new Worker(new URL("./stem-hash-worker.js", import.meta.url));
    this.#worker.postMessage({ init });
    this.#worker.unref();
    this.#worker.on(
      "message",
      (reply: {
        seq: number;
        ok: boolean;
        stems?: PackedStems;
        hashes?: Uint8Array;
        error?: unknown;
      }) => {
        const pending = this.#pending.get(reply.seq);
        this.#pending.delete(reply.seq);
        if (this.#pending.size === 0) this.#worker.unref();
        if (pending === undefined) return;
        if (reply.ok) pending.resolve({ stems: reply.stems!, hashes: reply.hashes! });
        else pending.reject(failed(reply.error));
      },
    );
    this.#worker.on("error", (cause) => this.#fail(cause));
    this.#worker.on("exit", (code) => {
      if (!this.#closing) this.#fail(new Error(`the stem hash worker exited with code ${code}`));
    });
  }

  hash(stems: PackedStems): Promise<HashedStems> {
    if (this.#failure !== undefined) return Promise.reject(failed(this.#failure));
    return new Promise((resolve, reject) => {
      const seq = this.#seq++;
      this.#pending.set(seq, { resolve, reject });
      this.#worker.ref();
      const job: StemHashJob = { seq, stems };
      this.#worker.postMessage(job, [
        stems.bytes.buffer as ArrayBuffer,
        stems.offsets.buffer as ArrayBuffer,
      ]);
    });
  }

  async close(): Promise<void> {
    this.#closing = true;
    await this.#worker.terminate();
    this.#fail(new Error("the stem hash workers were closed"));
  }

  #fail(cause: unknown): void {
    this.#failure ??= cause;
    const pending = [...this.#pending.values()];
    this.#pending.clear();
    for (const p of pending) p.reject(failed(cause));
  }
}

function failed(cause: unknown): BuilderError {
  return new BuilderError("WORKER_FAILED", "a stem hash worker failed", { cause });
}
