import { Command, Option } from "commander";
import { SCHEME_CHOICES } from "../option-parsers.js";
import { examples, para } from "../program-options.js";

/** The `verify-proof` command: its flags, help and examples (the body loads lazily). */
export function verifyProofCommand(): Command {
  return new Command("verify-proof")
    .summary("check a proof from bintrie prove against a root; print the values")
    .description(
      para`Checks the proof in FILE (what bintrie prove printed; stdin with - or no FILE when stdin is
  not a terminal) against --root, the root you trust — the document's own "root" is the prover's
  claim and is not used — and prints a line per key: its value, or "absent". No store needed.
  Exit 1 when the proof does not hold (core's ProofError code named), 2 when the input is not a
  proof document.`,
    )
    .argument("[FILE]", "the proof document; - for stdin")
    .addOption(
      new Option(
        "--root <ROOT>",
        "the 32-byte root to check against, 0x-hex",
      ).makeOptionMandatory(),
    )
    .addOption(
      new Option(
        "--scheme <S>",
        "node hash scheme to check with (default: the document's; only SHA-256 or BLAKE3 matters)",
      ).choices(SCHEME_CHOICES),
    )
    .option("--json", 'print {"root","scheme","values":[{"key","value"|null}]}')
    .addHelpText(
      "after",
      examples([
        "bintrie verify-proof proof.json --root 0x0870fd587c41dc778019de8c5cb3193fe4ef1f417976461952d3712ba39163f5",
        'bintrie verify-proof --root "$(bintrie root --db ./state)" < proof.json',
      ]),
    )
    .action(async (file: string | undefined, flags) => {
      const { runVerifyProof } = await import("./verify-proof.js");
      await runVerifyProof(file, flags);
    });
}
