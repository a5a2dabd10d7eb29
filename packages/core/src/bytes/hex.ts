import { BintrieError, describeValue } from "@bintrie/codec";
import {
  bytesToHex as nobleBytesToHex,
  hexToBytes as nobleHexToBytes,
} from "@noble/hashes/utils.js";

/** Bytes or their hex text: what the account-level API takes (`0x` prefix optional). */
export type BytesLike = Uint8Array | string;

const HEX_DIGITS = /^(0x)?([0-9a-fA-F]{2})*$/;

/**
 * The bytes of a hex string, through noble's `hexToBytes`. The rule: a (lower-case) `0x` prefix is optional,
 * digits may be either case, and there must be an even number of them (`"0x"` and `""` are zero
 * bytes). Anything else is a BintrieError('INVALID_HEX') whose message names `what`.
 *
 * @example
 * ```ts
 * import { hexToBytes } from "@bintrie/core";
 *
 * hexToBytes("0x00ff"); // Uint8Array [0, 255]
 * hexToBytes("00FF"); // Uint8Array [0, 255]
 * ```
 */
export function hexToBytes(hex: string, what = "hex"): Uint8Array {
  if (typeof hex !== "string" || !HEX_DIGITS.test(hex)) {
    throw new BintrieError(
      "INVALID_HEX",
      `${String(what)}: ${describeValue(hex)} is not hex bytes (an optional 0x prefix, then an even number of hex digits)`,
    );
  }
  return nobleHexToBytes(hex.startsWith("0x") ? hex.slice(2) : hex);
}

/**
 * Lower-case `0x`-prefixed hex of `bytes`, through noble's `bytesToHex`. Anything but a
 * Uint8Array is a BintrieError('INVALID_ARGUMENT') naming `bytes`.
 *
 * @example
 * ```ts
 * import { bytesToHex } from "@bintrie/core";
 *
 * bytesToHex(new Uint8Array([0, 255])); // "0x00ff"
 * ```
 */
export function bytesToHex(bytes: Uint8Array): string {
  if (!(bytes instanceof Uint8Array)) {
    throw new BintrieError(
      "INVALID_ARGUMENT",
      `bytesToHex: bytes must be a Uint8Array, got ${describeValue(bytes)}`,
    );
  }
  return `0x${nobleBytesToHex(bytes)}`;
}

/**
 * `input` as bytes: a Uint8Array as is (not copied), a string through {@link hexToBytes}. For
 * the account-level API's edges; anything else is a BintrieError('INVALID_HEX') naming `what`.
 *
 * @example
 * ```ts
 * import { toBytes } from "@bintrie/core/bytes";
 *
 * toBytes("0x01", "address"); // Uint8Array [1]
 * ```
 */
export function toBytes(input: BytesLike, what: string): Uint8Array {
  if (input instanceof Uint8Array) return input;
  if (typeof input === "string") return hexToBytes(input, what);
  throw new BintrieError(
    "INVALID_HEX",
    `${String(what)} must be a Uint8Array or a hex string, got ${describeValue(input)}`,
  );
}
