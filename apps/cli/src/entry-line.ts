import { CliError } from "./cli-error.js";
import { decodeHexInto, HEX_RULE, isHexText } from "./input-rules.js";

/**
 * Parses one build input line `{"key":"0x…32 bytes","value":"0x…32 bytes"}` into
 * out[offset..offset+64) (key ‖ value). Blank lines return false (skipped); anything malformed
 * throws a BAD_INPUT CliError naming the source and line number.
 */
export function parseEntryLine(
  text: string,
  lineNumber: number,
  source: string,
  out: Uint8Array,
  offset: number,
): boolean {
  if (text.length === 0 || text.trim().length === 0) return false;
  const where = `${source} line ${lineNumber}`;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new CliError("BAD_INPUT", `${where}: not valid JSON (${(error as Error).message})`);
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw new CliError(
      "BAD_INPUT",
      `${where}: expected an object {"key":"0x…","value":"0x…"}, got ${describe(parsed)}`,
    );
  }
  const { key, value } = parsed as { key?: unknown; value?: unknown };
  decodeField(key, "key", where, out, offset);
  decodeField(value, "value", where, out, offset + 32);
  return true;
}

function decodeField(
  field: unknown,
  name: string,
  where: string,
  out: Uint8Array,
  offset: number,
): void {
  if (typeof field === "string" && decodeHexInto(field, 32, out, offset)) return;
  if (field === undefined) throw new CliError("BAD_INPUT", `${where}: missing "${name}"`);
  throw new CliError(
    "BAD_INPUT",
    `${where}: "${name}" must be 32 bytes of hex (${HEX_RULE}: 64 digits), got ${describe(field)}`,
  );
}

function describe(x: unknown): string {
  if (Array.isArray(x)) return "an array";
  if (x === null) return "null";
  if (typeof x === "string") {
    const shown = x.length > 70 ? `${x.slice(0, 67)}...` : x;
    const bytes = isHexText(x) ? ` (${(x.length - 2) / 2} bytes)` : "";
    return `${JSON.stringify(shown)}${bytes}`;
  }
  return typeof x;
}
