import { assertBytes } from "./argument-checks.js";
import { FLAT_INTERNAL_BLOB_SIZE, NODE_TYPE_INTERNAL, NODE_TYPE_STEM } from "./constants.js";
import { CodecError } from "./errors.js";
import { decodeGroupNode, type GroupBlob } from "./group-blob.js";
import { decodeInternalNode, type InternalBlob } from "./internal-blob.js";
import { decodeStemNode, type StemBlob } from "./stem-blob.js";

/** Any stored node blob, decoded without copying. */
export type DecodedNode =
  | { kind: "empty" }
  | ({ kind: "stem" } & StemBlob)
  | ({ kind: "internal" } & InternalBlob)
  | ({ kind: "group" } & GroupBlob);

const EMPTY_NODE: DecodedNode = Object.freeze({ kind: "empty" });

/**
 * Decodes any node blob: empty input is the empty node, type 1 a stem, type 2 of exactly 65 bytes
 * the flat internal format, any other type 2 a group blob. No group blob is 65 bytes long
 * (2 + bitmap + depths + 32K never equals 65), so the two internal formats cannot be confused.
 *
 * @example
 * ```ts
 * import { decodeNode, encodeInternalBlob } from "@bintrie/codec";
 *
 * const blob = encodeInternalBlob(new Uint8Array(32).fill(1), new Uint8Array(32).fill(2));
 * decodeNode(blob).kind; // "internal"
 * ```
 */
export function decodeNode(blob: Uint8Array): DecodedNode {
  assertBytes("decodeNode: blob", blob);
  if (blob.length === 0) {
    return EMPTY_NODE;
  }
  const type = blob[0]!;
  if (type === NODE_TYPE_STEM) {
    return decodeStemNode(blob);
  }
  if (type === NODE_TYPE_INTERNAL) {
    return blob.length === FLAT_INTERNAL_BLOB_SIZE
      ? decodeInternalNode(blob)
      : decodeGroupNode(blob);
  }
  throw new CodecError(
    "INVALID_NODE_TYPE",
    `invalid node type ${type} (expected ${NODE_TYPE_STEM} or ${NODE_TYPE_INTERNAL}) in a ${blob.length}-byte blob`,
  );
}
