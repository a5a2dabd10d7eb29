import { readFile } from "node:fs/promises";
import { text as streamText } from "node:stream/consumers";
import { describeValue } from "@bintrie/codec";
import type { GenesisAlloc } from "@bintrie/core";
import { CliError } from "./cli-error.js";
import { stripBom } from "./input-rules.js";
import { assertReadableFile, inputName } from "./input-source.js";

/**
 * Reads a geth-style genesis.json (`-`: stdin) and returns its `alloc` (a bare alloc object is
 * accepted too); `nonce` and `balance` may be JSON numbers (exact ones only), as geth reads them.
 * (An address or slot written twice in other spellings is one, the last one written: core's
 * parseGenesisAlloc.)
 */
export async function readGenesisAlloc(file: string): Promise<GenesisAlloc> {
  // `-` is stdin, as for `build`.
  const name = inputName(file);
  if (file !== "-") await assertReadableFile(file);
  const text = stripBom(
    file === "-" ? await streamText(process.stdin) : await readFile(file, "utf8"),
  );
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new CliError("BAD_INPUT", `${name}: not valid JSON (${(error as Error).message})`);
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw new CliError("BAD_INPUT", `${name}: expected a JSON object with an "alloc" field`);
  }
  const alloc = "alloc" in parsed ? (parsed as { alloc: unknown }).alloc : undefined;
  if (alloc === undefined) {
    throw new CliError("BAD_INPUT", `${name}: no "alloc" field (expected a geth genesis.json)`);
  }
  if (typeof alloc !== "object" || alloc === null || Array.isArray(alloc)) {
    throw new CliError("BAD_INPUT", `${name}: "alloc" must be an object of address → account`);
  }
  const accounts: Record<string, Record<string, unknown>> = {};
  for (const [address, account] of Object.entries(alloc)) {
    if (typeof account !== "object" || account === null || Array.isArray(account)) {
      throw new CliError("BAD_INPUT", `${name}: alloc[${address}] must be an object`);
    }
    const fields: Record<string, unknown> = { ...account };
    for (const field of ["balance", "nonce", "code"] as const) {
      const v = fields[field];
      if (v === undefined || typeof v === "string") continue;
      if (field !== "code" && typeof v === "number" && Number.isSafeInteger(v) && v >= 0) {
        // geth reads unquoted numbers too; JSON.parse keeps them exact up to 2^53.
        fields[field] = String(v);
        continue;
      }
      throw new CliError(
        "BAD_INPUT",
        `${name}: alloc[${address}].${field} must be ${
          field === "code"
            ? "a hex string"
            : "a hex or decimal string (or a JSON integer below 2^53: larger ones lose digits, quote them)"
        }, got ${describeValue(v)}`,
      );
    }
    const storage = fields.storage;
    if (storage !== undefined) {
      if (typeof storage !== "object" || storage === null || Array.isArray(storage)) {
        throw new CliError("BAD_INPUT", `${name}: alloc[${address}].storage must be an object`);
      }
      for (const [slot, value] of Object.entries(storage)) {
        if (typeof value !== "string") {
          throw new CliError(
            "BAD_INPUT",
            `${name}: alloc[${address}].storage[${slot}] must be a hex string, got ${describeValue(value)}`,
          );
        }
      }
    }
    accounts[address] = fields;
  }
  return accounts as GenesisAlloc;
}
