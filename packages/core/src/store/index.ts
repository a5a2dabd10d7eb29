// @bintrie/core/store: what a KVStore implementation needs beyond the contract's types.
export { assertKeyRange, assertStoreKey, assertStoreKeys } from "./assert-store-key.js";
export {
  type BatchOperation,
  isStore,
  type KeyRange,
  type KVStore,
  SPAN_WORDS,
  type SpanPuts,
} from "./kv-store.js";
export { MemoryStore } from "./memory-store.js";
export {
  decodeRootRecord,
  encodeRootRecord,
  ROOT_RECORD_KEY,
  type RootRecord,
  STORE_FORMAT_VERSION,
} from "./root-record.js";
export { StoreError, type StoreErrorCode } from "./store-error.js";
export { validateBatchOperations, validateSpanPuts } from "./validate-batch.js";
