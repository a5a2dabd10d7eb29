import { jsSha256Kernel } from "./js-kernel.js";
import type { Sha256BatchKernel } from "./kernel.js";
import { createWasmSha256Kernel } from "./wasm-kernel.js";

export { jsSha256Kernel } from "./js-kernel.js";
export type { Sha256BatchKernel } from "./kernel.js";
export { createWasmSha256Kernel, type Sha256WasmOptions } from "./wasm-kernel.js";

let best: Sha256BatchKernel | undefined;

/** The fastest kernel available here: WebAssembly SIMD if it can be instantiated, else pure JS. Created once, cached. */
export function bestSha256Kernel(): Sha256BatchKernel {
  if (best === undefined) best = createWasmSha256Kernel() ?? jsSha256Kernel;
  return best;
}
