import { type BytesLike, hexToBytes } from "../bytes/hex.js";
import { GenesisError } from "./genesis-alloc.js";

/** Parses a genesis hex quantity ("0x1f", "0x", or a decimal string) as a bigint. */
export function parseQuantity(value: string | bigint | undefined, what: string): bigint {
  if (typeof value === "bigint") {
    if (value < 0n) throw new GenesisError("INVALID_ALLOC", `${what}: ${value} is negative`);
    return value;
  }
  if (value === undefined || value === "" || value === "0x") return 0n;
  if (typeof value !== "string")
    throw new GenesisError("INVALID_ALLOC", `${what}: expected a string, got ${typeof value}`);
  if (/^0x[0-9a-fA-F]+$/.test(value) || /^[0-9]+$/.test(value)) return BigInt(value);
  throw new GenesisError(
    "INVALID_ALLOC",
    `${what}: ${JSON.stringify(value)} is not a hex or decimal quantity`,
  );
}

/**
 * Parses 0x-hex bytes (core's hexToBytes); `size` pads on the left (geth's storage keys/values)
 * when given, and then an odd number of digits gets a leading zero, as geth accepts.
 */
export function parseHexBytes(
  value: BytesLike | undefined,
  what: string,
  size?: number,
): Uint8Array {
  if (value instanceof Uint8Array) return padded(value, what, size);
  const text = value ?? "0x";
  if (typeof text !== "string" || !/^(0x)?[0-9a-fA-F]*$/.test(text)) {
    throw new GenesisError("INVALID_ALLOC", `${what}: ${JSON.stringify(value)} is not hex bytes`);
  }
  const digits = text.startsWith("0x") ? text.slice(2) : text;
  if (digits.length % 2 !== 0 && size === undefined) {
    throw new GenesisError(
      "INVALID_ALLOC",
      `${what}: ${JSON.stringify(value)} has an odd number of hex digits`,
    );
  }
  return padded(hexToBytes(digits.length % 2 === 0 ? digits : `0${digits}`, what), what, size);
}

/** `raw` left-padded with zeros to `size` bytes (as is without a size). */
function padded(raw: Uint8Array, what: string, size: number | undefined): Uint8Array {
  if (size === undefined) return raw;
  if (raw.length > size)
    throw new GenesisError("INVALID_ALLOC", `${what}: ${raw.length} bytes exceed ${size}`);
  const out = new Uint8Array(size);
  out.set(raw, size - raw.length);
  return out;
}
