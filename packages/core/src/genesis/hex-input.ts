import { type BytesLike, hexToBytes } from "../bytes/hex.js";
import { GenesisError } from "./genesis-alloc.js";

// The text rules are go-ethereum's for a genesis alloc (types.Account's JSON), checked by
// running geth's genesis on each case: quantities are `math.HexOrDecimal256` (balance) and
// `HexOrDecimal64` (nonce), code is `hexutil.Bytes`, storage keys and values `storageJSON`.
// JSON null is an absent field, as encoding/json reads it; a JSON integer is a quantity, as
// geth's HexOrDecimal types read one (exact up to 2^53 as a JavaScript number; parseGenesisJson
// hands a bare one over as its text, which is read like any string).

const HEX_QUANTITY = /^0[xX]\+?[0-9a-fA-F]+$/;
const DECIMAL_QUANTITY = /^\+?[0-9]+$/;
const HEX_NONCE = /^0[xX][0-9a-fA-F]+$/;
const DECIMAL_NONCE = /^[0-9]+$/;
const MAX_BALANCE = (1n << 256n) - 1n;
const MAX_NONCE = (1n << 64n) - 1n;

/**
 * A balance below 2^256: required (geth refuses an account without one); "" is zero, otherwise
 * `0x`/`0X` and hex digits or decimal digits, either with an optional `+`. A negative balance
 * is refused here; geth stores the low 128 bits of its 256-bit two's complement.
 */
export function parseBalance(
  value: string | bigint | number | null | undefined,
  what: string,
): bigint {
  return atMost(balanceValue(value, what), MAX_BALANCE, "2^256 - 1", what);
}

function balanceValue(value: string | bigint | number | null | undefined, what: string): bigint {
  if (value === undefined || value === null) {
    throw new GenesisError("INVALID_ALLOC", `${what} is missing (geth requires a balance)`);
  }
  if (typeof value === "bigint") return nonNegative(value, what);
  if (typeof value === "number") return exactInteger(value, what);
  assertString(value, what);
  if (value === "") return 0n;
  if (HEX_QUANTITY.test(value)) return BigInt(`0x${value.slice(2).replace("+", "")}`);
  if (DECIMAL_QUANTITY.test(value)) return BigInt(value.replace("+", ""));
  if (/^(0[xX])?-/.test(value)) {
    throw new GenesisError("INVALID_ALLOC", `${what}: ${JSON.stringify(value)} is negative`);
  }
  throw notQuantity(value, what);
}

/** A nonce below 2^64: absent or "" is zero, else `0x`/`0X` and hex digits, or decimal digits. */
export function parseNonce(
  value: string | bigint | number | null | undefined,
  what: string,
): bigint {
  return atMost(nonceValue(value, what), MAX_NONCE, "2^64 - 1", what);
}

function nonceValue(value: string | bigint | number | null | undefined, what: string): bigint {
  if (value === undefined || value === null || value === "") return 0n;
  if (typeof value === "bigint") return nonNegative(value, what);
  if (typeof value === "number") return exactInteger(value, what);
  assertString(value, what);
  if (HEX_NONCE.test(value) || DECIMAL_NONCE.test(value)) return BigInt(value.toLowerCase());
  throw notQuantity(value, what);
}

/** Code: absent or "" is empty, otherwise `0x`/`0X` and an even number of hex digits. */
export function parseCode(value: BytesLike | null | undefined, what: string): Uint8Array {
  if (value === undefined || value === null) return new Uint8Array(0);
  if (value instanceof Uint8Array) return value;
  assertString(value, what, "hex bytes");
  if (value === "") return new Uint8Array(0);
  if (!/^0[xX][0-9a-fA-F]*$/.test(value)) {
    throw new GenesisError(
      "INVALID_ALLOC",
      `${what}: ${JSON.stringify(value)} is not 0x-prefixed hex bytes`,
    );
  }
  return hexToBytes(evenDigits(value.slice(2), value, what), what);
}

/**
 * A storage key or value, left-padded to 32 bytes: an optional lowercase `0x`, then an even
 * number of hex digits, at most 64 ("" is zero). A null value is zero.
 */
export function parseStorageWord(value: BytesLike | null | undefined, what: string): Uint8Array {
  const word = new Uint8Array(32);
  if (value === undefined || value === null) return word;
  if (value instanceof Uint8Array) return padInto(word, value, what);
  assertString(value, what, "hex bytes");
  const digits = value.startsWith("0x") ? value.slice(2) : value;
  if (!/^[0-9a-fA-F]*$/.test(digits)) {
    throw new GenesisError("INVALID_ALLOC", `${what}: ${JSON.stringify(value)} is not hex bytes`);
  }
  return padInto(word, hexToBytes(evenDigits(digits, value, what), what), what);
}

function evenDigits(digits: string, value: string, what: string): string {
  if (digits.length % 2 !== 0) {
    throw new GenesisError(
      "INVALID_ALLOC",
      `${what}: ${JSON.stringify(value)} has an odd number of hex digits`,
    );
  }
  return digits;
}

function padInto(word: Uint8Array, raw: Uint8Array, what: string): Uint8Array {
  if (raw.length > word.length) {
    throw new GenesisError("INVALID_ALLOC", `${what}: ${raw.length} bytes exceed ${word.length}`);
  }
  word.set(raw, word.length - raw.length);
  return word;
}

function atMost(value: bigint, max: bigint, maxText: string, what: string): bigint {
  if (value > max) {
    throw new GenesisError("INVALID_ALLOC", `${what}: ${value} is above ${maxText}`);
  }
  return value;
}

function nonNegative(value: bigint, what: string): bigint {
  if (value < 0n) throw new GenesisError("INVALID_ALLOC", `${what}: ${value} is negative`);
  return value;
}

function exactInteger(value: number, what: string): bigint {
  if (Number.isSafeInteger(value) && value >= 0) return BigInt(value);
  throw new GenesisError(
    "INVALID_ALLOC",
    `${what}: ${value} is not an exact whole number (JSON.parse rounds a number past 2^53: read the text with parseGenesisJson, or quote it)`,
  );
}

function assertString(value: unknown, what: string, kind = "a hex or decimal quantity"): void {
  if (typeof value !== "string") {
    throw new GenesisError(
      "INVALID_ALLOC",
      `${what}: expected ${kind} as a string, got ${typeof value}`,
    );
  }
}

function notQuantity(value: string, what: string): GenesisError {
  return new GenesisError(
    "INVALID_ALLOC",
    `${what}: ${JSON.stringify(value)} is not a hex or decimal quantity`,
  );
}
