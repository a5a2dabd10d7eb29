import { assertBytes } from "./argument-checks.js";

/**
 * Byte-wise (lexicographic) order of two path keys, as a database or Go's string comparison sorts
 * them; a key sorts before every longer key it prefixes. Returns -1, 0 or 1.
 *
 * @example
 * ```ts
 * import { comparePathKeys, encodePathKey } from "@bintrie/codec";
 *
 * const left = encodePathKey(new Uint8Array(32), 1); // path "0"
 * const right = encodePathKey(Uint8Array.of(0x80), 1); // path "1"
 * comparePathKeys(left, right) < 0; // true
 * ```
 */
export function comparePathKeys(a: Uint8Array, b: Uint8Array): number {
  assertBytes("comparePathKeys: a", a);
  assertBytes("comparePathKeys: b", b);
  const shared = Math.min(a.length, b.length);
  for (let i = 0; i < shared; i++) {
    const difference = a[i]! - b[i]!;
    if (difference !== 0) {
      return difference < 0 ? -1 : 1;
    }
  }
  if (a.length === b.length) {
    return 0;
  }
  return a.length < b.length ? -1 : 1;
}
