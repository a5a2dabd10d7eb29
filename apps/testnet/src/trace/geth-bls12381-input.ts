import { bytesToBigInt } from "@ethereumjs/util";
import { bls12_381 } from "@noble/curves/bls12-381.js";
import { twistCoefficient } from "./twist-coefficient.js";

const INVALID_LENGTH = "invalid input length";
/** A 64-byte field element: 16 zero bytes, then the element, big-endian. */
const ELEMENT = 64;
const G1_POINT = 2 * ELEMENT;
const G2_POINT = 4 * ELEMENT;
const SCALAR = 32;

/**
 * The error geth gives the EIP-2537 precompile at `address` (0x0b..0x11) for `input`, as geth
 * (core/vm/contracts.go over gnark) decodes it: the length, then point by point in input order
 * each field element (its top 16 bytes zero, the rest below the modulus), the point on its curve,
 * and where the precompile asks it (the MSMs after each point, the pairing after each pair, G1
 * then G2) the prime-order subgroup. Undefined where geth decodes the whole input (or for another
 * address). The library checks every element's top bytes before any point, so a fault it reports
 * may not be the first one geth meets.
 */
export function gethBls12381InputError(address: number, input: Uint8Array): string | undefined {
  switch (address) {
    case 0x0b:
      if (input.length !== 2 * G1_POINT) return INVALID_LENGTH;
      return g1Error(input, 0, false) ?? g1Error(input, G1_POINT, false);
    case 0x0c:
      return pairsError(input, G1_POINT + SCALAR, (at) => g1Error(input, at, true));
    case 0x0d:
      if (input.length !== 2 * G2_POINT) return INVALID_LENGTH;
      return g2Error(input, 0, false) ?? g2Error(input, G2_POINT, false);
    case 0x0e:
      return pairsError(input, G2_POINT + SCALAR, (at) => g2Error(input, at, true));
    case 0x0f:
      return pairsError(input, G1_POINT + G2_POINT, (at) => {
        const decoded = g1Error(input, at, false) ?? g2Error(input, at + G1_POINT, false);
        if (decoded !== undefined) return decoded;
        if (!g1(input, at).isTorsionFree()) return "g1 point is not on correct subgroup";
        if (!g2(input, at + G1_POINT).isTorsionFree()) return "g2 point is not on correct subgroup";
        return undefined;
      });
    case 0x10:
      if (input.length !== ELEMENT) return INVALID_LENGTH;
      return elementError(input, 0);
    case 0x11:
      if (input.length !== 2 * ELEMENT) return INVALID_LENGTH;
      return elementError(input, 0) ?? elementError(input, ELEMENT);
    default:
      return undefined;
  }
}

/** An input of `size`-byte records (at least one), each checked by `check` in turn. */
function pairsError(
  input: Uint8Array,
  size: number,
  check: (at: number) => string | undefined,
): string | undefined {
  if (input.length === 0 || input.length % size !== 0) return INVALID_LENGTH;
  for (let at = 0; at < input.length; at += size) {
    const error = check(at);
    if (error !== undefined) return error;
  }
  return undefined;
}

/** geth's decodeBLS12381FieldElement of the 64 bytes at `at`. */
function elementError(input: Uint8Array, at: number): string | undefined {
  for (let i = 0; i < 16; i++) {
    if (input[at + i] !== 0) return "invalid field element top bytes";
  }
  return element(input, at) >= bls12_381.fields.Fp.ORDER
    ? "invalid fp.Element encoding"
    : undefined;
}

function element(input: Uint8Array, at: number): bigint {
  return bytesToBigInt(input.subarray(at + 16, at + ELEMENT));
}

/** geth's decodePointG1 (x, y), then its subgroup check where `subgroup`. */
function g1Error(input: Uint8Array, at: number, subgroup: boolean): string | undefined {
  const decoded = elementError(input, at) ?? elementError(input, at + ELEMENT);
  if (decoded !== undefined) return decoded;
  const { Fp } = bls12_381.fields;
  const x = element(input, at);
  const y = element(input, at + ELEMENT);
  // (0, 0) is the point at infinity, on the curve (y² = x³ + 4 otherwise).
  const onCurve = (x === 0n && y === 0n) || Fp.eql(Fp.sqr(y), Fp.add(Fp.mul(Fp.sqr(x), x), 4n));
  if (!onCurve) return "invalid point: not on curve";
  if (subgroup && !g1(input, at).isTorsionFree()) return "g1 point is not on correct subgroup";
  return undefined;
}

/** geth's decodePointG2 (x.0, x.1, y.0, y.1), then its subgroup check where `subgroup`. */
function g2Error(input: Uint8Array, at: number, subgroup: boolean): string | undefined {
  for (let k = 0; k < 4; k++) {
    const decoded = elementError(input, at + k * ELEMENT);
    if (decoded !== undefined) return decoded;
  }
  const { Fp2 } = bls12_381.fields;
  const { x, y } = g2Coordinates(input, at);
  const infinity = Fp2.is0(x) && Fp2.is0(y);
  if (!infinity && !Fp2.eql(Fp2.sqr(y), Fp2.add(Fp2.mul(Fp2.sqr(x), x), twistB()))) {
    return "invalid point: not on curve";
  }
  if (subgroup && !g2(input, at).isTorsionFree()) return "g2 point is not on correct subgroup";
  return undefined;
}

function g1(input: Uint8Array, at: number) {
  const x = element(input, at);
  const y = element(input, at + ELEMENT);
  const { Point } = bls12_381.G1;
  return x === 0n && y === 0n ? Point.ZERO : Point.fromAffine({ x, y });
}

function g2(input: Uint8Array, at: number) {
  const { x, y } = g2Coordinates(input, at);
  const { Fp2 } = bls12_381.fields;
  const { Point } = bls12_381.G2;
  return Fp2.is0(x) && Fp2.is0(y) ? Point.ZERO : Point.fromAffine({ x, y });
}

function g2Coordinates(input: Uint8Array, at: number) {
  const { Fp2 } = bls12_381.fields;
  const word = (k: number) => element(input, at + k * ELEMENT);
  return { x: Fp2.fromBigTuple([word(0), word(1)]), y: Fp2.fromBigTuple([word(2), word(3)]) };
}

let twistBValue: ReturnType<typeof bls12_381.fields.Fp2.fromBigTuple> | undefined;

/** The twist's b' = 4 (1 + u), once. */
function twistB() {
  twistBValue ??= twistCoefficient(bls12_381.fields.Fp2, bls12_381.G2.Point.BASE.toAffine());
  return twistBValue;
}
