import { BintrieError } from "@bintrie/codec";

export type StoreErrorCode =
  /** An argument of the wrong shape (a batch operation, a key that is not bytes, a bad location). */
  | "INVALID_ARGUMENT"
  | "STORE_CLOSED"
  | "STORE_LOCKED"
  | "STORE_IO"
  | "INVALID_ROOT_RECORD"
  | "ROOT_RECORD_MISMATCH";

/**
 * A failure of a KVStore backend or of the records the tree keeps in it.
 *
 * @example
 * ```ts
 * import { MemoryStore, StoreError } from "@bintrie/core";
 *
 * const store = new MemoryStore();
 * await store.close();
 * try {
 *   await store.get(new Uint8Array(1));
 * } catch (error) {
 *   console.log(error instanceof StoreError && error.code); // "STORE_CLOSED"
 * }
 * ```
 */
export class StoreError extends BintrieError<StoreErrorCode> {
  override name = "StoreError";
}
