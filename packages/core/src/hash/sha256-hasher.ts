import { describeValue } from "@bintrie/codec";
import { sha256 } from "@noble/hashes/sha2.js";
import { bestSha256Kernel } from "../sha256/best-kernel.js";
import { assertBatchRange, assertMessage } from "./batch-range.js";
import { HashError } from "./errors.js";
import { type Hasher, isBatchKernel, type Sha256BatchKernel } from "./hasher.js";
import { type OneValueStemHashes, oneValueStemHashes } from "./one-value-stems.js";

/**
 * SHA-256 hasher (geth master's hash for keys and nodes). The batch calls are validated here,
 * once per call, and then handed to `kernel` (default: the project's fastest kernel here,
 * WebAssembly SIMD where it runs, else the unrolled pure-TS one). `digest` is noble's `sha256`.
 * A `kernel` without `hash32Batch` and `hash64Batch` functions is HashError('INVALID_OPTION').
 *
 * @example
 * ```ts
 * import { createSha256Hasher, jsSha256Kernel } from "@bintrie/core/sha256";
 *
 * const hasher = createSha256Hasher(jsSha256Kernel);
 * const out = new Uint8Array(32);
 * hasher.hash64Batch(new Uint8Array(64), 0, 1, out, 0);
 * ```
 */
export function createSha256Hasher(kernel: Sha256BatchKernel = bestSha256Kernel()): Hasher {
  // A kernel without the fused stem call gets it level by level over its own batch calls (made on first use).
  if (
    !isBatchKernel(kernel) ||
    (kernel.hashOneValueStems !== undefined && typeof kernel.hashOneValueStems !== "function")
  ) {
    throw new HashError(
      "INVALID_OPTION",
      `createSha256Hasher: kernel must be a Sha256BatchKernel (hash32Batch, hash64Batch), got ${describeValue(kernel)}`,
    );
  }
  let stems: OneValueStemHashes | undefined;
  return {
    name: "sha256",

    digest(message) {
      assertMessage("sha256 digest", message);
      return sha256(message);
    },

    hash32Batch(src, srcOffset, count, dst, dstOffset) {
      assertBatchRange("sha256 hash32Batch", 32, src, srcOffset, count, dst, dstOffset);
      kernel.hash32Batch(src, srcOffset, count, dst, dstOffset);
    },

    hash64Batch(src, srcOffset, count, dst, dstOffset) {
      assertBatchRange("sha256 hash64Batch", 64, src, srcOffset, count, dst, dstOffset);
      kernel.hash64Batch(src, srcOffset, count, dst, dstOffset);
    },

    hashOneValueStems(src, srcOffset, count, dst, dstOffset) {
      assertBatchRange("sha256 hashOneValueStems", 64, src, srcOffset, count, dst, dstOffset);
      stems ??= oneValueStemHashes(kernel);
      stems.hashOneValueStems(src, srcOffset, count, dst, dstOffset);
    },
  };
}
