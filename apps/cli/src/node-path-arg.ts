import { CodecError, decodePathKey, encodePathKey } from "@bintrie/codec";
import { CliError } from "./cli-error.js";
import { parseHexArg } from "./hex.js";

/** A node path given on the command line. */
export interface NodePath {
  /** Path bits, MSB-first, left-aligned in 32 bytes. */
  readonly bits: Uint8Array;
  readonly depth: number;
  /** The path key (empty for the root). */
  readonly key: Uint8Array;
}

/**
 * PATH as printed by `nodes` (a 0x path key: packed bits + length byte; "0x" is the root), or as
 * bits from the root ("0110"). Omitted or "root" is the root.
 */
export function parseNodePath(text: string | undefined): NodePath {
  if (text === undefined || text === "" || text === "root" || text === "0x") {
    return { bits: new Uint8Array(32), depth: 0, key: new Uint8Array(0) };
  }
  if (/^[01]+$/.test(text)) {
    if (text.length > 248) {
      throw new CliError("BAD_INPUT", `PATH has ${text.length} bits; paths have at most 248`);
    }
    const bits = new Uint8Array(32);
    for (let d = 0; d < text.length; d++) {
      if (text[d] === "1") bits[d >>> 3]! |= 0x80 >>> (d & 7);
    }
    return { bits, depth: text.length, key: encodePathKey(bits, text.length) };
  }
  if (!text.startsWith("0x")) {
    throw new CliError(
      "BAD_INPUT",
      `PATH ${JSON.stringify(text)} must be a 0x path key (as printed by 'bintrie nodes') or bits like 0110`,
    );
  }
  const key = parseHexArg(text, "PATH");
  try {
    const { bits, length } = decodePathKey(key);
    return { bits, depth: length, key };
  } catch (error) {
    if (error instanceof CodecError) {
      throw new CliError("BAD_INPUT", `PATH ${text} is not a path key: ${error.message}`);
    }
    throw error;
  }
}
