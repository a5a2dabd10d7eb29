import { type GenesisAllocInput, GenesisError } from "./genesis-alloc.js";
import { parseHexBytes, parseQuantity } from "./hex-input.js";

/** One alloc account, parsed: 20-byte address, 32-byte slots and values (zero values kept). */
export interface ParsedGenesisAccount {
  readonly address: Uint8Array;
  readonly nonce: bigint;
  readonly balance: bigint;
  readonly code: Uint8Array;
  readonly storage: readonly (readonly [slot: Uint8Array, value: Uint8Array])[];
}

const ADDRESS_HEX = /^(0x)?[0-9a-fA-F]{40}$/;

/**
 * Parses a geth-style alloc (hex strings as in genesis.json, or bigints and bytes) into bytes
 * and bigints, all of it before anything is written; a GenesisError names the field at fault.
 *
 * @example
 * ```ts
 * import { parseGenesisAlloc } from "@bintrie/core";
 *
 * const [account] = parseGenesisAlloc({
 *   "0x00000000000000000000000000000000000000aa": { nonce: "0x1", code: "0x6000" },
 * });
 * // account.nonce === 1n, account.code is Uint8Array [0x60, 0x00]
 * ```
 */
export function parseGenesisAlloc(alloc: GenesisAllocInput): ParsedGenesisAccount[] {
  const out: ParsedGenesisAccount[] = [];
  for (const [addressHex, account] of Object.entries(alloc)) {
    if (!ADDRESS_HEX.test(addressHex)) {
      throw new GenesisError("INVALID_ALLOC", `alloc address ${addressHex} is not 20 bytes of hex`);
    }
    const where = `alloc[${addressHex}]`;
    const storage: [Uint8Array, Uint8Array][] = [];
    for (const [slotHex, value] of Object.entries(account.storage ?? {})) {
      storage.push([
        parseHexBytes(slotHex, `${where}.storage key ${slotHex}`, 32),
        parseHexBytes(value, `${where}.storage[${slotHex}]`, 32),
      ]);
    }
    out.push({
      address: parseHexBytes(addressHex, `alloc address ${addressHex}`, 20),
      nonce: parseQuantity(account.nonce, `${where}.nonce`),
      balance: parseQuantity(account.balance, `${where}.balance`),
      code: parseHexBytes(account.code, `${where}.code`),
      storage,
    });
  }
  return out;
}
