import { describeValue } from "@bintrie/codec";
import { bytesToHex, hexToBytes } from "../bytes/hex.js";
import { type GenesisAccountInput, type GenesisAllocInput, GenesisError } from "./genesis-alloc.js";
import { goJsonField } from "./go-json-field.js";
import { parseBalance, parseCode, parseNonce, parseStorageWord } from "./hex-input.js";

/** One alloc account, parsed: 20-byte address, 32-byte slots and values (zero values kept). */
export interface ParsedGenesisAccount {
  readonly address: Uint8Array;
  readonly nonce: bigint;
  readonly balance: bigint;
  readonly code: Uint8Array;
  readonly storage: readonly (readonly [slot: Uint8Array, value: Uint8Array])[];
}

const ADDRESS_HEX = /^(0[xX])?[0-9a-fA-F]{40}$/;

/**
 * Parses a geth-style alloc (hex strings as in genesis.json, or bigints and bytes) into bytes
 * and bigints, all of it before anything is written; a GenesisError names the field at fault.
 * Strings are read as geth reads a JSON alloc, and what geth refuses is refused: a missing
 * balance, an odd number of hex digits, code without `0x`, `0x` alone as a quantity. Null is
 * an absent field and a field name matches in any letter case (`Balance`), as in geth; a
 * negative balance, which geth wraps, is refused. An address written twice in different
 * spellings (`0x` or not, either case) is one account, the last one written, whole; a slot
 * written twice (with or without leading zeros) holds the last value.
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
  if (!isObject(alloc)) {
    throw new GenesisError(
      "INVALID_ALLOC",
      `alloc must be an object of address → account, got ${describeValue(alloc)}`,
    );
  }
  const accounts = new Map<string, ParsedGenesisAccount>();
  for (const [addressHex, account] of Object.entries(alloc)) {
    if (!ADDRESS_HEX.test(addressHex)) {
      throw new GenesisError("INVALID_ALLOC", `alloc address ${addressHex} is not 20 bytes of hex`);
    }
    const where = `alloc[${addressHex}]`;
    if (!isObject(account)) {
      throw new GenesisError(
        "INVALID_ALLOC",
        `${where} must be an object, got ${describeValue(account)}`,
      );
    }
    // Field names in any letter case, the last spelling winning, as geth's decoder reads them.
    const field = (name: string) => goJsonField(account, name) as never;
    const storage = new Map<string, readonly [Uint8Array, Uint8Array]>();
    const slots = (field("storage") as GenesisAccountInput["storage"]) ?? {};
    if (!isObject(slots)) {
      throw new GenesisError(
        "INVALID_ALLOC",
        `${where}.storage must be an object of slot → value, got ${describeValue(slots)}`,
      );
    }
    for (const [slotHex, value] of Object.entries(slots)) {
      const slot = parseStorageWord(slotHex, `${where}.storage key ${slotHex}`);
      storage.set(bytesToHex(slot), [
        slot,
        parseStorageWord(value, `${where}.storage[${slotHex}]`),
      ]);
    }
    const address = hexToBytes(addressHex.slice(addressHex.length - 40), "alloc address");
    const key = bytesToHex(address);
    // (Deleted first so that the account takes the place of its last spelling.)
    accounts.delete(key);
    accounts.set(key, {
      address,
      nonce: parseNonce(field("nonce"), `${where}.nonce`),
      balance: parseBalance(field("balance"), `${where}.balance`),
      code: parseCode(field("code"), `${where}.code`),
      storage: [...storage.values()],
    });
  }
  return [...accounts.values()];
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
