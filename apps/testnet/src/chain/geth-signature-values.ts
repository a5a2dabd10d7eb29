import {
  bigIntToBytes,
  bytesToHex,
  ecrecover,
  publicToAddress,
  setLengthLeft,
  toChecksumAddress,
} from "@ethereumjs/util";

/**
 * geth's rules for a transaction's V, R, S (core/types/transaction_signing.go, crypto): which
 * legacy V is replay-protected, the chain id it carries, and the values its sender recovery
 * accepts. Shared by the JSON check of a signed transaction and the txs.rlp decoding.
 */

/** secp256k1's group order. */
export const SECP256K1_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

const U64_MASK = (1n << 64n) - 1n;

/** geth's reason for signature values its sender check refuses (crypto.ValidateSignatureValues). */
export const INVALID_SIGNATURE_VALUES = "invalid transaction v, r, s values";

/** Whether geth reads a legacy V as EIP-155's (isProtectedV): anything but 0, 1, 27 and 28. */
export function isProtectedV(v: bigint): boolean {
  return v >= 256n || (v !== 27n && v !== 28n && v !== 1n && v !== 0n);
}

/**
 * The chain id geth derives from a legacy V (deriveChainId): 0 for 27 and 28, else (V - 35) / 2,
 * in uint64 arithmetic while V fits 64 bits (V 5 gives 2^63 - 15), exactly above.
 */
export function legacyChainId(v: bigint): bigint {
  if (v === 27n || v === 28n) return 0n;
  return v <= U64_MASK ? ((v - 35n) & U64_MASK) >> 1n : (v - 35n) >> 1n;
}

/**
 * geth's recoverPlain check of a V that should be 27 or 28 after the signer took its chain id
 * out: at most 8 bits, then (as a byte, V - 27 wrapping) a recovery id of 0 or 1 with R and S in
 * range (crypto.ValidateSignatureValues; `homestead`: S in the lower half). The recovery id, or
 * undefined where geth refuses the values.
 */
export function recoveryId(
  v: bigint,
  r: bigint,
  s: bigint,
  homestead: boolean,
): number | undefined {
  if (v < 0n || v >= 256n) return undefined;
  const id = Number((v - 27n) & 0xffn);
  if (id > 1 || r < 1n || s < 1n || r >= SECP256K1_N || s >= SECP256K1_N) return undefined;
  if (homestead && s > SECP256K1_N / 2n) return undefined;
  return id;
}

/** geth's reason for a signature its secp256k1 recovery finds no public key for (R no point's x). */
export const NO_CURVE_POINT = "signature is not for a valid curve point";

/**
 * Whether geth's signer takes a typed transaction's V, R, S: its V is the recovery id itself,
 * to which geth adds 27 before the homestead check (S in the lower half).
 */
export function typedSignatureValid(v: bigint, r: bigint, s: bigint): boolean {
  return recoveryId(v + 27n, r, s, true) !== undefined;
}

/** geth's reason for a transaction signed for another chain (ErrInvalidChainId). */
export function invalidChainId(have: bigint | string, want: bigint): string {
  return `invalid chain id for signer: have ${have} want ${want}`;
}

/**
 * The checksummed address a signature of `hash` recovers (recovery id 0 or 1, R and S in range);
 * throws where R is no point's x (geth's NO_CURVE_POINT).
 */
export function recoverSender(hash: Uint8Array, id: number, r: bigint, s: bigint): string {
  const key = ecrecover(
    hash,
    BigInt(id) + 27n,
    setLengthLeft(bigIntToBytes(r), 32),
    setLengthLeft(bigIntToBytes(s), 32),
  );
  return toChecksumAddress(bytesToHex(publicToAddress(key)));
}
