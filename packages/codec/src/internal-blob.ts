import { assertByteLength, assertBytes } from "./argument-checks.js";
import { FLAT_INTERNAL_BLOB_SIZE, HASH_SIZE, NODE_TYPE_INTERNAL } from "./constants.js";
import { CodecError } from "./errors.js";

// Flat internal blob, the format before group blobs (and group depth 0 in the shared vectors):
//   02 | left hash (32) | right hash (32), an empty child being 32 zero bytes.

/** A decoded flat internal blob; both hashes are views into the input. */
export interface InternalBlob {
  left: Uint8Array;
  right: Uint8Array;
}

/**
 * Builds the 65-byte blob `02 | left | right`.
 *
 * @example
 * ```ts
 * import { encodeInternalBlob } from "@bintrie/codec";
 *
 * encodeInternalBlob(new Uint8Array(32), new Uint8Array(32)).length; // 65: type byte, left, right
 * ```
 */
export function encodeInternalBlob(left: Uint8Array, right: Uint8Array): Uint8Array {
  assertByteLength("encodeInternalBlob: left child hash", left, HASH_SIZE);
  assertByteLength("encodeInternalBlob: right child hash", right, HASH_SIZE);
  const blob = new Uint8Array(FLAT_INTERNAL_BLOB_SIZE);
  blob[0] = NODE_TYPE_INTERNAL;
  blob.set(left, 1);
  blob.set(right, 1 + HASH_SIZE);
  return blob;
}

/**
 * Decodes a 65-byte flat internal blob without copying.
 *
 * @example
 * ```ts
 * import { decodeInternalBlob, encodeInternalBlob } from "@bintrie/codec";
 *
 * const blob = encodeInternalBlob(new Uint8Array(32).fill(1), new Uint8Array(32).fill(2));
 * decodeInternalBlob(blob).right[0]; // 2
 * ```
 */
export function decodeInternalBlob(blob: Uint8Array): InternalBlob {
  assertBytes("decodeInternalBlob: blob", blob);
  return decodeInternalNode(blob);
}

/** {@link decodeInternalBlob} tagged for decodeNode, built as one object. */
export function decodeInternalNode(blob: Uint8Array): { kind: "internal" } & InternalBlob {
  if (blob.length > 0 && blob[0] !== NODE_TYPE_INTERNAL) {
    throw new CodecError(
      "INVALID_NODE_TYPE",
      `invalid node type ${blob[0]!} for an internal blob (expected ${NODE_TYPE_INTERNAL}), blob of ${blob.length} bytes`,
    );
  }
  if (blob.length !== FLAT_INTERNAL_BLOB_SIZE) {
    throw new CodecError(
      "INVALID_LENGTH",
      `flat internal blob is ${blob.length} bytes, expected exactly ${FLAT_INTERNAL_BLOB_SIZE}`,
    );
  }
  return {
    kind: "internal",
    left: blob.subarray(1, 1 + HASH_SIZE),
    right: blob.subarray(1 + HASH_SIZE, FLAT_INTERNAL_BLOB_SIZE),
  };
}
