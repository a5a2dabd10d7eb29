import type { GenesisAlloc } from "@bintrie/core";
import { fromHex } from "./bytes.js";
import { TransitionError } from "./transition-error.js";

/** One alloc account, parsed: 20-byte address, 32-byte slots and values (zero values kept). */
export interface AllocAccount {
  readonly address: Uint8Array;
  readonly nonce: bigint;
  readonly balance: bigint;
  readonly code: Uint8Array;
  readonly storage: readonly (readonly [slot: Uint8Array, value: Uint8Array])[];
}

/** Parses a geth-style alloc (hex strings) with errors that name the offending field. */
export function parseAlloc(alloc: GenesisAlloc): AllocAccount[] {
  const out: AllocAccount[] = [];
  for (const [addressHex, account] of Object.entries(alloc)) {
    if (!/^(0x)?[0-9a-fA-F]{40}$/.test(addressHex)) {
      throw new TransitionError("INVALID_ARGUMENT", `alloc address ${addressHex} is not 20 bytes`);
    }
    const where = `alloc[${addressHex}]`;
    const storage: [Uint8Array, Uint8Array][] = [];
    for (const [slot, value] of Object.entries(account.storage ?? {})) {
      storage.push([
        hexWord(slot, `${where}.storage key ${slot}`),
        hexWord(value, `${where}.storage[${slot}]`),
      ]);
    }
    out.push({
      address: fromHex(addressHex),
      nonce: quantity(account.nonce, `${where}.nonce`),
      balance: quantity(account.balance, `${where}.balance`),
      code: hexBytes(account.code, `${where}.code`),
      storage,
    });
  }
  return out;
}

function quantity(value: string | undefined, what: string): bigint {
  if (value === undefined || value === "" || value === "0x") return 0n;
  if (typeof value === "string" && (/^0x[0-9a-fA-F]+$/.test(value) || /^[0-9]+$/.test(value))) {
    return BigInt(value);
  }
  throw new TransitionError(
    "INVALID_ARGUMENT",
    `${what}: ${JSON.stringify(value)} is not a quantity`,
  );
}

function hexBytes(value: string | undefined, what: string): Uint8Array {
  const text = value ?? "0x";
  if (typeof text !== "string" || !/^(0x)?([0-9a-fA-F]{2})*$/.test(text)) {
    throw new TransitionError("INVALID_ARGUMENT", `${what}: ${JSON.stringify(value)} is not hex`);
  }
  return fromHex(text);
}

/** A storage key or value: hex of at most 32 bytes (odd length allowed), left-padded. */
function hexWord(value: string, what: string): Uint8Array {
  if (typeof value !== "string" || !/^(0x)?[0-9a-fA-F]{0,64}$/.test(value)) {
    throw new TransitionError(
      "INVALID_ARGUMENT",
      `${what}: ${JSON.stringify(value)} is not hex of at most 32 bytes`,
    );
  }
  const digits = value.replace(/^0x/, "").padStart(64, "0");
  return fromHex(digits);
}
