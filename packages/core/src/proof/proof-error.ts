import { BintrieError } from "@bintrie/codec";

/** Stable machine-readable reasons for {@link ProofError}. */
export type ProofErrorCode =
  /** A key is not a 32-byte Uint8Array. */
  | "INVALID_KEY"
  /** The key list is empty: a proof always covers at least one key. */
  | "NO_KEYS"
  /** The expected root is not a 32-byte Uint8Array. */
  | "INVALID_ROOT"
  /** The verify options (scheme, hash function, hasher) are unknown or contradict each other. */
  | "INVALID_OPTION"
  /** `prove`/`proveSync` was given something other than a BinaryTree. */
  | "INVALID_TREE"
  /** The proof's version byte is not one this code reads. */
  | "UNSUPPORTED_VERSION"
  /** The proof was made with another node hash function than the one verifying it. */
  | "HASH_FUNCTION_MISMATCH"
  /** The proof was made for another set of keys. */
  | "KEY_SET_MISMATCH"
  /** The proof ends before its structure does. */
  | "TRUNCATED"
  /** Bytes or bits are left over after the structure ends (or padding bits are not zero). */
  | "TRAILING_DATA"
  /** Not a proof: not bytes, a bad header field, an impossible tag or index. */
  | "MALFORMED"
  /** A structure the tree cannot have or an encoding other than the unique canonical one. */
  | "NON_CANONICAL"
  /** A stem placed where its own bits do not lead. */
  | "STEM_OFF_PATH"
  /** A node that could be a stem presented as an internal node (EIP-7864 hashes both alike). */
  | "AMBIGUOUS_NODE"
  /** The proof's hashes lead to a different root. */
  | "ROOT_MISMATCH"
  /**
   * The absence cannot be proven: the key's path ends at another stem that has no values, whose
   * hash EIP-7864 cannot tell apart from an internal node's.
   */
  | "UNPROVABLE"
  /** The prover found the tree in a state it cannot prove (a node at the wrong depth). */
  | "INCONSISTENT_TREE";

/**
 * A proof could not be made or did not verify; `code` is stable, `message` says what and where.
 *
 * @example
 * ```ts
 * import { ProofError, verifyProof } from "@bintrie/core/proof";
 *
 * try {
 *   verifyProof(new Uint8Array(32), [new Uint8Array(32)], Uint8Array.of(99));
 * } catch (error) {
 *   console.log(error instanceof ProofError && error.code); // "UNSUPPORTED_VERSION"
 * }
 * ```
 */
export class ProofError extends BintrieError<ProofErrorCode> {
  override name = "ProofError";
}
