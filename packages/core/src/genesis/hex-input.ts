import { GenesisError } from "./genesis-alloc.js";

/** Parses a genesis hex quantity ("0x1f", "0x", or a decimal string) as a bigint. */
export function parseQuantity(value: string | undefined, what: string): bigint {
  if (value === undefined || value === "" || value === "0x") return 0n;
  if (typeof value !== "string")
    throw new GenesisError("INVALID_ALLOC", `${what}: expected a string, got ${typeof value}`);
  if (/^0x[0-9a-fA-F]+$/.test(value) || /^[0-9]+$/.test(value)) return BigInt(value);
  throw new GenesisError(
    "INVALID_ALLOC",
    `${what}: ${JSON.stringify(value)} is not a hex or decimal quantity`,
  );
}

/** Parses 0x-hex bytes; `size` pads on the left (geth's storage keys/values) when given. */
export function parseHexBytes(value: string | undefined, what: string, size?: number): Uint8Array {
  const text = value ?? "0x";
  if (typeof text !== "string" || !/^(0x)?([0-9a-fA-F]{2})*$/.test(text)) {
    // geth accepts odd-length quantities for storage; pad them.
    if (typeof text === "string" && /^0x[0-9a-fA-F]*$/.test(text) && size !== undefined) {
      return parseHexBytes(`0x0${text.slice(2)}`, what, size);
    }
    throw new GenesisError("INVALID_ALLOC", `${what}: ${JSON.stringify(value)} is not hex bytes`);
  }
  const digits = text.startsWith("0x") ? text.slice(2) : text;
  const raw = new Uint8Array(digits.length / 2);
  for (let i = 0; i < raw.length; i++) raw[i] = Number.parseInt(digits.slice(2 * i, 2 * i + 2), 16);
  if (size === undefined) return raw;
  if (raw.length > size)
    throw new GenesisError("INVALID_ALLOC", `${what}: ${raw.length} bytes exceed ${size}`);
  const out = new Uint8Array(size);
  out.set(raw, size - raw.length);
  return out;
}
