import { describeValue } from "@bintrie/codec";
import { CODE_OFFSET } from "./constants.js";
import { KeyDerivationError } from "./errors.js";
import type { TreeLocation } from "./tree-location.js";

/** geth writes the chunk position 128 + i as a uint64, so that is the largest position. */
const MAX_CHUNK_POSITION = (1n << 64n) - 1n;

/** Checks a code chunk index: a non-negative safe integer or bigint with 128 + i < 2^64. */
export function assertChunkIndex(chunkIndex: number | bigint): void {
  const valid =
    typeof chunkIndex === "bigint"
      ? chunkIndex >= 0n && chunkIndex + BigInt(CODE_OFFSET) <= MAX_CHUNK_POSITION
      : Number.isSafeInteger(chunkIndex) && chunkIndex >= 0;
  if (!valid) {
    throw new KeyDerivationError(
      "INVALID_CHUNK_INDEX",
      `code chunk index ${describeValue(chunkIndex)} must be a non-negative integer with 128 + index < 2^64`,
    );
  }
}

/**
 * Where code chunk i lives: position 128 + i, so chunks 0..127 share the account stem
 * (subindex 128..255) and later chunks fill stems of 256.
 *
 * @example
 * ```ts
 * import { codeChunkLocation } from "@bintrie/core/embedding";
 *
 * codeChunkLocation(0); // { treeIndex: 0n, subIndex: 128 }
 * ```
 */
export function codeChunkLocation(chunkIndex: number | bigint): TreeLocation {
  assertChunkIndex(chunkIndex);
  const position = BigInt(chunkIndex) + BigInt(CODE_OFFSET);
  return { treeIndex: position >> 8n, subIndex: Number(position & 0xffn) };
}
