import { isBatchInRange } from "../sha256/kernel.js";
import { HashError } from "./errors.js";

/**
 * Checks a batch call's arguments once per call, so kernels can index without bounds checks
 * (an out-of-range DataView read would throw a bare RangeError deep inside the kernel, and a
 * typed-array write past the end would be silently dropped).
 */
export function assertBatchRange(
  operation: string,
  messageSize: number,
  src: Uint8Array,
  srcOffset: number,
  count: number,
  dst: Uint8Array,
  dstOffset: number,
): void {
  if (isBatchInRange(src, srcOffset, count, messageSize, dst, dstOffset)) return;
  // Out of range: name the argument at fault.
  if (!Number.isSafeInteger(count) || count < 0) {
    throw new HashError(
      "BATCH_OUT_OF_RANGE",
      `${operation}: count ${count} is not a non-negative integer`,
    );
  }
  if (
    !Number.isSafeInteger(srcOffset) ||
    srcOffset < 0 ||
    srcOffset + count * messageSize > src.length
  ) {
    throw new HashError(
      "BATCH_OUT_OF_RANGE",
      `${operation}: ${count} messages of ${messageSize} bytes at srcOffset ${srcOffset} exceed src length ${src.length}`,
    );
  }
  if (!Number.isSafeInteger(dstOffset) || dstOffset < 0 || dstOffset + count * 32 > dst.length) {
    throw new HashError(
      "BATCH_OUT_OF_RANGE",
      `${operation}: ${count} digests at dstOffset ${dstOffset} exceed dst length ${dst.length}`,
    );
  }
}
