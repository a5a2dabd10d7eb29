import { TestnetError } from "../chain/testnet-error.js";

/** JSON null or a missing field: absent, as Go's encoding/json reads both. */
export function isAbsent(value: unknown): boolean {
  return value === undefined || value === null;
}

/** `0x` and exactly `size` bytes of hex. */
export function isHex(value: unknown, size: number): boolean {
  return typeof value === "string" && new RegExp(`^0x[0-9a-fA-F]{${size * 2}}$`).test(value);
}

/** A JSON value as a message shows it (long strings cut). */
export function describe(value: unknown): string {
  if (value === undefined) return "nothing";
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "object") return "an object";
  if (typeof value === "string")
    return JSON.stringify(value.length > 70 ? `${value.slice(0, 70)}…` : value);
  return `${typeof value} ${String(value)}`;
}

/**
 * A refused t8n input, naming its source (file or stdin part) and field: by default geth's
 * ErrorJson (its decoding refuses the value), else the geth exit code given.
 */
export function fail(source: string, field: string, problem: string, gethExitCode?: number): never {
  throw new TestnetError("INVALID_INPUT", `${source}: ${field}: ${problem}`, {
    file: source,
    field,
    ...(gethExitCode === undefined ? {} : { gethExitCode }),
  });
}
