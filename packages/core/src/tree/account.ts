import type { BytesLike } from "../bytes/hex.js";

/** An account header as the tree stores it (BASIC_DATA and CODE_HASH leaves). */
export interface Account {
  readonly nonce: bigint;
  readonly balance: bigint;
  /** keccak-256 of the code (32 bytes). */
  readonly codeHash: Uint8Array;
  /** Code length in bytes. */
  readonly codeSize: number;
}

/** An account header to write: an {@link Account} whose code hash may also be `0x` hex. */
export interface AccountInput extends Omit<Account, "codeHash"> {
  /** keccak-256 of the code: 32 bytes, or their `0x` hex. */
  readonly codeHash: BytesLike;
}
