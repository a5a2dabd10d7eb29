import { bytesToHex } from "../bytes/hex.js";
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
 * Read as geth reads a JSON alloc: an address written twice in different spellings (`0x` or
 * not, either case) is one account, the last one written, whole; a slot written twice (with or
 * without leading zeros) holds the last value written.
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
  // Keyed by the bytes' hex: geth decodes into maps keyed by the parsed address and slot.
  const accounts = new Map<string, ParsedGenesisAccount>();
  for (const [addressHex, account] of Object.entries(alloc)) {
    if (!ADDRESS_HEX.test(addressHex)) {
      throw new GenesisError("INVALID_ALLOC", `alloc address ${addressHex} is not 20 bytes of hex`);
    }
    const where = `alloc[${addressHex}]`;
    const storage = new Map<string, readonly [Uint8Array, Uint8Array]>();
    for (const [slotHex, value] of Object.entries(account.storage ?? {})) {
      const slot = parseHexBytes(slotHex, `${where}.storage key ${slotHex}`, 32);
      storage.set(bytesToHex(slot), [
        slot,
        parseHexBytes(value, `${where}.storage[${slotHex}]`, 32),
      ]);
    }
    const address = parseHexBytes(addressHex, `alloc address ${addressHex}`, 20);
    const key = bytesToHex(address);
    // (Deleted first so that the account takes the place of its last spelling.)
    accounts.delete(key);
    accounts.set(key, {
      address,
      nonce: parseQuantity(account.nonce, `${where}.nonce`),
      balance: parseQuantity(account.balance, `${where}.balance`),
      code: parseHexBytes(account.code, `${where}.code`),
      storage: [...storage.values()],
    });
  }
  return [...accounts.values()];
}
