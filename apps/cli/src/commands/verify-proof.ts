import type { KeyScheme } from "@bintrie/core";
import { bytesToHex } from "@bintrie/core";
import { CliError } from "../cli-error.js";
import { parseHexArg } from "../hex.js";
import { inputName, readInputText } from "../input-source.js";
import { printLine } from "../line-output.js";
import { parseProofDocument } from "../proof-document.js";

export interface VerifyProofFlags {
  readonly root: string;
  readonly scheme?: KeyScheme;
  readonly json?: boolean;
}

/**
 * `bintrie verify-proof [FILE]`: checks a proof document against the root the caller trusts
 * (`--root`; the document's own root is the prover's claim and is not used) and prints what it
 * proves, a line per key: the value, or `absent`. Needs no store. A proof that does not hold is
 * exit 1, naming core's ProofError code; a document that is not one is exit 2.
 */
export async function runVerifyProof(
  file: string | undefined,
  flags: VerifyProofFlags,
): Promise<void> {
  const root = parseHexArg(flags.root, "--root", { bytes: 32 });
  if (file === undefined && process.stdin.isTTY === true) {
    throw new CliError(
      "BAD_USAGE",
      "no input: give FILE (what bintrie prove printed), or pipe it into stdin (or use -)",
    );
  }
  const name = inputName(file ?? "-");
  const document = parseProofDocument(await readInputText(file ?? "-"), name);
  const scheme = flags.scheme ?? document.scheme;
  const { verifyProof } = await import("@bintrie/core/proof");
  let values: (Uint8Array | undefined)[];
  try {
    values = verifyProof(root, document.keys, document.proof, scheme);
  } catch (error) {
    if ((error as { name?: unknown }).name !== "ProofError") throw error;
    const code = (error as { code?: unknown }).code;
    throw new CliError(
      "VERIFY_FAILED",
      `${name}: proof rejected against --root ${bytesToHex(root)} (${String(code)}): ${(error as Error).message}`,
    );
  }
  if (flags.json) {
    printLine(
      JSON.stringify({
        root: bytesToHex(root),
        scheme,
        values: document.keys.map((key, i) => ({
          key: bytesToHex(key),
          value: values[i] === undefined ? null : bytesToHex(values[i]),
        })),
      }),
    );
    return;
  }
  for (let i = 0; i < document.keys.length; i++) {
    const value = values[i];
    printLine(
      `${bytesToHex(document.keys[i]!)} ${value === undefined ? "absent" : bytesToHex(value)}`,
    );
  }
}
