import { describeValue } from "./describe-value.js";
import { CodecError } from "./errors.js";

// Internal guards for caller-supplied arguments; every failure is an INVALID_ARGUMENT CodecError so
// that nothing else (TypeError, RangeError from a typed array) escapes the public API.
//
// `what` names the argument at fault, usually as "functionName: argument". Callers on hot paths
// pass constant strings, so a check that passes allocates nothing; every check is O(1).

/** The INVALID_ARGUMENT error "`what` must be `expected`, got <value>". */
export function invalidArgument(what: string, expected: string, value: unknown): CodecError {
  return new CodecError(
    "INVALID_ARGUMENT",
    `${what} must be ${expected}, got ${describeValue(value)}`,
  );
}

/** A Uint8Array (or a subclass such as Node's Buffer); other typed arrays and plain arrays are not. */
export function assertBytes(what: string, value: unknown): asserts value is Uint8Array {
  if (!(value instanceof Uint8Array)) {
    throw invalidArgument(what, "a Uint8Array", value);
  }
}

export function assertByteLength(
  what: string,
  value: unknown,
  size: number,
): asserts value is Uint8Array {
  if (!(value instanceof Uint8Array)) {
    throw invalidArgument(what, `a Uint8Array of ${size} bytes`, value);
  }
  if (value.length !== size) {
    throw new CodecError(
      "INVALID_ARGUMENT",
      `${what} must be ${size} bytes, got ${value.length} bytes`,
    );
  }
}

export function assertIntegerInRange(
  what: string,
  value: unknown,
  min: number,
  max: number,
): asserts value is number {
  if (!Number.isInteger(value) || (value as number) < min || (value as number) > max) {
    throw invalidArgument(what, `an integer in ${min}..${max}`, value);
  }
}

export function assertBit(what: string, bit: unknown): asserts bit is 0 | 1 {
  if (bit !== 0 && bit !== 1) {
    throw invalidArgument(what, "0 or 1", bit);
  }
}

/**
 * An array or typed array (any object with an integer `length`): a list read by index. Strings
 * and functions are refused. The elements are the caller's to check.
 */
export function assertArrayLike(what: string, value: unknown): asserts value is ArrayLike<unknown> {
  if (
    typeof value !== "object" ||
    value === null ||
    !Number.isSafeInteger((value as { length?: unknown }).length) ||
    (value as ArrayLike<unknown>).length < 0
  ) {
    throw invalidArgument(what, "an array", value);
  }
}

/** An iterable object (an array, a Set, a generator...); strings are refused. */
export function assertIterable(what: string, value: unknown): asserts value is Iterable<unknown> {
  if (
    typeof value !== "object" ||
    value === null ||
    typeof (value as { [Symbol.iterator]?: unknown })[Symbol.iterator] !== "function"
  ) {
    throw invalidArgument(what, "an array or another iterable", value);
  }
}

/** A non-null object (a record such as a decoded blob or a group entry). */
export function assertObject(
  what: string,
  value: unknown,
  expected: string,
): asserts value is object {
  if (typeof value !== "object" || value === null) {
    throw invalidArgument(what, expected, value);
  }
}

/** Checks that `size` bytes fit into `out` (already checked to be a Uint8Array) at `offset`. */
/** Whether `size` bytes fit in `out` at `offset` (an integer >= 0). */
export function hasRoom(out: Uint8Array, offset: unknown, size: number): boolean {
  return (
    Number.isInteger(offset) && (offset as number) >= 0 && (offset as number) + size <= out.length
  );
}

export function assertRoomFor(what: string, out: Uint8Array, offset: unknown, size: number): void {
  if (!hasRoom(out, offset, size)) {
    throw new CodecError(
      "INVALID_ARGUMENT",
      `${what} needs ${size} bytes at offset ${describeValue(offset)}, but the output buffer is ${out.length} bytes`,
    );
  }
}
