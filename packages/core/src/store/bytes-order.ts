import { describeValue } from "@bintrie/codec";
import { StoreError } from "./store-error.js";

// The byte helpers here run in sort comparators and key loops: each checks its arguments with
// one `instanceof` (or `typeof`) test per argument and call, and throws
// StoreError('INVALID_ARGUMENT') naming the argument for anything else.

/**
 * Byte-wise lexicographic order, the order LevelDB and IndexedDB (for Uint8Array keys) use.
 *
 * @example
 * ```ts
 * import { compareBytes } from "@bintrie/core/bytes";
 *
 * [Uint8Array.of(2), Uint8Array.of(1, 9)].sort(compareBytes); // [[1, 9], [2]]
 * ```
 */
export function compareBytes(a: Uint8Array, b: Uint8Array): number {
  if (!(a instanceof Uint8Array) || !(b instanceof Uint8Array))
    throw notBytePair("compareBytes", a, b);
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const d = a[i]! - b[i]!;
    if (d !== 0) return d;
  }
  return a.length - b.length;
}

/**
 * Whether `a` and `b` hold the same bytes.
 *
 * @example
 * ```ts
 * import { equalBytes } from "@bintrie/core/bytes";
 *
 * equalBytes(Uint8Array.of(1, 2), Uint8Array.of(1, 2)); // true
 * ```
 */
export function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (!(a instanceof Uint8Array) || !(b instanceof Uint8Array))
    throw notBytePair("equalBytes", a, b);
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * A Map key for bytes without hex: one latin1 char per byte (cheaper than hex, and it sorts like
 * the bytes). {@link keyStringToBytes} inverts it.
 *
 * @example
 * ```ts
 * import { bytesToKeyString, keyStringToBytes } from "@bintrie/core/bytes";
 *
 * keyStringToBytes(bytesToKeyString(Uint8Array.of(0, 255))); // Uint8Array [0, 255]
 * ```
 */
export function bytesToKeyString(bytes: Uint8Array): string {
  if (!(bytes instanceof Uint8Array)) {
    throw new StoreError(
      "INVALID_ARGUMENT",
      `bytesToKeyString: bytes must be a Uint8Array, got ${describeValue(bytes)}`,
    );
  }
  let s = "";
  for (let i = 0; i < bytes.length; i++) s += String.fromCharCode(bytes[i]!);
  return s;
}

/**
 * The bytes of a {@link bytesToKeyString} key.
 *
 * @example
 * ```ts
 * import { keyStringToBytes } from "@bintrie/core/bytes";
 *
 * keyStringToBytes("\u0001"); // Uint8Array [1]
 * ```
 */
export function keyStringToBytes(s: string): Uint8Array {
  if (typeof s !== "string") {
    throw new StoreError(
      "INVALID_ARGUMENT",
      `keyStringToBytes: s must be a string, got ${describeValue(s)}`,
    );
  }
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
  return out;
}

function notBytePair(operation: string, a: unknown, b: unknown): StoreError {
  const [name, value] = a instanceof Uint8Array ? ["b", b] : ["a", a];
  return new StoreError(
    "INVALID_ARGUMENT",
    `${operation}: ${name} must be a Uint8Array, got ${describeValue(value)}`,
  );
}
