import type { Sha256BatchKernel } from "../sha256/kernel.js";

/** Hash functions a tree can be built with. geth master uses SHA-256 everywhere. */
export type HashFunctionName = "sha256" | "blake3";

/** The hash function every default in this package uses (geth master). */
export const DEFAULT_HASH_FUNCTION: HashFunctionName = "sha256";

/**
 * A hash function with batch entry points for the two fixed message sizes of the tree
 * (32-byte leaf values, 64-byte child pairs), so callers can hash a whole level per call:
 * `hash32Batch` / `hash64Batch` as in {@link Sha256BatchKernel} (in-place 64-byte hashing with
 * dst === src and equal offsets is allowed; other overlaps are not). The built-in hashers also
 * have `hashOneValueStems` (whole stem hashes of one-value stems in one call); for a hasher
 * without it, callers compute the same hashes level by level over its batch calls.
 */
export interface Hasher extends Sha256BatchKernel {
  readonly name: HashFunctionName;
  /** Digest of a message of any length (key derivation); returns a new 32-byte array. */
  digest(message: Uint8Array): Uint8Array;
}

/**
 * The raw batch primitive a faster implementation (wasm SIMD, pure TS, native) plugs in as;
 * defined with the kernels in ../sha256/kernel.ts. The {@link Hasher} wrapper validates
 * offsets and counts before calling it.
 */
export type { Sha256BatchKernel } from "../sha256/kernel.js";

/** Whether `x` has a batch kernel's calls (`hash32Batch`, `hash64Batch`). */
export function isBatchKernel(x: unknown): x is Sha256BatchKernel {
  const k = x as Partial<Sha256BatchKernel> | null;
  return (
    typeof k === "object" &&
    k !== null &&
    typeof k.hash32Batch === "function" &&
    typeof k.hash64Batch === "function"
  );
}

/** Whether `x` is a whole {@link Hasher}: a known name, `digest`, and the batch calls. */
export function isHasher(x: unknown): x is Hasher {
  const h = x as Partial<Hasher>;
  return (
    isBatchKernel(x) &&
    (h.name === "sha256" || h.name === "blake3") &&
    typeof h.digest === "function"
  );
}
