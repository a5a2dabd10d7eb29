/// <reference types="node" />
import os from "node:os";
import { assertKnownOptions } from "@bintrie/codec";
import { BuilderError } from "../builder/builder-error.js";
import type { HashedStems, PackedStems, StemHashPool } from "../builder/stem-hash-pool.js";
import {
  DEFAULT_KEY_SCHEME,
  hashFunctionOfScheme,
  type KeyScheme,
} from "../embedding/key-scheme.js";
import { optionKeys } from "../options/known-options.js";
import { compileWasmSha256Module } from "../sha256/wasm-kernel.js";
import { type JobReply, JobThread } from "./job-thread.js";
import type { StemHashJob, StemHashWorkerInit } from "./stem-hash-worker.js";

export interface StemHashWorkersOptions {
  /** Worker threads. Default `os.availableParallelism() - 1` (the calling thread builds), at least 1. */
  readonly workers?: number;
  /** Selects the hash function. Default 'sha256-be' (go-ethereum). */
  readonly scheme?: KeyScheme;
}

const STEM_HASH_WORKERS_OPTION_KEYS = optionKeys<StemHashWorkersOptions>()(["workers", "scheme"]);

/** A StemHashPool on worker threads; `close()` ends them. */
export interface StemHashWorkers extends StemHashPool {
  readonly workers: number;
  close(): Promise<void>;
}

interface StemHashReply extends JobReply {
  readonly stems?: PackedStems;
  readonly hashes?: Uint8Array;
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
  assertKnownOptions(options, STEM_HASH_WORKERS_OPTION_KEYS, "openStemHashWorkers", BuilderError);
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
    hashFunction: hashFunctionOfScheme(scheme),
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
  readonly #thread: JobThread<StemHashReply, HashedStems>;

  constructor(init: StemHashWorkerInit) {
    this.#thread = new JobThread(
      new URL("./stem-hash-worker.js", import.meta.url),
      init,
      "stem hash worker",
      (reply: StemHashReply) => ({ stems: reply.stems!, hashes: reply.hashes! }),
      failed,
    );
  }

  hash(stems: PackedStems): Promise<HashedStems> {
    return this.#thread.send(
      (seq): StemHashJob => ({ seq, stems }),
      [stems.bytes.buffer as ArrayBuffer, stems.offsets.buffer as ArrayBuffer],
    );
  }

  close(): Promise<void> {
    return this.#thread.close();
  }
}

function failed(cause: unknown): BuilderError {
  return new BuilderError("WORKER_FAILED", "a stem hash worker failed", { cause });
}
