// @bintrie/core/builder: the streaming bulk builder (sorted input in, a tree or a store out).
export type { BuildInput, BuildSource, PackedEntries, StemEntry } from "./build-input.js";
export {
  type BuildIntoStoreOptions,
  type BuildIntoStoreResult,
  buildTreeIntoStore,
  DEFAULT_MAX_BATCH_BYTES,
} from "./build-into-store.js";
export { type BuildResult, type BuildTreeOptions, buildTree } from "./build-tree.js";
export { BuilderError, type BuilderErrorCode } from "./builder-error.js";
export type { NodeSink } from "./node-sink.js";
export type { PackedBatch } from "./packed-records.js";
export { type PartitionJob, type PartitionOutput, partitionDepth } from "./partition-build.js";
export type { PartitionPool } from "./partition-pool.js";
export type { RunStorage } from "./run-storage.js";
export {
  DEFAULT_MAX_MERGE_FAN_IN,
  DEFAULT_RUN_BYTES,
  type SortEntriesOptions,
  sortEntries,
} from "./sort-entries.js";
export { StemBlobHasher, type StemBlobHasherOptions } from "./stem-blob-hasher.js";
export type { HashedStems, PackedStems, StemHashPool } from "./stem-hash-pool.js";
export {
  DEFAULT_STEM_BATCH_SIZE,
  StreamingBuilder,
  type StreamingBuilderOptions,
} from "./streaming-builder.js";
