import { checkBatchArgs, type Sha256BatchKernel } from "../sha256/kernel.js";
import { StemSubtreeFold } from "./stem-subtree-fold.js";

/** The two batch calls every hasher and kernel has. */
export type BatchHashCalls = Pick<Sha256BatchKernel, "hash32Batch" | "hash64Batch">;

/** Something that hashes one-value stem records (see `Sha256BatchKernel.hashOneValueStems`). */
export type OneValueStemHashes = Required<Pick<Sha256BatchKernel, "hashOneValueStems">>;

/** Stems per round of the level-by-level path: bounds its scratch. */
const ROUND = 1024;

/**
 * `hashOneValueStems` built from a hasher's own batch calls, for hashers without a fused
 * kernel (pure TS, BLAKE3, a caller's own): the records' values go through the shared stem
 * subtree fold (leaf level, 8 fold levels, one batch call each), then one batch call hashes
 * stem ‖ 0x00 ‖ root.
 */
export class LevelwiseStemHasher implements OneValueStemHashes {
  readonly #calls: BatchHashCalls;
  readonly #fold = new StemSubtreeFold();
  readonly #msg = new Uint8Array(64 * ROUND);
  readonly #msg32 = new Uint32Array(this.#msg.buffer);

  constructor(calls: BatchHashCalls) {
    this.#calls = calls;
    this.#fold.reserve(ROUND, ROUND);
  }

  hashOneValueStems(
    src: Uint8Array,
    srcOffset: number,
    count: number,
    dst: Uint8Array,
    dstOffset: number,
  ): void {
    checkBatchArgs(src, srcOffset, count, 64, dst, dstOffset);
    const fold = this.#fold;
    const msg = this.#msg;
    for (let done = 0; done < count; done += ROUND) {
      const n = Math.min(ROUND, count - done);
      const from = srcOffset + 64 * done;
      const leaves = fold.leaves;
      for (let s = 0; s < n; s++) {
        const record = from + 64 * s;
        for (let b = 0; b < 32; b++) leaves[32 * s + b] = src[record + 32 + b]!;
        for (let b = 0; b < 31; b++) msg[64 * s + b] = src[record + b]!;
        msg[64 * s + 31] = 0;
        fold.subindices[s] = src[record + 31]!;
        fold.starts[s] = s;
      }
      fold.starts[n] = n;
      fold.fold(this.#calls, n);
      for (let s = 0; s < n; s++) fold.writeRoot(s, this.#msg32, 16 * s + 8);
      this.#calls.hash64Batch(msg, 0, n, dst, dstOffset + 32 * done);
    }
  }
}

/**
 * The hasher itself where it hashes one-value stems natively, else a level-by-level
 * implementation over its batch calls: callers hash every one-value stem through this.
 */
export function oneValueStemHashes(
  hasher: BatchHashCalls & Partial<OneValueStemHashes>,
): OneValueStemHashes {
  return hasher.hashOneValueStems !== undefined
    ? (hasher as OneValueStemHashes)
    : new LevelwiseStemHasher(hasher);
}
