// @bintrie/core/embedding: EIP-7864's layout of accounts in the tree, piece by piece (the root
// exports the key functions and BASIC_DATA packing that most callers need).
export { accountFromLeaves } from "./account-leaves.js";
export {
  type BasicData,
  type BasicDataInput,
  basicDataBalanceField,
  packBasicData,
  unpackBasicData,
} from "./basic-data.js";
export { chunkCount, chunkifyCode, codeFromChunks } from "./chunkify.js";
export { codeChunkLocation } from "./code-chunk-location.js";
export { codeHash, EMPTY_CODE_HASH } from "./code-hash.js";
export {
  BASIC_DATA_BALANCE_OFFSET,
  BASIC_DATA_CODE_SIZE_OFFSET,
  BASIC_DATA_LEAF_KEY,
  BASIC_DATA_NONCE_OFFSET,
  BASIC_DATA_VERSION_OFFSET,
  CODE_BYTES_PER_CHUNK,
  CODE_CHUNK_SIZE,
  CODE_HASH_LEAF_KEY,
  CODE_OFFSET,
  HEADER_STORAGE_OFFSET,
  KEY_SIZE,
  MAIN_STORAGE_OFFSET,
  STEM_SUBTREE_WIDTH,
} from "./constants.js";
export {
  BasicDataError,
  type BasicDataErrorCode,
  CodeChunkError,
  type CodeChunkErrorCode,
  KeyDerivationError,
  type KeyDerivationErrorCode,
} from "./errors.js";
export { KeyDeriver } from "./key-deriver.js";
export {
  DEFAULT_KEY_SCHEME,
  hashFunctionOfScheme,
  isBigEndianScheme,
  KEY_SCHEMES,
  type KeyScheme,
} from "./key-scheme.js";
export {
  isHeaderStorageSlot,
  type StorageSlot,
  type StorageSlotLike,
  storageSlotLocation,
  storageSlotToBytes,
  toStorageSlot,
} from "./storage-slot.js";
export {
  accountStem,
  basicDataKey,
  codeChunkKey,
  codeHashKey,
  storageSlotKey,
  treeKey,
  treeStem,
} from "./tree-key.js";
export type { TreeLocation } from "./tree-location.js";
export { MAX_UINT256 } from "./uint256.js";
