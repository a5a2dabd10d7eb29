import { createRequire } from "node:module";
import { calculateSigRecovery, ecrecover as libraryEcrecover } from "@ethereumjs/util";

/** What is used of the `secp256k1` package's native binding (libsecp256k1). */
interface NativeSecp256k1 {
  ecdsaRecover(
    signature: Uint8Array,
    recovery: number,
    message: Uint8Array,
    compressed: boolean,
  ): Uint8Array;
}

// Loaded at run time from the package's node_modules (a native addon cannot be bundled).
const require = createRequire(import.meta.url);

let binding: NativeSecp256k1 | null | undefined;

/**
 * libsecp256k1 through the `secp256k1` package's prebuilt binding, or null where it has none
 * for this platform (its JavaScript fallback is no faster than the library's own).
 */
function nativeBinding(): NativeSecp256k1 | null {
  if (binding === undefined) {
    try {
      binding = require("secp256k1/bindings") as NativeSecp256k1;
    } catch {
      binding = null;
    }
  }
  return binding;
}

/** Whether sender recovery runs natively here (see ecrecover). */
export function hasNativeEcrecover(): boolean {
  return nativeBinding() !== null;
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
  const native = nativeBinding();
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
