import { BintrieError } from "./bintrie-error.js";

/** Stable machine-readable reasons a codec call can fail. */
export type CodecErrorCode =
  | "INVALID_NODE_TYPE"
  | "INVALID_LENGTH"
  | "INVALID_GROUP_DEPTH"
  | "NON_CANONICAL_BITMAP_PADDING"
  | "NON_CANONICAL_DEPTH_PADDING"
  | "INVALID_DEPTH_OFFSET"
  | "NON_CANONICAL_BITMAP_POSITION"
  | "OVERLAPPING_ENTRIES"
  | "ZERO_HASH_ENTRY"
  | "STEM_BLOB_TRUNCATED"
  | "PATH_TOO_DEEP"
  | "INVALID_PATH_KEY"
  | "INVALID_ARGUMENT";

/**
 * The only error type the codec throws. Branch on `code`; the message is for humans and names the
 * offending input (its length, group depth, bit position, ...).
 *
 * @example
 * ```ts
 * import { CodecError, decodeNode } from "@bintrie/codec";
 *
 * try {
 *   decodeNode(Uint8Array.of(9));
 * } catch (error) {
 *   console.log(error instanceof CodecError && error.code); // "INVALID_NODE_TYPE"
 * }
 * ```
 */
export class CodecError extends BintrieError<CodecErrorCode> {
  override name = "CodecError";
}
