import { BintrieError, describeValue } from "@bintrie/codec";

/**
 * Whether `length` bytes of `bytes` from `offset` (default: all of it) are all zero. `bytes` not
 * a Uint8Array, or `offset`/`length` not numbers, is a BintrieError('INVALID_ARGUMENT') naming
 * the argument.
 *
 * @example
 * ```ts
 * import { isZero } from "@bintrie/core/bytes";
 *
 * isZero(new Uint8Array(32)); // true
 * isZero(Uint8Array.of(0, 1), 0, 1); // true
 * ```
 */
export function isZero(bytes: Uint8Array, offset = 0, length?: number): boolean {
  // One instanceof and two typeof tests per call: this runs in loops.
  if (
    !(bytes instanceof Uint8Array) ||
    typeof offset !== "number" ||
    (length !== undefined && typeof length !== "number")
  ) {
    throw badArgument(bytes, offset, length);
  }
  const end = length === undefined ? bytes.length : offset + length;
  for (let i = offset; i < end; i++) if (bytes[i] !== 0) return false;
  return true;
}

function badArgument(bytes: unknown, offset: unknown, length: unknown): BintrieError {
  const [what, value, expected] = !(bytes instanceof Uint8Array)
    ? ["bytes", bytes, "a Uint8Array"]
    : typeof offset !== "number"
      ? ["offset", offset, "a number"]
      : ["length", length, "a number"];
  return new BintrieError(
    "INVALID_ARGUMENT",
    `isZero: ${what} must be ${expected}, got ${describeValue(value)}`,
  );
}
