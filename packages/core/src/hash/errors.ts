import { BintrieError } from "@bintrie/codec";

/** Stable machine-readable reasons for {@link HashError}. */
export type HashErrorCode =
  /** A message, stem or value does not have the length the hash rule requires. */
  | "INVALID_LENGTH"
  /** A batch's offsets or count are not non-negative integers, or run past an array's end. */
  | "BATCH_OUT_OF_RANGE"
  /** Stem subindices are not integers in 0..255 in strictly increasing order. */
  | "INVALID_SUBINDICES"
  /** A hash function name other than 'sha256' or 'blake3'. */
  | "UNKNOWN_HASH_FUNCTION"
  /** A kernel option (e.g. the wasm chunk size) outside its range, or a kernel that is not one. */
  | "INVALID_OPTION"
  /**
   * An argument of the wrong type: a hasher that is not a Hasher, stem values that are neither
   * an array nor sparse values, a message or batch buffer that is not a Uint8Array.
   */
  | "INVALID_ARGUMENT";

/**
 * Thrown by the hashing layer for invalid input; `code` is stable, `message` names the bad input.
 *
 * @example
 * ```ts
 * import { getHasher, HashError } from "@bintrie/core";
 *
 * try {
 *   getHasher("md5" as "sha256");
 * } catch (error) {
 *   console.log(error instanceof HashError && error.code); // "UNKNOWN_HASH_FUNCTION"
 * }
 * ```
 */
export class HashError extends BintrieError<HashErrorCode> {
  override name = "HashError";
}
