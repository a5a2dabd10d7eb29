import { BintrieError } from "@bintrie/codec";
import { bytesToHex } from "@noble/hashes/utils.js";
import { compareBytes } from "../store/bytes-order.js";

/**
 * Thrown by the suite's own assertions (so it needs no assertion library): a store that breaks
 * the contract. Part of the error family, code "CONFORMANCE_FAILURE".
 *
 * @example
 * ```ts
 * import { ConformanceFailure } from "@bintrie/core/conformance";
 *
 * const failure = new ConformanceFailure("getMany returned 2 values for 3 keys");
 * failure.code; // "CONFORMANCE_FAILURE"
 * ```
 */
export class ConformanceFailure extends BintrieError<"CONFORMANCE_FAILURE"> {
  override name = "ConformanceFailure";

  constructor(message: string) {
    super("CONFORMANCE_FAILURE", message);
  }
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

/** Fails unless `attempt` throws or rejects with an error whose `code` is `code`. */
export async function expectErrorCode(
  name: string,
  attempt: () => Promise<unknown>,
  code: string,
): Promise<void> {
  let error: unknown;
  try {
    await attempt();
  } catch (e) {
    error = e;
  }
  if (error === undefined) fail(`${name} must reject with code ${code}, got no error`);
  const got = (error as { code?: unknown }).code;
  if (got !== code)
    fail(`${name} must reject with code ${code}, got ${String(got)}: ${String(error)}`);
}
