import { bytesToBigInt } from "@ethereumjs/util";
import { bls12_381 } from "@noble/curves/bls12-381.js";

/** geth's words around the KZG library's error (core/vm/contracts.go). */
const PREFIX = "error verifying kzg proof: ";

/**
 * The error geth gives the point evaluation (0x0a) for a 192-byte input whose versioned hash
 * matches its commitment but whose proof does not verify, as go-eth-kzg's VerifyKZGProof
 * reports it: the claimed value y, then the point z (each below the scalar field's order), then
 * the commitment and the proof (compressed G1 points, decoded as gnark-crypto decodes them),
 * then the opening check itself. The library words all of these alike.
 */
export function gethPointEvaluationError(input: Uint8Array): string {
  const order = bls12_381.fields.Fr.ORDER;
  if (
    bytesToBigInt(input.subarray(64, 96)) >= order ||
    bytesToBigInt(input.subarray(32, 64)) >= order
  ) {
    return `${PREFIX}scalar is not canonical when interpreted as a big integer in big-endian`;
  }
  const fault = g1Error(input.subarray(96, 144)) ?? g1Error(input.subarray(144, 192));
  return PREFIX + (fault ?? "can't verify opening proof");
}

/**
 * gnark-crypto's G1Affine.SetBytes of 48 bytes: the top three bits of the first byte say the
 * form (100, 101 compressed, 110 the point at infinity; 000 and 010 are the 96-byte forms, too
 * long for this buffer; 001, 011, 111 no form at all), then x below the modulus, a y for it on
 * the curve (y² = x³ + 4), and the point in the prime-order subgroup.
 */
function g1Error(point: Uint8Array): string | undefined {
  const form = point[0]! & 0xe0;
  if (form === 0x20 || form === 0x60 || form === 0xe0) return "invalid point encoding";
  if (form === 0x00 || form === 0x40) return "short buffer";
  const rest = point.subarray(1).some((b) => b !== 0) || (point[0]! & 0x1f) !== 0;
  if (form === 0xc0) return rest ? "invalid infinity point encoding" : undefined;
  const bytes = point.slice();
  bytes[0]! &= 0x1f;
  const x = bytesToBigInt(bytes);
  const { Fp } = bls12_381.fields;
  if (x >= Fp.ORDER) return "invalid fp.Element encoding";
  let y: bigint;
  try {
    y = Fp.sqrt(Fp.add(Fp.mul(Fp.sqr(x), x), 4n));
  } catch {
    return "invalid compressed coordinate: square root doesn't exist";
  }
  // Either root: the subgroup holds a point or its negation alike.
  return bls12_381.G1.Point.fromAffine({ x, y }).isTorsionFree()
    ? undefined
    : "invalid point: subgroup check failed";
}
