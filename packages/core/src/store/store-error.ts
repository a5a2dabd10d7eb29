export type StoreErrorCode =
  | "STORE_CLOSED"
  | "STORE_LOCKED"
  | "STORE_IO"
  | "INVALID_ROOT_RECORD"
  | "ROOT_RECORD_MISMATCH";

/** A failure of a KVStore backend or of the records the tree keeps in it. */
export class StoreError extends Error {
  override readonly name = "StoreError";
  readonly code: StoreErrorCode;

  constructor(code: StoreErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}
