import { describeValue } from "@bintrie/codec";
import type { HashFunctionName } from "../hash/hasher.js";
import { KeyDerivationError } from "./errors.js";

/**
 * How tree keys are derived: the hash function and the byte order of the tree index in the
 * preimage. 'sha256-be' is geth master; 'sha256-le' geth 2026-03-05..04-13; 'blake3-be' the
 * EIP text from 2026-03-09; 'blake3-le' the earlier EIP text, jsign's reference and ethereumjs.
 */
export type KeyScheme = "sha256-be" | "sha256-le" | "blake3-be" | "blake3-le";

/** geth master's key scheme, the default everywhere. */
export const DEFAULT_KEY_SCHEME: KeyScheme = "sha256-be";

/** Every supported scheme. */
export const KEY_SCHEMES: readonly KeyScheme[] = [
  "sha256-be",
  "sha256-le",
  "blake3-be",
  "blake3-le",
];

function assertKeyScheme(scheme: KeyScheme): void {
  if (!KEY_SCHEMES.includes(scheme)) {
    throw new KeyDerivationError(
      "INVALID_KEY_SCHEME",
      `unknown key scheme ${describeValue(scheme)} (expected one of ${KEY_SCHEMES.join(", ")})`,
    );
  }
}

/**
 * The hash function of a scheme (also the node hash of trees built with it).
 *
 * @example
 * ```ts
 * import { hashFunctionOfScheme } from "@bintrie/core/embedding";
 *
 * hashFunctionOfScheme("blake3-le"); // "blake3"
 * ```
 */
export function hashFunctionOfScheme(scheme: KeyScheme): HashFunctionName {
  assertKeyScheme(scheme);
  return scheme.startsWith("sha256") ? "sha256" : "blake3";
}

/**
 * Whether the scheme writes the tree index big-endian (true) or little-endian (false).
 *
 * @example
 * ```ts
 * import { isBigEndianScheme } from "@bintrie/core/embedding";
 *
 * isBigEndianScheme("sha256-be"); // true
 * ```
 */
export function isBigEndianScheme(scheme: KeyScheme): boolean {
  assertKeyScheme(scheme);
  return scheme.endsWith("-be");
}
