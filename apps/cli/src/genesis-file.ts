import type { GenesisAlloc } from "@bintrie/core";
import { allocError } from "./alloc-check.js";
import { CliError } from "./cli-error.js";
import { inputName, readInputText } from "./input-source.js";

/**
 * Reads a geth-style genesis.json (`-`: stdin) and returns its `alloc` (a file holding only
 * `{"alloc":{…}}` works too). The accounts are checked by core's parseGenesisAlloc, which reads
 * them as geth does (bare JSON numbers for `nonce` and `balance` by their digits, through
 * parseGenesisJson; null as an absent field; an address or slot written twice in other spellings
 * as one, the last one written).
 */
export async function readGenesisAlloc(file: string): Promise<GenesisAlloc> {
  // `-` is stdin, as for `build`.
  const name = inputName(file);
  const text = await readInputText(file);
  const { goJsonField, parseGenesisAlloc, parseGenesisJson } = await import("@bintrie/core");
  let parsed: unknown;
  try {
    // A bare balance or nonce is read by its digits, as geth reads it (exact past 2^53).
    parsed = parseGenesisJson(text);
  } catch (error) {
    // core's GenesisError (INVALID_JSON): "not JSON (why)".
    throw new CliError("BAD_INPUT", `${name}: ${(error as Error).message}`);
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw new CliError("BAD_INPUT", `${name}: expected a JSON object with an "alloc" field`);
  }
  // In any letter case, as geth's decoder finds it.
  const alloc = goJsonField(parsed as Record<string, unknown>, "alloc");
  if (alloc === undefined) {
    throw new CliError("BAD_INPUT", `${name}: no "alloc" field (expected a geth genesis.json)`);
  }
  if (typeof alloc !== "object" || alloc === null || Array.isArray(alloc)) {
    throw new CliError("BAD_INPUT", `${name}: "alloc" must be an object of address → account`);
  }
  // The fields are core's to check (geth's rules), here before any store is opened.
  try {
    parseGenesisAlloc(alloc as GenesisAlloc);
  } catch (error) {
    throw await allocError(name, alloc as GenesisAlloc, error);
  }
  return alloc as GenesisAlloc;
}
