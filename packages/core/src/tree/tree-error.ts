import { BintrieError } from "@bintrie/codec";

export type TreeErrorCode =
  | "INVALID_KEY"
  | "INVALID_STEM"
  | "INVALID_VALUE"
  | "INVALID_OPTION"
  | "MISSING_NODE"
  | "HASH_MISMATCH"
  | "CORRUPT_NODE"
  | "TREE_TOO_DEEP"
  | "POOL_EXHAUSTED"
  | "NO_STORE"
  | "NO_CHECKPOINT"
  | "CHECKPOINT_OPEN"
  | "WITNESS_NOT_STARTED"
  | "WITNESS_ACTIVE"
  | "MALFORMED_WITNESS"
  | "NOT_IN_WITNESS"
  | "BUSY"
  | "WORKER_FAILED";

/**
 * A failure of a tree operation, naming the key, path or option that caused it.
 *
 * @example
 * ```ts
 * import { BinaryTree, TreeError } from "@bintrie/core";
 *
 * try {
 *   new BinaryTree().put(new Uint8Array(31), new Uint8Array(32));
 * } catch (error) {
 *   console.log(error instanceof TreeError && error.code); // "INVALID_KEY"
 * }
 * ```
 */
export class TreeError extends BintrieError<TreeErrorCode> {
  override name = "TreeError";
}
