import { bytesToHex, equalBytes } from "@bintrie/core/bytes";
import { keccak256 } from "./bytes.js";
import type { PreimageSource } from "./preimage-source.js";
import { TransitionError } from "./transition-error.js";

/**
 * The preimage of a hashed MPT key, checked: it must exist (else MISSING_PREIMAGE naming the
 * hashed key), have the expected length and hash back to the key (else BAD_PREIMAGE) — a wrong
 * preimage would put the value under the wrong binary key without any other sign.
 */
export async function lookupPreimage(
  source: PreimageSource,
  hashedKey: Uint8Array,
  kind: "account" | "storage slot",
  context = "",
): Promise<Uint8Array> {
  let found = source.preimage(hashedKey);
  if (found !== undefined && !(found instanceof Uint8Array)) found = await found;
  if (found === undefined) {
    throw new TransitionError(
      "MISSING_PREIMAGE",
      `no preimage for hashed ${kind} key ${bytesToHex(hashedKey)}${context}`,
      hashedKey.slice(),
    );
  }
  const length = kind === "account" ? 20 : 32;
  if (
    !(found instanceof Uint8Array) ||
    found.length !== length ||
    !equalBytes(keccak256(found), hashedKey)
  ) {
    throw new TransitionError(
      "BAD_PREIMAGE",
      `preimage for hashed ${kind} key ${bytesToHex(hashedKey)}${context} is wrong: expected ${length} bytes hashing to the key, got ${found instanceof Uint8Array ? bytesToHex(found) : typeof found}`,
      hashedKey.slice(),
    );
  }
  return found;
}
