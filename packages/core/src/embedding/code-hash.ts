import { describeValue } from "@bintrie/codec";
import { keccak_256 } from "@noble/hashes/sha3.js";
import { CodeChunkError } from "./errors.js";

/** keccak256 of empty code, the CODE_HASH of every account without code. Treat as read-only. */
// biome-ignore format: keep the 32-byte constant on two lines
export const EMPTY_CODE_HASH: Uint8Array = Uint8Array.of(
  0xc5, 0xd2, 0x46, 0x01, 0x86, 0xf7, 0x23, 0x3c, 0x92, 0x7e, 0x7d, 0xb2, 0xdc, 0xc7, 0x03, 0xc0,
  0xe5, 0x00, 0xb6, 0x53, 0xca, 0x82, 0x27, 0x3b, 0x7b, 0xfa, 0xd8, 0x04, 0x5d, 0x85, 0xa4, 0x70,
);

/**
 * The CODE_HASH leaf value of `code`: keccak256(code) (not the tree hash). `code` is bytes: a
 * string (hex or not) is CodeChunkError('INVALID_CODE'); convert hex with `hexToBytes` first.
 *
 * @example
 * ```ts
 * import { codeHash, EMPTY_CODE_HASH } from "@bintrie/core";
 *
 * codeHash(new Uint8Array(0)); // equals EMPTY_CODE_HASH (keccak-256 of nothing)
 * ```
 */
export function codeHash(code: Uint8Array): Uint8Array {
  if (!(code instanceof Uint8Array)) {
    throw new CodeChunkError(
      "INVALID_CODE",
      `code must be a Uint8Array, got ${describeValue(code)}`,
    );
  }
  return keccak_256(code);
}
