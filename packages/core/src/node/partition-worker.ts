/// <reference types="node" />
// Worker side of parallelRoot(): claims and builds units of the shared work until none is left,
// then answers with what it did. Workers stay alive between calls (warm JIT, instantiated kernel).
import { parentPort } from "node:worker_threads";
import { hashFunctionOfScheme } from "../embedding/key-scheme.js";
import { createBlake3Hasher } from "../hash/blake3-hasher.js";
import type { Hasher } from "../hash/hasher.js";
import { createSha256Hasher } from "../hash/sha256-hasher.js";
import { jsSha256Kernel } from "../sha256/js-kernel.js";
import { createWasmSha256Kernel } from "../sha256/wasm-kernel.js";
import { buildUnits, stopWork } from "./partition-work.js";
import type { PartitionWorkerInit, PartitionWorkerJob } from "./partition-worker-pool.js";

let wasmModule: object | undefined;
let sha256: Hasher | undefined;
let blake3: Hasher | undefined;

function hasherFor(scheme: PartitionWorkerJob["work"]["scheme"]): Hasher {
  if (hashFunctionOfScheme(scheme) === "blake3") {
    blake3 ??= createBlake3Hasher();
    return blake3;
  }
  // The module compiled once by the calling thread: instantiating it here costs no compile.
  sha256 ??= createSha256Hasher(
    (wasmModule === undefined ? undefined : createWasmSha256Kernel({ module: wasmModule })) ??
      jsSha256Kernel,
  );
  return sha256;
}

parentPort?.on(
  "message",
  (message: { init: PartitionWorkerInit } | (PartitionWorkerJob & { seq: number })) => {
    if ("init" in message) {
      wasmModule = message.init.wasmModule;
      return;
    }
    const { seq, work, first } = message;
    try {
      const done = buildUnits(work, first, hasherFor(work.scheme));
      parentPort?.postMessage({ seq, ok: true, done });
    } catch (error) {
      // The others stop claiming: the call fails anyway.
      stopWork(work.control);
      parentPort?.postMessage({ seq, ok: false, error });
    }
  },
);
