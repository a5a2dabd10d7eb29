import type { ECDSASignOpts } from "@noble/curves/abstract/weierstrass.js";
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { nativeSecp256k1 } from "./native-secp256k1.js";

/**
 * The library's signing function (`customCrypto.ecsign`: noble's `secp256k1.sign`), done by
 * libsecp256k1 where its binding loads, for what the library asks of it when it signs a
 * transaction with a key (`t8n`'s `secretKey`, the devnet's and a chain fill's senders): a
 * 32-byte digest signed as it is, RFC 6979's deterministic nonce, s in the lower half, the
 * recovery byte first (`"recovered"`). libsecp256k1 makes the same signature (RFC 6979 with
 * SHA-256, low s); noble's first signature in a process builds its precomputed tables (about
 * 35 ms of a small `t8n`), and each signs in about 1 ms against 0.05 ms. Anything else — extra
 * entropy, another format, hashing first, low s off, a digest not 32 bytes, a key the binding
 * refuses — goes to noble's function, so results and errors stay its own.
 */
export function ecsign(
  message: Uint8Array,
  secretKey: Uint8Array,
  opts: ECDSASignOpts = {},
): Uint8Array<ArrayBuffer> {
  const native = nativeSecp256k1();
  const entropy = opts.extraEntropy;
  if (
    native === null ||
    (entropy !== undefined && entropy !== false) ||
    opts.format !== "recovered" ||
    opts.prehash !== false ||
    opts.lowS === false ||
    message.length !== 32 ||
    secretKey.length !== 32
  ) {
    return secp256k1.sign(message, secretKey, opts);
  }
  let signed: { signature: Uint8Array; recid: number };
  try {
    signed = native.ecdsaSign(message, secretKey);
  } catch {
    return secp256k1.sign(message, secretKey, opts);
  }
  const out = new Uint8Array(65);
  out[0] = signed.recid;
  out.set(signed.signature, 1);
  return out;
}
