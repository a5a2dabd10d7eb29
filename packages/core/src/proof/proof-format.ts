import type { HashFunctionName } from "../hash/hasher.js";

/**
 * Constants of the proof byte encoding, version 1 (the README in this folder has the byte
 * diagram and the traversal grammar).
 *
 *   [version u8][hash id u8][key-set digest 8 bytes][LEB128 shape length n][shape n bytes][data]
 */

/** The only encoding version this code writes and reads. */
export const PROOF_VERSION = 1;

/** Bytes of the key-set digest: the first bytes of H(sorted distinct keys). */
export const KEY_SET_DIGEST_BYTES = 8;

/** version + hash id + digest. */
export const FIXED_HEADER_BYTES = 2 + KEY_SET_DIGEST_BYTES;

/** At most 4 LEB128 bytes for the shape length (2^28 bytes of shape bits is far beyond any proof). */
export const MAX_LENGTH_BYTES = 4;

/** Internal nodes exist at depths 0..247: the 248 stem bits each split once at most. */
export const MAX_INTERNAL_DEPTH = 247;

/** Levels of the binary tree over a stem's 256 leaves. */
export const STEM_LEVELS = 8;

const HASH_IDS: Record<HashFunctionName, number> = { sha256: 0x01, blake3: 0x02 };

/** The header byte naming the node hash function. */
export function hashId(name: HashFunctionName): number {
  return HASH_IDS[name];
}

/** The hash function of a header byte, or undefined for an unknown byte. */
export function hashNameOfId(id: number): HashFunctionName | undefined {
  if (id === 0x01) return "sha256";
  if (id === 0x02) return "blake3";
  return undefined;
}
