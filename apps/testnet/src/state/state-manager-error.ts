import { BintrieError } from "@bintrie/core";

export type StateManagerErrorCode =
  | "INVALID_STORAGE_KEY"
  | "INVALID_STORAGE_VALUE"
  | "UNKNOWN_CODE_HASH"
  | "UNKNOWN_STATE_ROOT"
  | "UNBALANCED_CHECKPOINT"
  | "CORRUPT_INDEX"
  | "INVALID_OPTION";

/** A state-manager misuse or an inconsistency between the tree and what the VM asked for. */
export class StateManagerError extends BintrieError<StateManagerErrorCode> {
  override name = "StateManagerError";
}
