import { keccak_256 } from "@noble/hashes/sha3.js";

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, "0"));

/** Lower-case hex without a 0x prefix. */
export function toHex(bytes: Uint8Array): string {
  let s = "";
  for (let i = 0; i < bytes.length; i++) s += HEX[bytes[i]!]!;
  return s;
}

/** 0x-prefixed lower-case hex, for messages. */
export function show(bytes: Uint8Array): string {
  return `0x${toHex(bytes)}`;
}

/** Decodes hex (optional 0x prefix, even length, already validated by the caller). */
export function fromHex(hex: string): Uint8Array {
  const start = hex.startsWith("0x") || hex.startsWith("0X") ? 2 : 0;
  const out = new Uint8Array((hex.length - start) >>> 1);
  for (let i = 0; i < out.length; i++) {
    out[i] = Number.parseInt(hex.slice(start + 2 * i, start + 2 * i + 2), 16);
  }
  return out;
}

export function concatBytes(a: Uint8Array, b: Uint8Array, c?: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length + (c?.length ?? 0));
  out.set(a, 0);
  out.set(b, a.length);
  if (c !== undefined) out.set(c, a.length + b.length);
  return out;
}

export function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

export function isZero(bytes: Uint8Array): boolean {
  for (let i = 0; i < bytes.length; i++) if (bytes[i] !== 0) return false;
  return true;
}

/** The smallest byte string of the same length greater than `bytes`, or undefined at all-0xff. */
export function increment(bytes: Uint8Array): Uint8Array | undefined {
  const out = bytes.slice();
  for (let i = out.length - 1; i >= 0; i--) {
    if (out[i] !== 0xff) {
      out[i]! += 1;
      return out;
    }
    out[i] = 0;
  }
  return undefined;
}

/** Left-pads to 32 bytes (MPT storage values are stored without leading zeros). */
export function padTo32(value: Uint8Array): Uint8Array {
  if (value.length === 32) return value;
  const out = new Uint8Array(32);
  out.set(value.subarray(Math.max(0, value.length - 32)), Math.max(0, 32 - value.length));
  return out;
}

/** Drops leading zero bytes (the MPT's storage value encoding). */
export function trimLeadingZeros(value: Uint8Array): Uint8Array {
  let i = 0;
  while (i < value.length && value[i] === 0) i++;
  return value.subarray(i);
}

export function keccak256(data: Uint8Array): Uint8Array {
  return keccak_256(data);
}

export const ZERO32: Uint8Array = new Uint8Array(32);

/** The MPT root of an empty trie: keccak256(rlp("")). */
export const EMPTY_TRIE_ROOT: Uint8Array = fromHex(
  "56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421",
);

/** Bytes of an ASCII string (store key prefixes). */
export function ascii(text: string): Uint8Array {
  return Uint8Array.from(text, (c) => c.charCodeAt(0));
}

/** A Map key for bytes (one char per byte; cheaper than hex). */
export function bytesToKeyString(bytes: Uint8Array): string {
  let s = "";
  for (let i = 0; i < bytes.length; i++) s += String.fromCharCode(bytes[i]!);
  return s;
}

export function keyStringToBytes(key: string): Uint8Array {
  const out = new Uint8Array(key.length);
  for (let i = 0; i < key.length; i++) out[i] = key.charCodeAt(i);
  return out;
}
