import { sha256 } from "@noble/hashes/sha2.js";
import { assertBatchRange } from "./batch-range.js";
import type { Hasher, Sha256BatchKernel } from "./hasher.js";
import { createNobleSha256Kernel } from "./noble-sha256-kernel.js";

/**
 * SHA-256 hasher (geth master's hash for keys and nodes). The batch calls are validated here,
 * once per call, and then handed to `kernel` (default: @noble/hashes, no per-message allocation).
 */
export function createSha256Hasher(kernel: Sha256BatchKernel = createNobleSha256Kernel()): Hasher {
  return {
    name: "sha256",

    digest(message) {
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
  };
}
