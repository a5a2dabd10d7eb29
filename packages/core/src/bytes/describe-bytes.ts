import { describeValue } from "@bintrie/codec";
import { bytesToHex } from "./hex.js";

/** Bytes of a Uint8Array `describeBytes` shows. */
const SHOWN_BYTES = 40;

/**
 * What an error message says a caller passed where bytes were expected (a key, a value, a
 * root): the first bytes of a Uint8Array in hex and its length, anything else as codec's
 * `describeValue` says it.
 */
export function describeBytes(x: unknown): string {
  if (!(x instanceof Uint8Array)) return describeValue(x);
  const shown = bytesToHex(x.subarray(0, SHOWN_BYTES));
  return `${x.length <= SHOWN_BYTES ? shown : `${shown}…`} (${x.length} bytes)`;
}
