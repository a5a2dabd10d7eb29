import { BintrieError } from "@bintrie/core";

export type TransitionErrorCode =
  /** Conversion (or a wipe of a converted account) met a hashed MPT key without a preimage. */
  | "MISSING_PREIMAGE"
  /** A preimage source returned bytes whose keccak-256 is not the hashed key. */
  | "BAD_PREIMAGE"
  /** Conversion was asked for but no preimage source was given. */
  | "NO_PREIMAGE_SOURCE"
  /** An MPT node or contract code the base refers to is not in the store. */
  | "MISSING_BASE_DATA"
  /** The store holds no transition yet and no base root was given. */
  | "NO_BASE_ROOT"
  /** The store's transition has another base root, deletion mode or layout than requested. */
  | "RECORD_MISMATCH"
  /** The root record at the key has no transition state (a plain binary tree). */
  | "NOT_A_TRANSITION"
  /** The transition record in the root record's extra bytes cannot be decoded. */
  | "INVALID_RECORD"
  /** deleteAccount needs ordered iteration (`KVStore.entries`), which this store lacks. */
  | "STORE_NOT_ORDERED"
  /** A caller passed an argument of the wrong shape. */
  | "INVALID_ARGUMENT"
  /** The overlay holds something the transition never writes (e.g. code chunks missing). */
  | "CORRUPT_STATE";

/** Every error this package throws on purpose; `code` is stable, the message names the input. */
export class TransitionError extends BintrieError<TransitionErrorCode> {
  override name = "TransitionError";
  /** For MISSING_PREIMAGE / BAD_PREIMAGE: the hashed key (32 bytes). */
  readonly hashedKey: Uint8Array | undefined;

  constructor(code: TransitionErrorCode, message: string, hashedKey?: Uint8Array) {
    super(code, message);
    this.hashedKey = hashedKey;
  }
}
