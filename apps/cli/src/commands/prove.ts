import { bytesToHex } from "@bintrie/core";
import { CliError } from "../cli-error.js";
import { parseHexArg } from "../hex.js";
import { printLine } from "../line-output.js";
import { openCommittedTree } from "../open-committed-tree.js";
import { openStore } from "../open-store.js";
import { proofDocumentJson } from "../proof-document.js";
import { type StoreFlags, storeTarget } from "../store-target.js";

/**
 * `bintrie prove KEY...`: one proof for all the keys (present or absent) against the latest
 * committed root, printed as a proof document (see proof-document.ts).
 */
export async function runProve(keyTexts: readonly string[], flags: StoreFlags): Promise<void> {
  const keys = keyTexts.map((text, i) =>
    parseHexArg(text, keyTexts.length === 1 ? "KEY" : `KEY ${i + 1}`, { bytes: 32 }),
  );
  const opened = await openStore(storeTarget(flags, { readOnly: true }), { create: false });
  try {
    const tree = await openCommittedTree(opened.store);
    const { prove } = await import("@bintrie/core/proof");
    let proof: Uint8Array;
    try {
      proof = await prove(tree, keys);
    } catch (error) {
      // The one refusal a stored tree can give (a stem with no values as the only evidence of an
      // absence): a failure, not bad usage. A damaged store is reported as such by the caller.
      if ((error as { name?: unknown }).name === "ProofError") {
        throw new CliError("NOT_FOUND", `cannot prove these keys: ${(error as Error).message}`);
      }
      throw error;
    }
    printLine(
      proofDocumentJson({ root: tree.hash(), scheme: tree.scheme, keys, proof }, bytesToHex),
    );
  } finally {
    await opened.close();
  }
}
