export { BintrieError } from "@bintrie/core";
export { type BuildMptBaseResult, buildMptBase } from "./build-mpt-base.js";
export {
  type AccountProgress,
  accountProgress,
  type ConversionCursor,
} from "./conversion-cursor.js";
export { type AllocAccount, parseAlloc } from "./genesis-input.js";
export { KVStoreDB } from "./kv-store-db.js";
export { type BaseAccount, MptBase } from "./mpt-base.js";
export { type MptLeaf, type MptNodeReader, walkMptLeaves } from "./mpt-walk.js";
export {
  MapPreimageSource,
  type PreimageSource,
  preimagesFromAlloc,
  preimagesFromMap,
} from "./preimage-source.js";
export { DEFAULT_STORE_LAYOUT, type StoreLayout } from "./store-layout.js";
export { TransitionError, type TransitionErrorCode } from "./transition-error.js";
export type { ConversionCounters, TransitionRecord } from "./transition-record.js";
export { decodeTransitionRecord, encodeTransitionRecord } from "./transition-record.js";
export {
  type ConversionProgress,
  type ConvertOptions,
  type OpenTransitionOptions,
  TransitionState,
} from "./transition-state.js";
