/// <reference types="node" />
// Worker side of openStemHashWorkers(): hashes chunks of packed stem blobs and sends each chunk
// back with its hashes (buffers transferred both ways, nothing copied).
import { parentPort } from "node:worker_threads";
import { StemBlobHasher } from "../builder/stem-blob-hasher.js";
import type { PackedStems } from "../builder/stem-hash-pool.js";
import type { KeyScheme } from "../embedding/key-scheme.js";
import { createSha256Hasher } from "../hash/sha256-hasher.js";
import { jsSha256Kernel } from "../sha256/js-kernel.js";
import { createWasmSha256Kernel } from "../sha256/wasm-kernel.js";

export interface StemHashWorkerInit {
  readonly scheme: KeyScheme;
  readonly sha256: boolean;
  /** The SHA-256 kernel's module, compiled once by the opening thread. */
  readonly wasmModule?: object;
}

export interface StemHashJob {
  readonly seq: number;
  readonly stems: PackedStems;
}

let hasher: StemBlobHasher | undefined;

parentPort?.on("message", (message: { init: StemHashWorkerInit } | StemHashJob) => {
  if ("init" in message) {
    const { scheme, sha256, wasmModule } = message.init;
    const kernel =
      sha256 && wasmModule !== undefined
        ? createWasmSha256Kernel({ module: wasmModule })
        : undefined;
    hasher = new StemBlobHasher(
      sha256 ? { scheme, hasher: createSha256Hasher(kernel ?? jsSha256Kernel) } : { scheme },
    );
    return;
  }
  const { seq, stems } = message;
  try {
    const hashes = hasher!.hashPacked(stems);
    parentPort?.postMessage({ seq, ok: true, stems, hashes }, [
      stems.bytes.buffer as ArrayBuffer,
      stems.offsets.buffer as ArrayBuffer,
      hashes.buffer as ArrayBuffer,
    ]);
  } catch (error) {
    parentPort?.postMessage({ seq, ok: false, error });
  }
});
