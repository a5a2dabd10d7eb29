import { bytesToBigInt } from "@ethereumjs/util";
import { bn254 } from "@noble/curves/bn254.js";
import { twistCoefficient } from "./twist-coefficient.js";

/** The BN254 base field's modulus. */
const P = 0x30644e72e131a029b85045b68181585d97816a916871ca8d3c208c16d87cfd47n;
/** A pairing's input is pairs of a G1 point (64 bytes) and a G2 point (128 bytes). */
const PAIR = 192;

/**
 * The error geth gives the BN254 precompile at `address` (6 add, 7 multiply, 8 pairing) for
 * `input`, as its points tell (geth decodes them with gnark, a pairing's pair by pair, G1 then
 * G2: a coordinate not below the modulus, a point off its curve, a G2 point outside the
 * prime-order subgroup; G1's cofactor is 1): undefined where they are sound.
 */
export function gethBn254InputError(address: number, input: Uint8Array): string | undefined {
  if (address === 0x06) return g1Error(input, 0) ?? g1Error(input, 64);
  if (address === 0x07) return g1Error(input, 0);
  if (address !== 0x08) return undefined;
  if (input.length % PAIR !== 0) return "bad elliptic curve pairing size";
  for (let at = 0; at < input.length; at += PAIR) {
    const error = g1Error(input, at) ?? g2Error(input.subarray(at + 64, at + PAIR));
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

/**
 * geth's G2 decoding of 128 bytes, x.1 ‖ x.0 ‖ y.1 ‖ y.0 (all zero: the point at infinity):
 * each coordinate below the modulus, then y² = x³ + b' on the twist, then the subgroup.
 */
function g2Error(point: Uint8Array): string | undefined {
  if (point.every((b) => b === 0)) return undefined;
  const words = [0, 32, 64, 96].map((at) => bytesToBigInt(point.subarray(at, at + 32)));
  if (words.some((word) => word >= P)) return "invalid fp.Element encoding";
  const { Fp2 } = bn254.fields;
  const x = Fp2.fromBigTuple([words[1]!, words[0]!]);
  const y = Fp2.fromBigTuple([words[3]!, words[2]!]);
  if (!Fp2.eql(Fp2.sqr(y), Fp2.add(Fp2.mul(Fp2.sqr(x), x), twistB()))) {
    return "point is not on curve";
  }
  return bn254.G2.Point.fromAffine({ x, y }).isTorsionFree()
    ? undefined
    : "point is not in correct subgroup";
}

let twistBValue: ReturnType<typeof bn254.fields.Fp2.fromBigTuple> | undefined;

/** The twist's b' = 3 / (9 + u), once. */
function twistB() {
  twistBValue ??= twistCoefficient(bn254.fields.Fp2, bn254.G2.Point.BASE.toAffine());
  return twistBValue;
}
