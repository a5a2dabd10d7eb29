/// <reference types="node" />
// @bintrie/core/node: what needs Node (worker threads). The package root stays browser-safe.
export { closeParallelWorkers, type ParallelRootOptions, parallelRoot } from "./parallel-root.js";
export type { ParallelRootThreadTimings, ParallelRootTimings } from "./parallel-root-timings.js";
export {
  openPartitionWorkers,
  type PartitionWorkers,
  type PartitionWorkersOptions,
} from "./partition-build-workers.js";
export {
  openStemHashWorkers,
  type StemHashWorkers,
  type StemHashWorkersOptions,
} from "./stem-hash-workers.js";
