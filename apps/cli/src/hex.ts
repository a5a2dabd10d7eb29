import { hexToBytes } from "@bintrie/core";
import { CliError } from "./cli-error.js";
import { HEX_RULE, hasHexPrefix } from "./input-rules.js";

// decodeHexInto stays hand-written beside core's hexToBytes: `bintrie build` decodes every
// input line into one reused buffer, and hexToBytes returns a new array per call.
export { decodeHexInto } from "./input-rules.js";

export interface HexArgOptions {
  /** Exact byte length required. */
  readonly bytes?: number;
  /** At most this many bytes; shorter input is left-padded with zeros to this length. */
  readonly padTo?: number;
}

/**
 * Parses a hex argument for `what` (e.g. "KEY") by the hex rule (`0x`, digits of either case),
 * naming the problem and the input on failure: no `0x`, not hex, an odd number of digits, or
 * the wrong length.
 */
export function parseHexArg(text: string, what: string, options: HexArgOptions = {}): Uint8Array {
  const shown = JSON.stringify(text.length > 80 ? `${text.slice(0, 77)}...` : text);
  if (!hasHexPrefix(text)) {
    throw new CliError("BAD_INPUT", `${what} ${shown} must be ${HEX_RULE}`);
  }
  const digits = text.slice(2);
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
