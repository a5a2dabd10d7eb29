import { blake3 } from "@noble/hashes/blake3.js";
import { assertBatchRange, assertMessage } from "./batch-range.js";
import type { Hasher } from "./hasher.js";
import { LevelwiseStemHasher } from "./one-value-stems.js";

/**
 * BLAKE3 hasher (32-byte output), the hash of the EIP-7864 text and of ethereumjs. Not a hot
 * path (geth uses SHA-256): it reuses one noble instance and fixed scratch buffers so the
 * caller sees no per-message subarrays, but noble itself still allocates a little internally.
 *
 * @example
 * ```ts
 * import { createBlake3Hasher } from "@bintrie/core/hash";
 *
 * const hasher = createBlake3Hasher();
 * hasher.digest(new Uint8Array(0)).length; // 32
 * ```
 */
export function createBlake3Hasher(): Hasher {
  const pristine = blake3.create();
  let work = blake3.create();
  const message32 = new Uint8Array(32);
  const message64 = new Uint8Array(64);
  const digestOut = new Uint8Array(32);

  // Hash `message` (a full scratch buffer) into dst[to..to+32).
  const hashScratch = (message: Uint8Array, dst: Uint8Array, to: number): void => {
    work = pristine._cloneInto(work);
    work.update(message);
    work.digestInto(digestOut);
    dst.set(digestOut, to);
  };

  let stems: LevelwiseStemHasher | undefined;

  const hasher: Hasher = {
    name: "blake3",

    digest(message) {
      assertMessage("blake3 digest", message);
      return blake3(message);
    },

    hash32Batch(src, srcOffset, count, dst, dstOffset) {
      assertBatchRange("blake3 hash32Batch", 32, src, srcOffset, count, dst, dstOffset);
      for (let i = 0; i < count; i++) {
        const from = srcOffset + 32 * i;
        for (let b = 0; b < 32; b++) message32[b] = src[from + b] ?? 0;
        hashScratch(message32, dst, dstOffset + 32 * i);
      }
    },

    hash64Batch(src, srcOffset, count, dst, dstOffset) {
      assertBatchRange("blake3 hash64Batch", 64, src, srcOffset, count, dst, dstOffset);
      for (let i = 0; i < count; i++) {
        const from = srcOffset + 64 * i;
        for (let b = 0; b < 64; b++) message64[b] = src[from + b] ?? 0;
        hashScratch(message64, dst, dstOffset + 32 * i);
      }
    },

    hashOneValueStems(src, srcOffset, count, dst, dstOffset) {
      assertBatchRange("blake3 hashOneValueStems", 64, src, srcOffset, count, dst, dstOffset);
      stems ??= new LevelwiseStemHasher(hasher);
      stems.hashOneValueStems(src, srcOffset, count, dst, dstOffset);
    },
  };
  return hasher;
}
