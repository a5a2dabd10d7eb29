import { BintrieError } from "@bintrie/codec";

/** One account of a geth-style genesis `alloc` (hex quantities, as in genesis.json). */
export interface GenesisAccount {
  readonly balance?: string;
  readonly nonce?: string;
  readonly code?: string;
  readonly storage?: Readonly<Record<string, string>>;
}

/** address (0x-hex, 20 bytes) → account. */
export type GenesisAlloc = Readonly<Record<string, GenesisAccount>>;

export type GenesisErrorCode = "INVALID_ALLOC";

export class GenesisError extends BintrieError<GenesisErrorCode> {
  override name = "GenesisError";

  constructor(code: GenesisErrorCode, message: string) {
    super(code, message);
  }
}
