import { keccak_256 } from "@noble/hashes/sha3.js";

// Byte helpers only the transition needs. Hex, equality, zero checks, Map keys and the MPT empty
// root come from @bintrie/core (one definition in the repository).

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

/** Bytes of an ASCII string (store key prefixes). */
export function ascii(text: string): Uint8Array {
  return Uint8Array.from(text, (c) => c.charCodeAt(0));
}
