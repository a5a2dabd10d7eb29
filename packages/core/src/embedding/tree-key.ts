import { getKeyDeriver } from "./key-deriver.js";
import type { KeyScheme } from "./key-scheme.js";
import type { StorageSlot } from "./storage-slot.js";

/**
 * One-call key derivation through the shared per-scheme {@link KeyDeriver}. For bulk work, hold
 * a deriver (`createKeyDeriver`) instead; the results are identical.
 */

/** H(12 zero bytes || address || tree_index as 32 bytes, BE or LE per scheme)[0..31) || subIndex. */
export function treeKey(
  scheme: KeyScheme,
  address: Uint8Array,
  treeIndex: bigint,
  subIndex: number,
): Uint8Array {
  return getKeyDeriver(scheme).treeKey(address, treeIndex, subIndex);
}

/** The 31-byte stem of `treeIndex` of `address`. */
export function treeStem(scheme: KeyScheme, address: Uint8Array, treeIndex: bigint): Uint8Array {
  return getKeyDeriver(scheme).treeStem(address, treeIndex);
}

/** The account stem (tree index 0). */
export function accountStem(scheme: KeyScheme, address: Uint8Array): Uint8Array {
  return getKeyDeriver(scheme).accountStem(address);
}

/** Key of the BASIC_DATA leaf. */
export function basicDataKey(scheme: KeyScheme, address: Uint8Array): Uint8Array {
  return getKeyDeriver(scheme).basicDataKey(address);
}

/** Key of the CODE_HASH leaf. */
export function codeHashKey(scheme: KeyScheme, address: Uint8Array): Uint8Array {
  return getKeyDeriver(scheme).codeHashKey(address);
}

/** Key of a storage slot (bigint, or exactly 32 big-endian bytes). */
export function storageSlotKey(
  scheme: KeyScheme,
  address: Uint8Array,
  slot: StorageSlot,
): Uint8Array {
  return getKeyDeriver(scheme).storageSlotKey(address, slot);
}

/** Key of code chunk `chunkIndex`. */
export function codeChunkKey(
  scheme: KeyScheme,
  address: Uint8Array,
  chunkIndex: number | bigint,
): Uint8Array {
  return getKeyDeriver(scheme).codeChunkKey(address, chunkIndex);
}
