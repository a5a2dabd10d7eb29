/** Hash functions a tree can be built with. geth master uses SHA-256 everywhere. */
export type HashFunctionName = "sha256" | "blake3";

/** The hash function every default in this package uses (geth master). */
export const DEFAULT_HASH_FUNCTION: HashFunctionName = "sha256";

/**
 * A hash function with batch entry points for the two fixed message sizes of the tree
 * (32-byte leaf values, 64-byte child pairs), so callers can hash a whole level per call.
 */
export interface Hasher {
  readonly name: HashFunctionName;
  /** Digest of a message of any length (key derivation); returns a new 32-byte array. */
  digest(message: Uint8Array): Uint8Array;
  /**
   * Hash `count` 32-byte messages at src[srcOffset + 32i] into dst[dstOffset + 32i].
   * dst may equal src with dstOffset === srcOffset (in place).
   */
  hash32Batch(
    src: Uint8Array,
    srcOffset: number,
    count: number,
    dst: Uint8Array,
    dstOffset: number,
  ): void;
  /**
   * Hash `count` 64-byte messages at src[srcOffset + 64i] into dst[dstOffset + 32i].
   * dst may equal src with dstOffset === srcOffset (in place); other overlaps are not supported.
   */
  hash64Batch(
    src: Uint8Array,
    srcOffset: number,
    count: number,
    dst: Uint8Array,
    dstOffset: number,
  ): void;
}

/**
 * The raw SHA-256 batch primitive a faster implementation (wasm SIMD, pure TS, native) plugs in
 * as; defined with the kernels in ../sha256/kernel.ts. The {@link Hasher} wrapper validates
 * offsets and counts before calling it.
 */
export type { Sha256BatchKernel } from "../sha256/kernel.js";
