/** An account header as the tree stores it (BASIC_DATA and CODE_HASH leaves). */
export interface Account {
  readonly nonce: bigint;
  readonly balance: bigint;
  /** keccak-256 of the code (32 bytes). */
  readonly codeHash: Uint8Array;
  /** Code length in bytes. */
  readonly codeSize: number;
}
