import { LevelwiseStemHasher } from "../hash/one-value-stems.js";
import { sha256Msg32, sha256Msg64 } from "./js-compress.generated.js";
import { checkBatchArgs, type Sha256BatchKernel } from "./kernel.js";

// The unrolled per-message functions live in their own (generated) functions and are driven from the small loops
// below: one giant function that contains the loop may get optimised only through OSR and later deoptimise, which
// leaves it in the interpreter at ~20 µs per message.

function view(a: Uint8Array): DataView {
  return new DataView(a.buffer, a.byteOffset, a.byteLength);
}

let stems: LevelwiseStemHasher | undefined;

/**
 * Pure TypeScript SHA-256 batch kernel: fully unrolled, no allocation per message (two DataViews per call). Its
 * one-value stem hashes are computed level by level from its own batch calls.
 */
export const jsSha256Kernel: Sha256BatchKernel = {
  hash32Batch(src, srcOffset, count, dst, dstOffset) {
    checkBatchArgs(src, srcOffset, count, 32, dst, dstOffset);
    if (count === 0) return;
    const s = view(src);
    const d = dst === src ? s : view(dst);
    for (let i = 0; i < count; i++) sha256Msg32(s, srcOffset + 32 * i, d, dstOffset + 32 * i);
  },
  hash64Batch(src, srcOffset, count, dst, dstOffset) {
    checkBatchArgs(src, srcOffset, count, 64, dst, dstOffset);
    if (count === 0) return;
    const s = view(src);
    const d = dst === src ? s : view(dst);
    for (let i = 0; i < count; i++) sha256Msg64(s, srcOffset + 64 * i, d, dstOffset + 32 * i);
  },
  hashOneValueStems(src, srcOffset, count, dst, dstOffset) {
    checkBatchArgs(src, srcOffset, count, 64, dst, dstOffset);
    stems ??= new LevelwiseStemHasher(jsSha256Kernel);
    stems.hashOneValueStems(src, srcOffset, count, dst, dstOffset);
  },
};
