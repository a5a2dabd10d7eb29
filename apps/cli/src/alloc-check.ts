import type { GenesisAlloc } from "@bintrie/core";
import { CliError } from "./cli-error.js";
import { failureReport } from "./error-exit.js";

/**
 * Checks every account of `alloc` (read from `file`) as the binary-tree genesis writes it
 * (nonce, balance, code, storage) on a throwaway in-memory tree, so a bad account fails before
 * anything is written. The error names the file and the account (allocError()).
 */
export async function checkAlloc(file: string, alloc: GenesisAlloc): Promise<void> {
  const { applyGenesisAlloc, BinaryTree } = await import("@bintrie/core");
  try {
    applyGenesisAlloc(new BinaryTree(), alloc);
  } catch (error) {
    throw await allocError(file, alloc, error);
  }
}

/**
 * `error`, thrown while applying `alloc` from `file`: when it is bad input (exit 2), a BAD_INPUT
 * CliError `FILE: alloc[ADDRESS]: message` naming the first account that fails on its own (or
 * just the file); any other error as it is.
 */
export async function allocError(
  file: string,
  alloc: GenesisAlloc,
  error: unknown,
): Promise<unknown> {
  if (error instanceof CliError || failureReport(error).exitCode !== 2) return error;
  const { applyGenesisAlloc, BinaryTree } = await import("@bintrie/core");
  const message = (error as Error).message;
  for (const [address, account] of Object.entries(alloc)) {
    try {
      applyGenesisAlloc(new BinaryTree(), { [address]: account } as GenesisAlloc);
    } catch (single) {
      const why = single instanceof Error ? single.message : message;
      // (core's messages name the account already: `alloc[ADDRESS].balance: …`.)
      const named = why.includes(address) ? why : `alloc[${address}]: ${why}`;
      return new CliError("BAD_INPUT", `${file}: ${named}`, { cause: error });
    }
  }
  return new CliError("BAD_INPUT", `${file}: ${message}`, { cause: error });
}
