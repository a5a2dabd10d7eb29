import { calculateSigRecovery, ecrecover as libraryEcrecover } from "@ethereumjs/util";
import { nativeSecp256k1 } from "./native-secp256k1.js";

/** Whether sender recovery runs natively here (see ecrecover). */
export function hasNativeEcrecover(): boolean {
  return nativeSecp256k1() !== null;
}

/**
 * `@ethereumjs/util`'s `ecrecover` (the 64-byte public key of a signature's signer), done by
 * libsecp256k1 where its binding loads: the library's pure-JavaScript recovery was 38 % of
 * running geth's UBT chains (a block's every transaction is recovered as the block is
 * validated), about 1.5 ms a signature against 0.06 ms. The ECRECOVER precompile calls it too,
 * with whatever a contract passes: whatever the binding does not recover — a recovery value
 * other than 0 or 1, an r or s longer than 32 bytes, a digest not 32 bytes, a signature it
 * refuses (r or s zero or past the order) — goes to the library's function, so results and
 * errors stay its own.
 */
export function ecrecover(
  msgHash: Uint8Array,
  v: bigint,
  r: Uint8Array,
  s: Uint8Array,
  chainId?: bigint,
): Uint8Array {
  const native = nativeSecp256k1();
  const recovery = calculateSigRecovery(v, chainId);
  if (
    native === null ||
    (recovery !== 0n && recovery !== 1n) ||
    r.length > 32 ||
    s.length > 32 ||
    msgHash.length !== 32
  ) {
    return libraryEcrecover(msgHash, v, r, s, chainId);
  }
  const signature = new Uint8Array(64);
  signature.set(r, 32 - r.length);
  signature.set(s, 64 - s.length);
  let key: Uint8Array;
  try {
    key = native.ecdsaRecover(signature, Number(recovery), msgHash, false);
  } catch {
    return libraryEcrecover(msgHash, v, r, s, chainId);
  }
  return key.slice(1);
}
