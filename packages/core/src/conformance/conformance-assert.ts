import { bytesToHex } from "@noble/hashes/utils.js";
import { compareBytes } from "../store/bytes-order.js";

/** Thrown by the suite's own assertions (so it needs no assertion library). */
export class ConformanceFailure extends Error {
  override readonly name = "ConformanceFailure";
}

/** Plain hex (no 0x) for failure messages and order comparisons. */
export const hex = bytesToHex;

export function fail(message: string): never {
  throw new ConformanceFailure(message);
}

export function equalValue(
  actual: Uint8Array | undefined,
  expected: Uint8Array | undefined,
  what: string,
): void {
  if (actual === undefined || expected === undefined) {
    if (actual !== expected) {
      fail(
        `${what}: expected ${expected === undefined ? "undefined" : hex(expected)}, got ${actual === undefined ? "undefined" : hex(actual)}`,
      );
    }
    return;
  }
  if (!(actual instanceof Uint8Array)) fail(`${what}: expected a Uint8Array, got ${typeof actual}`);
  if (actual.length !== expected.length || compareBytes(actual, expected) !== 0) {
    fail(
      `${what}: expected ${hex(expected).slice(0, 80)} (${expected.length} bytes), got ${hex(actual).slice(0, 80)} (${actual.length} bytes)`,
    );
  }
}
