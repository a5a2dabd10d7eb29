import { hexToBytes } from "@bintrie/core";
import { CliError } from "./cli-error.js";

const NIBBLE = new Int8Array(128).fill(-1);
for (let i = 0; i < 10; i++) NIBBLE[0x30 + i] = i;
for (let i = 0; i < 6; i++) {
  NIBBLE[0x41 + i] = 10 + i;
  NIBBLE[0x61 + i] = 10 + i;
}

/**
 * Decodes "0x" + exactly 2*size hex digits from `text` into out[offset..offset+size).
 * Returns false (out partly written) for anything else; allocates nothing.
 * Kept beside core's hexToBytes on purpose: `bintrie build` decodes two fields of every input
 * line into one reused buffer, and hexToBytes returns a new array per call.
 */
export function decodeHexInto(
  text: string,
  size: number,
  out: Uint8Array,
  offset: number,
): boolean {
  if (text.length !== 2 + 2 * size || text.charCodeAt(0) !== 0x30) return false;
  const x = text.charCodeAt(1);
  if (x !== 0x78 && x !== 0x58) return false;
  for (let i = 0; i < size; i++) {
    const a = text.charCodeAt(2 + 2 * i);
    const b = text.charCodeAt(3 + 2 * i);
    if (a > 0x7f || b > 0x7f) return false;
    const hi = NIBBLE[a]!;
    const lo = NIBBLE[b]!;
    if (hi < 0 || lo < 0) return false;
    out[offset + i] = (hi << 4) | lo;
  }
  return true;
}

export interface HexArgOptions {
  /** Exact byte length required. */
  readonly bytes?: number;
  /** At most this many bytes; shorter input is left-padded with zeros to this length. */
  readonly padTo?: number;
}

/**
 * Parses a hex argument ("0x" optional) for `what` (e.g. "KEY"), naming the problem and the
 * input on failure: not hex, an odd number of digits, or the wrong length. The CLI's own
 * messages and exit codes on top of core's hexToBytes.
 */
export function parseHexArg(text: string, what: string, options: HexArgOptions = {}): Uint8Array {
  const digits = text.startsWith("0x") || text.startsWith("0X") ? text.slice(2) : text;
  const shown = JSON.stringify(text.length > 80 ? `${text.slice(0, 77)}...` : text);
  if (!/^[0-9a-fA-F]*$/.test(digits)) {
    throw new CliError("BAD_INPUT", `${what} ${shown} is not hex`);
  }
  if (digits.length % 2 !== 0) {
    throw new CliError("BAD_INPUT", `${what} ${shown} has an odd number of hex digits`);
  }
  const raw = hexToBytes(digits, what);
  if (options.bytes !== undefined && raw.length !== options.bytes) {
    throw new CliError(
      "BAD_INPUT",
      `${what} must be ${options.bytes} bytes (0x + ${2 * options.bytes} hex digits), got ${raw.length} bytes: ${shown}`,
    );
  }
  if (options.padTo !== undefined) {
    if (raw.length > options.padTo) {
      throw new CliError(
        "BAD_INPUT",
        `${what} must be at most ${options.padTo} bytes, got ${raw.length} bytes: ${shown}`,
      );
    }
    const out = new Uint8Array(options.padTo);
    out.set(raw, options.padTo - raw.length);
    return out;
  }
  return raw;
}
