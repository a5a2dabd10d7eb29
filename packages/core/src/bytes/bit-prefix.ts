/**
 * Whether the first `bits` bits (MSB-first) of `a` and `b` agree: a tree path is a prefix of a
 * key or stem exactly when this holds for the path's length.
 *
 * @example
 * ```ts
 * import { equalBitPrefix } from "@bintrie/core/bytes";
 *
 * equalBitPrefix(Uint8Array.of(0b1010_0000), Uint8Array.of(0b1011_0000), 3); // true
 * equalBitPrefix(Uint8Array.of(0b1010_0000), Uint8Array.of(0b1011_0000), 4); // false
 * ```
 */
export function equalBitPrefix(a: Uint8Array, b: Uint8Array, bits: number): boolean {
  const whole = bits >>> 3;
  for (let i = 0; i < whole; i++) if (a[i] !== b[i]) return false;
  const rest = bits & 7;
  if (rest === 0) return true;
  const mask = (0xff00 >>> rest) & 0xff;
  return ((a[whole] ?? 0) & mask) === ((b[whole] ?? 0) & mask);
}
