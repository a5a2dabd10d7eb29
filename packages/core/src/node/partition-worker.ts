/// <reference types="node" />
// Worker side of parallelRoot(): builds one share of the partitions into shared memory per
// message. Workers stay alive between calls (warm JIT, instantiated kernel).
import { parentPort } from "node:worker_threads";
import { hashFunctionOfScheme } from "../embedding/key-scheme.js";
import { createBlake3Hasher } from "../hash/blake3-hasher.js";
import type { Hasher } from "../hash/hasher.js";
import { createSha256Hasher } from "../hash/sha256-hasher.js";
import { jsSha256Kernel } from "../sha256/js-kernel.js";
import { createWasmSha256Kernel } from "../sha256/wasm-kernel.js";
import { buildPartitions, type PartitionJob } from "./build-partitions.js";

let sha256: Hasher | undefined;
let blake3: Hasher | undefined;

parentPort?.on("message", (job: PartitionJob & { wasmModule?: object }) => {
  try {
    let hasher: Hasher;
    if (hashFunctionOfScheme(job.scheme) === "blake3") hasher = blake3 ??= createBlake3Hasher();
    else {
      // The module compiled once by the main thread: instantiating it here costs no compile.
      sha256 ??= createSha256Hasher(
        (job.wasmModule === undefined
          ? undefined
          : createWasmSha256Kernel({ module: job.wasmModule })) ?? jsSha256Kernel,
      );
      hasher = sha256;
    }
    buildPartitions(job, hasher);
    parentPort?.postMessage({ ok: true });
  } catch (error) {
    parentPort?.postMessage({ ok: false, error });
  }
});
