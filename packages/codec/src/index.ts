export { BintrieError } from "./bintrie-error.js";
export { BitArray } from "./bit-array.js";
export { bitmapHas, bitmapRank, popcount } from "./bitmap.js";
export { childPathKey } from "./child-path-key.js";
export { comparePathKeys } from "./compare-path-keys.js";
export {
  FLAT_INTERNAL_BLOB_SIZE,
  HASH_SIZE,
  MAX_DEPTH,
  MAX_GROUP_DEPTH,
  MAX_PATH_KEY_SIZE,
  NODE_KEY_PREFIX,
  NODE_TYPE_INTERNAL,
  NODE_TYPE_STEM,
  STEM_BITMAP_SIZE,
  STEM_BLOB_HEADER_SIZE,
  STEM_SIZE,
  STEM_WIDTH,
} from "./constants.js";
export { type DecodedNode, decodeNode } from "./decode-node.js";
export { describeValue } from "./describe-value.js";
export { CodecError, type CodecErrorCode } from "./errors.js";
export {
  bitmapSize,
  decodeGroupBlob,
  encodeGroupBlob,
  encodeGroupBlobInto,
  type GroupBlob,
  groupBlobSize,
} from "./group-blob.js";
export { encodeGroupBlobFromEntries, type GroupEntry, groupEntries } from "./group-entries.js";
export { decodeInternalBlob, encodeInternalBlob, type InternalBlob } from "./internal-blob.js";
export { nodeDbKey } from "./node-db-key.js";
export {
  type DecodedPathKey,
  decodePathKey,
  encodePathKey,
  pathKeySize,
  writePathKey,
} from "./path-key.js";
export {
  decodeStemBlob,
  encodeStemBlob,
  encodeStemBlobFromSlots,
  type StemBlob,
  stemBlobValue,
} from "./stem-blob.js";
export {
  assertKnownOptions,
  type OptionErrorClass,
  unknownOptionKey,
} from "./unknown-option-key.js";
