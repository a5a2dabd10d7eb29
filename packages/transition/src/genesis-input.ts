import {
  type GenesisAllocInput,
  GenesisError,
  type ParsedGenesisAccount,
  parseGenesisAlloc,
} from "@bintrie/core";
import { invalidArgument, objectArgument, rawBytesArgument } from "./arguments.js";
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
  objectArgument("parseAlloc: alloc", alloc);
  try {
    return parseGenesisAlloc(alloc);
  } catch (error) {
    if (!(error instanceof GenesisError)) throw error;
    throw new TransitionError("INVALID_ARGUMENT", error.message);
  }
}

/**
 * An alloc as given to buildMptBase or preimagesFromAlloc: a geth-style alloc (parsed here), or
 * accounts already parsed (checked here). Either way, every field is checked before use.
 */
export function allocAccounts(
  what: string,
  alloc: GenesisAllocInput | readonly AllocAccount[],
): readonly AllocAccount[] {
  if (!Array.isArray(alloc)) {
    objectArgument(what, alloc);
    return parseAlloc(alloc as GenesisAllocInput);
  }
  const list = alloc as readonly unknown[];
  for (let i = 0; i < list.length; i++) checkParsedAccount(`${what}[${i}]`, list[i]);
  return alloc as readonly AllocAccount[];
}

function checkParsedAccount(what: string, entry: unknown): void {
  const account = objectArgument<AllocAccount>(what, entry);
  rawBytesArgument(`${what}.address`, account.address, 20);
  for (const name of ["nonce", "balance"] as const) {
    if (typeof account[name] !== "bigint" || account[name] < 0n) {
      throw invalidArgument(`${what}.${name}`, "a non-negative bigint", account[name]);
    }
  }
  if (!(account.code instanceof Uint8Array)) {
    throw invalidArgument(`${what}.code`, "a Uint8Array", account.code);
  }
  if (!Array.isArray(account.storage)) {
    throw invalidArgument(`${what}.storage`, "an array of [slot, value] pairs", account.storage);
  }
  account.storage.forEach((pair, j) => {
    if (!Array.isArray(pair))
      throw invalidArgument(`${what}.storage[${j}]`, "a [slot, value] pair", pair);
    rawBytesArgument(`${what}.storage[${j}][0]`, pair[0], 32);
    rawBytesArgument(`${what}.storage[${j}][1]`, pair[1], 32);
  });
}
