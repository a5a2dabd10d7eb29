import { HashError } from "../hash/errors.js";
/**
 * Batch SHA-256 over fixed-size messages stored back to back in one byte array.
 *
 * Both methods are synchronous, allocation-free per message and bit-exact with FIPS 180-4 SHA-256.
 */
export interface Sha256BatchKernel {
  /** Hash `count` 32-byte messages at src[srcOffset + 32i] into dst[dstOffset + 32i]. */
  hash32Batch(
    src: Uint8Array,
    srcOffset: number,
    count: number,
    dst: Uint8Array,
    dstOffset: number,
  ): void;
  /** Hash `count` 64-byte messages at src[srcOffset + 64i] into dst[dstOffset + 32i]. In place (dst === src, dstOffset === srcOffset) must work. */
  hash64Batch(
    src: Uint8Array,
    srcOffset: number,
    count: number,
    dst: Uint8Array,
    dstOffset: number,
  ): void;
  /**
   * Optional fused stem hash: hash `count` stems that each hold
   * exactly one value, from 64-byte records at src[srcOffset + 64i] (stem 31 bytes ‖ subindex 1 byte ‖
   * value 32 bytes) into their EIP-7864 stem hashes at dst[dstOffset + 32i]: 1 32-byte and 9 64-byte
   * messages per stem, in one call. In place (dst === src, dstOffset === srcOffset) must work.
   */
  hashOneValueStems?(
    src: Uint8Array,
    srcOffset: number,
    count: number,
    dst: Uint8Array,
    dstOffset: number,
  ): void;
}

/** Whether a batch call's offsets and count are integers and both ranges lie inside their arrays. */
export function isBatchInRange(
  src: Uint8Array,
  srcOffset: number,
  count: number,
  msgSize: number,
  dst: Uint8Array,
  dstOffset: number,
): boolean {
  return (
    Number.isSafeInteger(count) &&
    Number.isSafeInteger(srcOffset) &&
    Number.isSafeInteger(dstOffset) &&
    count >= 0 &&
    srcOffset >= 0 &&
    dstOffset >= 0 &&
    srcOffset + count * msgSize <= src.length &&
    dstOffset + count * 32 <= dst.length
  );
}

/**
 * Validates the arguments of a batch call (see `isBatchInRange`). Throws a RangeError before
 * anything is written.
 */
export function checkBatchArgs(
  src: Uint8Array,
  srcOffset: number,
  count: number,
  msgSize: number,
  dst: Uint8Array,
  dstOffset: number,
): void {
  if (!isBatchInRange(src, srcOffset, count, msgSize, dst, dstOffset)) {
    throw new HashError(
      "BATCH_OUT_OF_RANGE",
      `sha256 batch out of range: count=${count} srcOffset=${srcOffset} (length ${src.length}) dstOffset=${dstOffset} (length ${dst.length})`,
    );
  }
}
