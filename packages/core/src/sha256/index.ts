// @bintrie/core/sha256: the SHA-256 batch kernels behind the tree's hasher, and their setup.
export { createSha256Hasher } from "../hash/sha256-hasher.js";
export { bestSha256Kernel, prepareSha256Kernel } from "./best-kernel.js";
export { jsSha256Kernel } from "./js-kernel.js";
export type { Sha256BatchKernel } from "./kernel.js";
export {
  compileWasmSha256Module,
  createWasmSha256Kernel,
  type Sha256WasmOptions,
} from "./wasm-kernel.js";
