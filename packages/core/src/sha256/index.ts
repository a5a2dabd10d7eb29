import { jsSha256Kernel } from "./js-kernel.js";
import type { Sha256BatchKernel } from "./kernel.js";
import { compileWasmSha256Module, createWasmSha256Kernel } from "./wasm-kernel.js";

export { jsSha256Kernel } from "./js-kernel.js";
export type { Sha256BatchKernel } from "./kernel.js";
export {
  compileWasmSha256Module,
  createWasmSha256Kernel,
  type Sha256WasmOptions,
} from "./wasm-kernel.js";

let best: Sha256BatchKernel | undefined;

/** The fastest kernel available here: WebAssembly SIMD if it can be instantiated, else pure JS. Created once, cached. */
export function bestSha256Kernel(): Sha256BatchKernel {
  if (best === undefined) best = createWasmSha256Kernel() ?? jsSha256Kernel;
  return best;
}

/**
 * Makes the WebAssembly SIMD kernel available where only asynchronous compilation is allowed
 * (a browser's main thread refuses to compile the 28 KB module synchronously, so
 * `bestSha256Kernel()` falls back to the pure-TS kernel there). Call it once at start-up:
 * hashers and trees created afterwards use the wasm kernel. Resolves to whether they will.
 */
export async function prepareSha256Kernel(): Promise<boolean> {
  if (best !== undefined && best !== jsSha256Kernel) return true;
  const module = await compileWasmSha256Module();
  const kernel = module === undefined ? undefined : createWasmSha256Kernel({ module });
  if (kernel === undefined) return false;
  best = kernel;
  for (const listener of kernelListeners) listener();
  return true;
}

const kernelListeners: (() => void)[] = [];

/** Package-internal: called when `prepareSha256Kernel()` installs a faster kernel. */
export function onSha256KernelChange(listener: () => void): void {
  kernelListeners.push(listener);
}
