/**
 * Whether `length` bytes of `bytes` from `offset` (default: all of it) are all zero.
 *
 * @example
 * ```ts
 * import { isZero } from "@bintrie/core/bytes";
 *
 * isZero(new Uint8Array(32)); // true
 * isZero(Uint8Array.of(0, 1), 0, 1); // true
 * ```
 */
export function isZero(bytes: Uint8Array, offset = 0, length = bytes.length - offset): boolean {
  for (let i = offset, end = offset + length; i < end; i++) if (bytes[i] !== 0) return false;
  return true;
}
