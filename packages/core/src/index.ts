export { BintrieError } from "@bintrie/codec";
export * from "./builder/index.js";
export * from "./embedding/index.js";
export * from "./genesis/index.js";
export * from "./hash/index.js";
export * from "./proof/index.js";
export {
  bestSha256Kernel,
  compileWasmSha256Module,
  createWasmSha256Kernel,
  jsSha256Kernel,
  prepareSha256Kernel,
  type Sha256WasmOptions,
} from "./sha256/index.js";
export { compareBytes } from "./store/bytes-order.js";
export type { BatchOperation, KeyRange, KVStore } from "./store/kv-store.js";
export { MemoryStore } from "./store/memory-store.js";
export {
  decodeRootRecord,
  encodeRootRecord,
  ROOT_RECORD_KEY,
  type RootRecord,
  STORE_FORMAT_VERSION,
} from "./store/root-record.js";
export { StoreError, type StoreErrorCode } from "./store/store-error.js";
export { validateBatchOperations } from "./store/validate-batch.js";
export type { Account } from "./tree/account.js";
export {
  BinaryTree,
  type BinaryTreeOptions,
  type CommitOptions,
  DEFAULT_GROUP_DEPTH,
  type DeletionMode,
  type PersistOptions,
  type TreeEntry,
} from "./tree/binary-tree.js";
export type { NodeSet, NodeWrite } from "./tree/node-set.js";
export { type OpenTreeOptions, openTree } from "./tree/open-tree.js";
export type { EntryRange } from "./tree/ordered-entries.js";
export { SerialQueue } from "./tree/serial-queue.js";
export { TreeError, type TreeErrorCode } from "./tree/tree-error.js";
export * from "./witness/index.js";
