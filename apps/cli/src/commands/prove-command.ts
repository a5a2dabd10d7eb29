import { Command } from "commander";
import { examples, para, withStore } from "../program-options.js";

/** The `prove` command: its flags, help and examples (the body loads lazily). */
export function proveCommand(): Command {
  return withStore(
    new Command("prove")
      .summary("print one proof of some keys' values (or absence) for the latest root")
      .description(
        para`Prints, as one line of JSON, a proof that KEY... hold their values (or are absent) in the tree
  of the latest committed root: {"root","scheme","keys","proof"} — core's compact multi-key proof
  (each shared path part once), for bintrie verify-proof or verifyProof anywhere else. Keys may
  repeat and come in any order; bintrie key derives account, slot and code-chunk keys. Exit 1
  where an absence cannot be shown (a stem without values as the only evidence).`,
      )
      .argument("<KEY...>", "32-byte keys, 0x-hex"),
    "read",
  )
    .addHelpText(
      "after",
      examples([
        "bintrie prove --db ./state 0xf5a5fd42d16a20302798ef6ed309979b43003d2320d9f0e8ea9831a92759fb00 > proof.json",
        "bintrie prove --db ./genesis $(bintrie key 0x0100000000000000000000000000000000000000 --basic-data --slot 0)",
      ]),
    )
    .action(async (keys: string[], flags) => {
      const { runProve } = await import("./prove.js");
      await runProve(keys, flags);
    });
}
