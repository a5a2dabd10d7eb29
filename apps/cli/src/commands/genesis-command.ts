import { Command } from "commander";
import { examples, groupDepthOption, para, schemeOption, withStore } from "../program-options.js";

/** The `genesis` command: its flags, help and examples (the body loads lazily). */
export function genesisCommand(): Command {
  return withStore(
    new Command("genesis")
      .summary("geth genesis.json alloc → committed binary-tree genesis state; print the root")
      .description(
        para`Writes the alloc of a geth-style genesis.json as go-ethereum's binary-tree genesis does (account
  header leaves, code chunks, non-zero storage) into an empty store in one atomic commit, and prints
  the root. With --mpt, a second line holds the Merkle-Patricia state root of the same alloc.`,
      )
      .argument("<FILE>", "genesis.json (or a JSON object with an alloc field); - for stdin"),
    "write",
  )
    .addOption(groupDepthOption())
    .addOption(schemeOption())
    .option("--json", 'print {"root":"0x…","accounts":N} (with --mpt also "mptRoot")')
    .option("--mpt", "also print the MPT state root of the alloc")
    .addHelpText(
      "after",
      examples([
        "bintrie genesis genesis.json --db ./state",
        "bintrie genesis genesis.json --store memory --mpt --json",
      ]),
    )
    .action(async (file: string, flags) => {
      const { runGenesis } = await import("./genesis.js");
      await runGenesis(file, flags);
    });
}
