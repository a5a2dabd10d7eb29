import { Command } from "commander";
import { integerParser } from "../option-parsers.js";
import { examples, groupDepthOption, para, schemeOption, withStore } from "../program-options.js";

/** The `convert` command: its flags, help and examples (the body loads lazily). */
export function convertCommand(): Command {
  return withStore(
    new Command("convert")
      .summary("convert an MPT state (genesis alloc or MPT store) into a binary tree, resumably")
      .description(
        para`Converts a Merkle-Patricia state into the binary tree, in the same store. With --genesis FILE,
  the alloc's MPT state is written into the store first and its addresses and slots serve as
  preimages; with --mpt-root ROOT, the MPT base is already in the store (under the transition
  layout) and --preimages FILE gives keccak(key) → key as a JSON object. Every --step base leaves
  are committed together with the conversion cursor, so an interrupted run resumes where it
  stopped when started again. Prints the binary root.`,
      ),
    "write",
  )
    .option(
      "--genesis <FILE>",
      "geth genesis.json whose alloc is the MPT state to convert (- for stdin)",
    )
    .option("--mpt-root <ROOT>", "MPT state root of a base already in the store")
    .option(
      "--preimages <FILE>",
      "JSON object keccak(address|slot) → address|slot (with --mpt-root)",
    )
    .addOption(groupDepthOption())
    .addOption(schemeOption())
    .option("--step <N>", "base leaves per atomic commit (default 10000)", integerParser(1))
    .option("--json", 'print {"root","mptRoot","resumed","accounts","storageSlots",…}')
    .addHelpText(
      "after",
      examples([
        "bintrie convert --db ./state --genesis genesis.json",
        "bintrie convert --db ./state --mpt-root 0x… --preimages preimages.json --json",
      ]),
    )
    .action(async (flags) => {
      const { runConvert } = await import("./convert.js");
      await runConvert(flags);
    });
}
