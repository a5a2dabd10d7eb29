import { BintrieError } from "@bintrie/codec";
import type { BytesLike } from "../bytes/hex.js";

/**
 * One account of a geth-style genesis `alloc` (hex quantities, as in genesis.json; JSON integers
 * up to 2^53 too). The balance is required, as geth requires it; null is an absent field.
 */
export interface GenesisAccount {
  readonly balance: string | number;
  readonly nonce?: string | number | null;
  readonly code?: string | null;
  readonly storage?: Readonly<Record<string, string | null>> | null;
}

/**
 * A genesis account as {@link applyGenesisAlloc} takes it: the genesis.json shape, or (from code)
 * bigints for the quantities and bytes for code and storage values.
 */
export interface GenesisAccountInput {
  readonly balance: string | bigint | number;
  readonly nonce?: string | bigint | number | null;
  readonly code?: BytesLike | null;
  /** slot (hex, up to 32 bytes) → value (hex or bytes, up to 32 bytes, left-padded). */
  readonly storage?: Readonly<Record<string, BytesLike | null>> | null;
}

/** address (0x-hex, 20 bytes) → account, as applyGenesisAlloc takes it. */
export type GenesisAllocInput = Readonly<Record<string, GenesisAccountInput>>;

/** address (0x-hex, 20 bytes) → account, as in genesis.json. */
export type GenesisAlloc = Readonly<Record<string, GenesisAccount>>;

export type GenesisErrorCode = "INVALID_ALLOC" | "INVALID_JSON" | "INVALID_OPTION";

/**
 * A genesis alloc that cannot be applied; the message names the account and field at fault.
 *
 * @example
 * ```ts
 * import { applyGenesisAlloc, BinaryTree, GenesisError } from "@bintrie/core";
 *
 * try {
 *   applyGenesisAlloc(new BinaryTree(), { "0x12": { balance: "0x1" } });
 * } catch (error) {
 *   console.log(error instanceof GenesisError && error.code); // "INVALID_ALLOC"
 * }
 * ```
 */
export class GenesisError extends BintrieError<GenesisErrorCode> {
  override name = "GenesisError";
}
