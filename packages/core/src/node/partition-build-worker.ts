/// <reference types="node" />
// Worker side of openPartitionWorkers(): builds partitions (buildPartition) and sends each back
// with its record batches (buffers transferred, nothing copied on the way back).
import { parentPort } from "node:worker_threads";
import { buildPartition, type PartitionJob } from "../builder/partition-build.js";
import { hashFunctionOfScheme, type KeyScheme } from "../embedding/key-scheme.js";
import { getHasher } from "../hash/get-hasher.js";
import type { Hasher } from "../hash/hasher.js";
import { createSha256Hasher } from "../hash/sha256-hasher.js";
import { createWasmSha256Kernel } from "../sha256/wasm-kernel.js";

export interface PartitionWorkerInit {
  /** The SHA-256 kernel's module, compiled once by the opening thread. */
  readonly wasmModule?: object;
}

export interface PartitionWorkerJob {
  readonly seq: number;
  readonly job: PartitionJob;
}

// Each partition's batches go back transferred, which detaches their buffers; V8's first detach
// in a thread discards all code optimised so far (its "no buffer was ever detached" protector),
// so the hot build code would be compiled twice. Detaching one empty buffer before any code is
// hot gets that over with while nothing has been optimised yet.
const detached = new ArrayBuffer(0);
structuredClone(detached, { transfer: [detached] });

let wasmModule: object | undefined;
const hashers = new Map<KeyScheme, Hasher>();

function hasherFor(scheme: KeyScheme): Hasher {
  let hasher = hashers.get(scheme);
  if (hasher === undefined) {
    const name = hashFunctionOfScheme(scheme);
    const kernel =
      name === "sha256" && wasmModule !== undefined
        ? createWasmSha256Kernel({ module: wasmModule })
        : undefined;
    hasher = kernel === undefined ? getHasher(name) : createSha256Hasher(kernel);
    hashers.set(scheme, hasher);
  }
  return hasher;
}

parentPort?.on("message", (message: { init: PartitionWorkerInit } | PartitionWorkerJob) => {
  if ("init" in message) {
    wasmModule = message.init.wasmModule;
    return;
  }
  const { seq, job } = message;
  try {
    const out = buildPartition(job, hasherFor(job.scheme));
    const transfer: ArrayBuffer[] = [
      out.held.bytes.buffer as ArrayBuffer,
      out.held.ends.buffer as ArrayBuffer,
    ];
    for (const b of out.batches)
      transfer.push(b.bytes.buffer as ArrayBuffer, b.ends.buffer as ArrayBuffer);
    parentPort?.postMessage({ seq, ok: true, out }, transfer);
  } catch (error) {
    parentPort?.postMessage({ seq, ok: false, error });
  }
});
