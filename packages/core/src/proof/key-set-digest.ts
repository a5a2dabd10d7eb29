import type { Hasher } from "../hash/hasher.js";
import { KEY_SET_DIGEST_BYTES } from "./proof-format.js";

/**
 * The first 8 bytes of H(k_0 || k_1 || ...) over the sorted distinct keys. Not a security
 * feature (the node hashes bind every answer to the root): it turns "this proof was made for
 * other keys" into a clear KEY_SET_MISMATCH instead of a confusing parse or root failure.
 */
export function keySetDigest(hasher: Hasher, sortedKeys: readonly Uint8Array[]): Uint8Array {
  const message = new Uint8Array(sortedKeys.length * 32);
  for (let i = 0; i < sortedKeys.length; i++) message.set(sortedKeys[i]!, i * 32);
  return hasher.digest(message).subarray(0, KEY_SET_DIGEST_BYTES);
}
