import { describeValue } from "@bintrie/codec";
import { isBatchInRange } from "../sha256/kernel.js";
import { HashError } from "./errors.js";

/**
 * Checks a batch call's arguments once per call, so kernels can index without bounds checks
 * (an out-of-range DataView read would throw a bare RangeError deep inside the kernel, and a
 * typed-array write past the end would be silently dropped). `src` or `dst` not a Uint8Array is
 * HashError('INVALID_ARGUMENT'); a count or offset out of range, HashError('BATCH_OUT_OF_RANGE').
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
  if (
    src instanceof Uint8Array &&
    dst instanceof Uint8Array &&
    isBatchInRange(src, srcOffset, count, messageSize, dst, dstOffset)
  ) {
    return;
  }
  // Out of range: name the argument at fault.
  if (!(src instanceof Uint8Array)) {
    throw new HashError(
      "INVALID_ARGUMENT",
      `${operation}: src must be a Uint8Array, got ${describeValue(src)}`,
    );
  }
  if (!(dst instanceof Uint8Array)) {
    throw new HashError(
      "INVALID_ARGUMENT",
      `${operation}: dst must be a Uint8Array, got ${describeValue(dst)}`,
    );
  }
  if (!Number.isSafeInteger(count) || count < 0) {
    throw new HashError(
      "BATCH_OUT_OF_RANGE",
      `${operation}: count ${describeValue(count)} is not a non-negative integer`,
    );
  }
  if (
    !Number.isSafeInteger(srcOffset) ||
    srcOffset < 0 ||
    srcOffset + count * messageSize > src.length
  ) {
    throw new HashError(
      "BATCH_OUT_OF_RANGE",
      `${operation}: ${count} messages of ${messageSize} bytes at srcOffset ${describeValue(srcOffset)} exceed src length ${src.length}`,
    );
  }
  if (!Number.isSafeInteger(dstOffset) || dstOffset < 0 || dstOffset + count * 32 > dst.length) {
    throw new HashError(
      "BATCH_OUT_OF_RANGE",
      `${operation}: ${count} digests at dstOffset ${describeValue(dstOffset)} exceed dst length ${dst.length}`,
    );
  }
}

/** Throws HashError('INVALID_ARGUMENT') naming `operation` unless `message` is a Uint8Array. */
export function assertMessage(operation: string, message: Uint8Array): void {
  if (!(message instanceof Uint8Array)) {
    throw new HashError(
      "INVALID_ARGUMENT",
      `${operation}: message must be a Uint8Array, got ${describeValue(message)}`,
    );
  }
}
