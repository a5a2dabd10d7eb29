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
  | "WORKER_FAILED";

/** A failure of a tree operation, naming the key, path or option that caused it. */
export class TreeError extends BintrieError<TreeErrorCode> {
  override name = "TreeError";
}
