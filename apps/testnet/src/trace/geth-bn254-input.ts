import { bytesToBigInt } from "@ethereumjs/util";

/** The BN254 base field's modulus. */
const P = 0x30644e72e131a029b85045b68181585d97816a916871ca8d3c208c16d87cfd47n;
/** A pairing's input is pairs of a G1 point (64 bytes) and a G2 point (128 bytes). */
const PAIR = 192;

/**
 * The error geth gives the BN254 precompile at `address` (6 add, 7 multiply, 8 pairing) for
 * `input`, as far as its G1 points tell (geth decodes them with gnark: a coordinate not below
 * the modulus, a point off y² = x³ + 3; G1's cofactor is 1): undefined where they are sound
 * and the fault, if any, is elsewhere (a G2 point of a pairing).
 */
export function gethBn254InputError(address: number, input: Uint8Array): string | undefined {
  if (address === 0x06) return g1Error(input, 0) ?? g1Error(input, 64);
  if (address === 0x07) return g1Error(input, 0);
  if (address !== 0x08) return undefined;
  if (input.length % PAIR !== 0) return "bad elliptic curve pairing size";
  for (let at = 0; at < input.length; at += PAIR) {
    const error = g1Error(input, at);
    if (error !== undefined) return error;
  }
  return undefined;
}

/** geth's G1 decoding of the 64 bytes at `at` (the input zero-padded, as geth pads it). */
function g1Error(input: Uint8Array, at: number): string | undefined {
  const point = new Uint8Array(64);
  point.set(input.subarray(at, at + 64));
  if (point.every((b) => b === 0)) return undefined;
  const x = bytesToBigInt(point.subarray(0, 32));
  const y = bytesToBigInt(point.subarray(32));
  if (x >= P || y >= P) return "invalid fp.Element encoding";
  return (y * y) % P === (x * x * x + 3n) % P ? undefined : "point is not on curve";
}
