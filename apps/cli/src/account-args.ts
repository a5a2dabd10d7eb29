import { hexToBytes } from "@bintrie/core";
import { CliError } from "./cli-error.js";
import { parseHexArg } from "./hex.js";
import { HEX_RULE, hasHexPrefix } from "./input-rules.js";

/** ADDRESS: 20 bytes of hex. */
export function parseAddress(text: string): Uint8Array {
  return parseHexArg(text, "ADDRESS", { bytes: 20 });
}

/** A storage slot: 0x-hex of at most 32 bytes (left-padded) or a decimal number below 2^256. */
export function parseSlot(text: string, what = "SLOT"): Uint8Array {
  if (/^[0-9]+$/.test(text)) {
    const value = BigInt(text);
    if (value >= 1n << 256n) throw new CliError("BAD_INPUT", `${what} ${text} is not below 2^256`);
    return hexToBytes(value.toString(16).padStart(64, "0"));
  }
  if (!hasHexPrefix(text)) {
    throw new CliError(
      "BAD_INPUT",
      `${what} ${JSON.stringify(text)} must be a decimal number or ${HEX_RULE} (at most 32 bytes)`,
    );
  }
  const digits = text.slice(2);
  return parseHexArg(digits.length % 2 === 0 ? text : `0x0${digits}`, what, { padTo: 32 });
}
