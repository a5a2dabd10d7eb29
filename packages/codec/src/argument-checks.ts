import { CodecError } from "./errors.js";

// Internal guards for caller-supplied arguments; every failure is an INVALID_ARGUMENT CodecError so
// that nothing else (TypeError, RangeError from a typed array) escapes the public API.

export function assertByteLength(what: string, value: Uint8Array, size: number): void {
  if (!(value instanceof Uint8Array)) {
    throw new CodecError("INVALID_ARGUMENT", `${what} must be a Uint8Array of ${size} bytes`);
  }
  if (value.length !== size) {
    throw new CodecError(
      "INVALID_ARGUMENT",
      `${what} must be ${size} bytes, got ${value.length} bytes`,
    );
  }
}

export function assertIntegerInRange(what: string, value: number, min: number, max: number): void {
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new CodecError(
      "INVALID_ARGUMENT",
      `${what} must be an integer in ${min}..${max}, got ${String(value)}`,
    );
  }
}

export function assertBit(what: string, bit: number): void {
  if (bit !== 0 && bit !== 1) {
    throw new CodecError("INVALID_ARGUMENT", `${what} must be 0 or 1, got ${String(bit)}`);
  }
}

/** Checks that `size` bytes fit into `out` at `offset` before anything is written. */
export function assertRoomFor(what: string, out: Uint8Array, offset: number, size: number): void {
  if (!Number.isInteger(offset) || offset < 0 || offset + size > out.length) {
    throw new CodecError(
      "INVALID_ARGUMENT",
      `${what} needs ${size} bytes at offset ${String(offset)}, but the output buffer is ${out.length} bytes`,
    );
  }
}
