import { checkBatchArgs, type Sha256BatchKernel } from "./kernel.js";
import { buildSha256WasmModule, type Sha256WasmOptions, simdProbeModule } from "./wasm-gen.js";

/** The part of the WebAssembly JS API used here (declared locally: core's build has no DOM or Node types). */
interface WasmApi {
  validate(bytes: Uint8Array): boolean;
  Module: new (bytes: Uint8Array) => object;
  Instance: new (
    module: object,
    imports: object,
  ) => {
    exports: Record<string, unknown>;
  };
}

type KernelFn = (inPtr: number, outPtr: number, groups: number) => void;

/** Batches up to this many messages are copied byte by byte (cheaper than creating subarray views). */
const SMALL_COPY = 4;

export type { Sha256WasmOptions } from "./wasm-gen.js";

/**
 * Creates a WebAssembly SIMD128 SHA-256 kernel (4 messages per vector), compiled synchronously from bytes generated
 * in `wasm-gen.ts`. Returns undefined when WebAssembly or SIMD128 is unavailable, or when synchronous compilation is
 * refused (e.g. a browser main thread limiting synchronous compiles to small modules).
 *
 * Inputs are copied into the module's linear memory in chunks (1024 messages by default), hashed, and the digests are
 * copied out. Counts that are not a multiple of 4 hash some stale padding lanes whose results are discarded.
 */
export function createWasmSha256Kernel(options?: Sha256WasmOptions): Sha256BatchKernel | undefined {
  const wa = (globalThis as { WebAssembly?: WasmApi }).WebAssembly;
  if (typeof wa !== "object" || wa === null || typeof wa.validate !== "function") return undefined;
  let mem: Uint8Array;
  let h64: KernelFn;
  let h32: KernelFn;
  let IN: number;
  let OUT: number;
  let CHUNK: number;
  try {
    if (!wa.validate(simdProbeModule())) return undefined;
    const { bytes, layout } = buildSha256WasmModule(options);
    const exports = new wa.Instance(new wa.Module(bytes), {}).exports;
    const memory = exports.memory as { buffer: ArrayBuffer };
    h64 = exports.h64 as KernelFn;
    h32 = exports.h32 as KernelFn;
    // The memory is sized for one chunk at creation and never grows, so this view never detaches.
    mem = new Uint8Array(memory.buffer);
    IN = layout.inPtr;
    OUT = layout.outPtr;
    CHUNK = layout.chunk;
  } catch {
    return undefined;
  }

  function run(
    kernel: KernelFn,
    size: number,
    src: Uint8Array,
    so: number,
    count: number,
    dst: Uint8Array,
    dq: number,
  ): void {
    while (count > 0) {
      const n = count < CHUNK ? count : CHUNK;
      const inLen = n * size;
      const outLen = n * 32;
      if (n <= SMALL_COPY) {
        for (let i = 0; i < inLen; i++) mem[IN + i] = src[so + i]!;
        kernel(IN, OUT, (n + 3) >> 2);
        for (let i = 0; i < outLen; i++) dst[dq + i] = mem[OUT + i]!;
      } else {
        mem.set(src.subarray(so, so + inLen), IN);
        kernel(IN, OUT, (n + 3) >> 2);
        dst.set(mem.subarray(OUT, OUT + outLen), dq);
      }
      // In place (dst === src, dq === so): the digests of this chunk end before the next chunk's messages start.
      so += inLen;
      dq += outLen;
      count -= n;
    }
  }

  return {
    hash32Batch(src, srcOffset, count, dst, dstOffset) {
      checkBatchArgs(src, srcOffset, count, 32, dst, dstOffset);
      run(h32, 32, src, srcOffset, count, dst, dstOffset);
    },
    hash64Batch(src, srcOffset, count, dst, dstOffset) {
      checkBatchArgs(src, srcOffset, count, 64, dst, dstOffset);
      run(h64, 64, src, srcOffset, count, dst, dstOffset);
    },
  };
}
