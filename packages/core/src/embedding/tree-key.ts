import type { BytesLike } from "../bytes/hex.js";
import { sharedKeyDeriver } from "./key-deriver.js";
import type { KeyScheme } from "./key-scheme.js";
import type { StorageSlotLike } from "./storage-slot.js";

// One-call key derivation through the shared per-scheme KeyDeriver. Addresses are 20 bytes (or
// 32 with 12 leading zeros), as bytes or `0x` hex. For bulk work with another hasher, hold a
// deriver (`new KeyDeriver(scheme, hasher)` from @bintrie/core/embedding); the keys are the same.

/**
 * H(12 zero bytes || address || tree_index as 32 bytes, BE or LE per scheme)[0..31) || subIndex.
 *
 * @example
 * ```ts
 * import { treeKey } from "@bintrie/core";
 *
 * const key = treeKey("sha256-be", "0x00000000000000000000000000000000000000aa", 0n, 0);
 * // key.length === 32
 * ```
 */
export function treeKey(
  scheme: KeyScheme,
  address: BytesLike,
  treeIndex: bigint,
  subIndex: number,
): Uint8Array {
  return sharedKeyDeriver(scheme).treeKey(address, treeIndex, subIndex);
}

/**
 * The 31-byte stem of `treeIndex` of `address`.
 *
 * @example
 * ```ts
 * import { treeStem } from "@bintrie/core";
 *
 * treeStem("sha256-be", "0x00000000000000000000000000000000000000aa", 1n).length; // 31
 * ```
 */
export function treeStem(scheme: KeyScheme, address: BytesLike, treeIndex: bigint): Uint8Array {
  return sharedKeyDeriver(scheme).treeStem(address, treeIndex);
}

/**
 * The account stem (tree index 0): basic data, code hash, header storage, first 128 code chunks.
 *
 * @example
 * ```ts
 * import { accountStem } from "@bintrie/core";
 *
 * accountStem("sha256-be", "0x00000000000000000000000000000000000000aa").length; // 31
 * ```
 */
export function accountStem(scheme: KeyScheme, address: BytesLike): Uint8Array {
  return sharedKeyDeriver(scheme).accountStem(address);
}

/**
 * Key of the BASIC_DATA leaf (account stem, subindex 0).
 *
 * @example
 * ```ts
 * import { basicDataKey } from "@bintrie/core";
 *
 * basicDataKey("sha256-be", "0x00000000000000000000000000000000000000aa")[31]; // 0
 * ```
 */
export function basicDataKey(scheme: KeyScheme, address: BytesLike): Uint8Array {
  return sharedKeyDeriver(scheme).basicDataKey(address);
}

/**
 * Key of the CODE_HASH leaf (account stem, subindex 1).
 *
 * @example
 * ```ts
 * import { codeHashKey } from "@bintrie/core";
 *
 * codeHashKey("sha256-be", "0x00000000000000000000000000000000000000aa")[31]; // 1
 * ```
 */
export function codeHashKey(scheme: KeyScheme, address: BytesLike): Uint8Array {
  return sharedKeyDeriver(scheme).codeHashKey(address);
}

/**
 * Key of a storage slot: a bigint, exactly 32 big-endian bytes, or a `0x` hex quantity.
 *
 * @example
 * ```ts
 * import { storageSlotKey } from "@bintrie/core";
 *
 * const address = "0x00000000000000000000000000000000000000aa";
 * storageSlotKey("sha256-be", address, "0x05")[31]; // 69: header slot 5 at subindex 64 + 5
 * ```
 */
export function storageSlotKey(
  scheme: KeyScheme,
  address: BytesLike,
  slot: StorageSlotLike,
): Uint8Array {
  return sharedKeyDeriver(scheme).storageSlotKey(address, slot);
}

/**
 * Key of code chunk `chunkIndex` (position 128 + chunkIndex).
 *
 * @example
 * ```ts
 * import { codeChunkKey } from "@bintrie/core";
 *
 * codeChunkKey("sha256-be", "0x00000000000000000000000000000000000000aa", 0)[31]; // 128
 * ```
 */
export function codeChunkKey(
  scheme: KeyScheme,
  address: BytesLike,
  chunkIndex: number | bigint,
): Uint8Array {
  return sharedKeyDeriver(scheme).codeChunkKey(address, chunkIndex);
}
