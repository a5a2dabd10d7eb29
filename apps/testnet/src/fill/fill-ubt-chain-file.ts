import { readFile } from "node:fs/promises";
import { basename, join } from "node:path";
import { TestnetError } from "../chain/testnet-error.js";
import { writeOutputFile } from "../io/output-files.js";
import { fillUbtChain, type UbtChainDescription, type UbtChainFill } from "./fill-ubt-chain.js";

/** Whether a parsed JSON file is a UBT chain description (`genesis.alloc` and `blocks`). */
export function isUbtChainDescription(json: unknown): json is UbtChainDescription {
  const d = json as Partial<UbtChainDescription> | null;
  return (
    typeof d === "object" &&
    d !== null &&
    typeof d.genesis === "object" &&
    d.genesis !== null &&
    typeof d.genesis.alloc === "object" &&
    Array.isArray(d.blocks)
  );
}

/** Reads a chain-description file, or undefined when the file is something else (a fixture). */
export async function readUbtChainDescription(
  path: string,
): Promise<UbtChainDescription | undefined> {
  let json: unknown;
  try {
    json = JSON.parse(await readFile(path, "utf8"));
  } catch {
    return undefined;
  }
  return isUbtChainDescription(json) ? json : undefined;
}

/**
 * Fills one chain description (`fillUbtChain`) into `outDir/<file name>` as a blockchain-test
 * file holding one test named after the file.
 */
export async function fillUbtChainFile(
  path: string,
  description: UbtChainDescription,
  outDir: string,
): Promise<UbtChainFill & { readonly file: string; readonly name: string }> {
  const name = basename(path).replace(/\.json$/, "");
  let filled: UbtChainFill;
  try {
    filled = await fillUbtChain(description);
  } catch (cause) {
    if (cause instanceof TestnetError) throw cause;
    throw new TestnetError(
      "INVALID_INPUT",
      `chain description ${path}: ${(cause as Error).message}`,
    );
  }
  const file = join(outDir, basename(path));
  await writeOutputFile(file, `${JSON.stringify({ [name]: filled.fixture }, null, 1)}\n`, "--out");
  return { ...filled, file, name };
}
