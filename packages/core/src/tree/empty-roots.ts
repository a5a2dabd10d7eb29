import { isZero } from "../bytes/is-zero.js";
import { compareBytes } from "../store/bytes-order.js";

/**
 * The Merkle-Patricia trie's empty root, keccak256(rlp("")). go-ethereum hands it around as
 * "no state yet"; opening a binary tree at it (or at 32 zero bytes, EMPTY_HASH) gives the empty
 * tree. Treat as read-only.
 *
 * @example
 * ```ts
 * import { bytesToHex, EMPTY_MPT_ROOT } from "@bintrie/core";
 *
 * bytesToHex(EMPTY_MPT_ROOT); // "0x56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421"
 * ```
 */
export const EMPTY_MPT_ROOT: Uint8Array = Uint8Array.from([
  0x56, 0xe8, 0x1f, 0x17, 0x1b, 0xcc, 0x55, 0xa6, 0xff, 0x83, 0x45, 0xe6, 0x92, 0xc0, 0xf8, 0x6e,
  0x5b, 0x48, 0xe0, 0x1b, 0x99, 0x6c, 0xad, 0xc0, 0x01, 0x62, 0x2f, 0xb5, 0xe3, 0x63, 0xb4, 0x21,
]);

/**
 * Whether `root` stands for the empty tree: 32 zero bytes (EMPTY_HASH) or {@link EMPTY_MPT_ROOT}
 * (false for anything that is not 32 bytes).
 *
 * @example
 * ```ts
 * import { EMPTY_MPT_ROOT, isEmptyRoot } from "@bintrie/core";
 *
 * isEmptyRoot(new Uint8Array(32)); // true
 * isEmptyRoot(EMPTY_MPT_ROOT); // true
 * ```
 */
export function isEmptyRoot(root: Uint8Array): boolean {
  // Only a 32-byte root can be either (a shorter run of zero bytes is no root at all).
  if (!(root instanceof Uint8Array) || root.length !== 32) return false;
  return isZero(root) || compareBytes(root, EMPTY_MPT_ROOT) === 0;
}
