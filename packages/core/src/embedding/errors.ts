import { BintrieError } from "@bintrie/codec";

/** Stable machine-readable reasons for {@link KeyDerivationError}. */
export type KeyDerivationErrorCode =
  | "INVALID_ADDRESS"
  | "INVALID_SLOT"
  | "INVALID_TREE_INDEX"
  | "INVALID_SUB_INDEX"
  | "INVALID_CHUNK_INDEX"
  | "INVALID_KEY_SCHEME"
  /** A hasher whose function differs from the key scheme's. */
  | "HASHER_MISMATCH";

/**
 * Thrown when a tree key cannot be derived; `message` names the bad input.
 *
 * @example
 * ```ts
 * import { basicDataKey, KeyDerivationError } from "@bintrie/core";
 *
 * try {
 *   basicDataKey("sha256-be", new Uint8Array(21));
 * } catch (error) {
 *   console.log(error instanceof KeyDerivationError && error.code); // "INVALID_ADDRESS"
 * }
 * ```
 */
export class KeyDerivationError extends BintrieError<KeyDerivationErrorCode> {
  override name = "KeyDerivationError";
}

/** Stable machine-readable reasons for {@link BasicDataError}. */
export type BasicDataErrorCode =
  | "INVALID_VERSION"
  | "INVALID_CODE_SIZE"
  | "INVALID_NONCE"
  | "INVALID_BALANCE"
  /** A BASIC_DATA value, CODE_HASH value or output buffer that is not 32 bytes (or not bytes). */
  | "INVALID_LENGTH"
  /** packBasicData input that is not an object (null, a number, an array...). */
  | "INVALID_ARGUMENT";

/**
 * Thrown when a BASIC_DATA leaf cannot be packed or unpacked; `message` names the bad input.
 *
 * @example
 * ```ts
 * import { BasicDataError } from "@bintrie/core/embedding";
 * import { packBasicData } from "@bintrie/core";
 *
 * try {
 *   packBasicData({ nonce: -1n, balance: 0n, codeSize: 0 });
 * } catch (error) {
 *   console.log(error instanceof BasicDataError && error.code); // "INVALID_NONCE"
 * }
 * ```
 */
export class BasicDataError extends BintrieError<BasicDataErrorCode> {
  override name = "BasicDataError";
}

/** Stable machine-readable reasons for {@link CodeChunkError}. */
export type CodeChunkErrorCode =
  | "INVALID_CODE_SIZE"
  | "INVALID_CHUNKS"
  /** Code that is not a Uint8Array (these functions take bytes, not hex). */
  | "INVALID_CODE";

/**
 * Thrown by code chunking for an invalid size or chunk buffer; `message` names the bad input.
 *
 * @example
 * ```ts
 * import { CodeChunkError, chunkCount } from "@bintrie/core/embedding";
 *
 * try {
 *   chunkCount(-1);
 * } catch (error) {
 *   console.log(error instanceof CodeChunkError && error.code); // "INVALID_CODE_SIZE"
 * }
 * ```
 */
export class CodeChunkError extends BintrieError<CodeChunkErrorCode> {
  override name = "CodeChunkError";
}
