// @bintrie/core: the tree, its store contract, keys and accounts. What not every user needs
// lives in subpaths: /sha256 (kernels), /hash (node-hash rules), /builder, /proof, /embedding
// (the account layout piece by piece), /store (for store implementers), /bytes, /conformance.
export { BintrieError } from "@bintrie/codec";
export { type BytesLike, bytesToHex, hexToBytes } from "./bytes/hex.js";
export {
  type BasicData,
  type BasicDataInput,
  packBasicData,
  unpackBasicData,
} from "./embedding/basic-data.js";
export { codeHash, EMPTY_CODE_HASH } from "./embedding/code-hash.js";
export { KeyDerivationError, type KeyDerivationErrorCode } from "./embedding/errors.js";
export type { KeyDeriver } from "./embedding/key-deriver.js";
export { DEFAULT_KEY_SCHEME, KEY_SCHEMES, type KeyScheme } from "./embedding/key-scheme.js";
export type { StorageSlot, StorageSlotLike } from "./embedding/storage-slot.js";
export {
  accountStem,
  basicDataKey,
  codeChunkKey,
  codeHashKey,
  storageSlotKey,
  treeKey,
  treeStem,
} from "./embedding/tree-key.js";
export {
  type ApplyGenesisOptions,
  applyGenesisAlloc,
  type GenesisSummary,
} from "./genesis/apply-genesis.js";
export {
  type GenesisAccount,
  type GenesisAccountInput,
  type GenesisAlloc,
  type GenesisAllocInput,
  GenesisError,
  type GenesisErrorCode,
} from "./genesis/genesis-alloc.js";
export { type GenesisJsonShape, parseGenesisJson } from "./genesis/genesis-json.js";
export { goJsonField } from "./genesis/go-json-field.js";
export { type ParsedGenesisAccount, parseGenesisAlloc } from "./genesis/parse-alloc.js";
export { HashError, type HashErrorCode } from "./hash/errors.js";
export { getHasher } from "./hash/get-hasher.js";
export { DEFAULT_HASH_FUNCTION, type Hasher, type HashFunctionName } from "./hash/hasher.js";
export { EMPTY_HASH } from "./hash/node-hash.js";
export type { BatchOperation, KeyRange, KVStore, SpanPuts } from "./store/kv-store.js";
export { MemoryStore } from "./store/memory-store.js";
export { ROOT_RECORD_KEY, type RootRecord } from "./store/root-record.js";
export { StoreError, type StoreErrorCode } from "./store/store-error.js";
export type { Account, AccountInput } from "./tree/account.js";
export {
  BinaryTree,
  type BinaryTreeOptions,
  type CommitOptions,
  DEFAULT_GROUP_DEPTH,
  type DeletionMode,
  type PersistOptions,
  type TreeEntry,
  type UpdateManyChanges,
} from "./tree/binary-tree.js";
export { EMPTY_MPT_ROOT, isEmptyRoot } from "./tree/empty-roots.js";
export type { NodeSet, NodeWrite } from "./tree/node-set.js";
export { type OpenTreeOptions, openTree } from "./tree/open-tree.js";
export type { EntryRange } from "./tree/ordered-entries.js";
export { SerialQueue } from "./tree/serial-queue.js";
export { TreeError, type TreeErrorCode } from "./tree/tree-error.js";
export * from "./witness/index.js";
