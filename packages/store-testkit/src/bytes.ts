import { bytesToHex, hexToBytes } from "@bintrie/core";

/** Unprefixed lower-case hex for assertions and Map keys (core's bytesToHex without the 0x). */
export function hex(bytes: Uint8Array): string {
  return bytesToHex(bytes).slice(2);
}

/** Bytes of hex text, `0x` optional (core's hexToBytes). */
export function fromHex(text: string): Uint8Array {
  return hexToBytes(text);
}

/** Deterministic pseudo-random bytes (xorshift32), so failures reproduce from the seed. */
export function prng(seed: number): (n: number) => Uint8Array {
  let x = seed >>> 0 || 0x9e3779b9;
  return (n: number) => {
    const out = new Uint8Array(n);
    for (let i = 0; i < n; i++) {
      x ^= x << 13;
      x >>>= 0;
      x ^= x >>> 17;
      x ^= x << 5;
      x >>>= 0;
      out[i] = x & 0xff;
    }
    return out;
  };
}
