import { jsSha256Kernel } from "./js-kernel.js";
import type { Sha256BatchKernel } from "./kernel.js";
import { compileWasmSha256Module, createWasmSha256Kernel } from "./wasm-kernel.js";

let best: Sha256BatchKernel | undefined;

/**
 * The fastest kernel available here: WebAssembly SIMD if it can be instantiated, else pure JS.
 * Created once, cached; after {@link prepareSha256Kernel} succeeds it is the wasm kernel.
 *
 * @example
 * ```ts
 * import { bestSha256Kernel } from "@bintrie/core/sha256";
 *
 * const out = new Uint8Array(32);
 * bestSha256Kernel().hash32Batch(new Uint8Array(32), 0, 1, out, 0); // out = sha256(0^32)
 * ```
 */
export function bestSha256Kernel(): Sha256BatchKernel {
  if (best === undefined) best = createWasmSha256Kernel() ?? jsSha256Kernel;
  return best;
}

/**
 * Makes the WebAssembly SIMD kernel available where only asynchronous compilation is allowed
 * (a browser's main thread refuses to compile the 52 KB module synchronously, so
 * `bestSha256Kernel()` falls back to the pure-TS kernel there). Call it once at start-up:
 * hashers and trees created afterwards use the wasm kernel. Resolves to whether they will.
 *
 * @example
 * ```ts
 * import { prepareSha256Kernel } from "@bintrie/core/sha256";
 *
 * const simd = await prepareSha256Kernel(); // true where WebAssembly SIMD runs
 * ```
 */
export async function prepareSha256Kernel(): Promise<boolean> {
  if (best !== undefined && best !== jsSha256Kernel) return true;
  const module = await compileWasmSha256Module();
  const kernel = module === undefined ? undefined : createWasmSha256Kernel({ module });
  if (kernel === undefined) return false;
  best = kernel;
  return true;
}
