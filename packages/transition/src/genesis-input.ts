import {
  type GenesisAllocInput,
  GenesisError,
  type ParsedGenesisAccount,
  parseGenesisAlloc,
} from "@bintrie/core";
import { TransitionError } from "./transition-error.js";

/** One alloc account, parsed: 20-byte address, 32-byte slots and values (zero values kept). */
export type AllocAccount = ParsedGenesisAccount;

/**
 * Parses a geth-style alloc with core's parser; its errors become TransitionError
 * ('INVALID_ARGUMENT') with the same message, naming the offending field.
 *
 * @example
 * ```ts
 * import { parseAlloc } from "@bintrie/transition";
 *
 * const [account] = parseAlloc({ "0x00000000000000000000000000000000000000aa": { balance: "0x1" } });
 * // account.balance === 1n
 * ```
 */
export function parseAlloc(alloc: GenesisAllocInput): AllocAccount[] {
  try {
    return parseGenesisAlloc(alloc);
  } catch (error) {
    if (!(error instanceof GenesisError)) throw error;
    throw new TransitionError("INVALID_ARGUMENT", error.message);
  }
}
