import { Command } from "commander";
import { examples, para, withStore } from "../program-options.js";

/** The `verify` command: its flags, help and examples (the body loads lazily). */
export function verifyCommand(): Command {
  return withStore(
    new Command("verify")
      .summary("check every node reachable from the latest committed root")
      .description(
        para`Walks from the latest committed root: every reachable blob must exist, decode and hash to what
  its parent stores. Reports node counts. Exit 1 if any reachable node is missing, undecodable or
  has the wrong hash (each is named by its path on stderr). Stored nodes no root reaches (left by
  an interrupted run) are reported as garbage with a warning; --strict makes them an error.`,
      ),
    "read",
  )
    .option("--strict", "treat unreachable stored nodes as an error")
    .option("--json", "print the report as one JSON object")
    .addHelpText(
      "after",
      examples(["bintrie verify --db ./state", "bintrie verify --db ./state --strict --json"]),
    )
    .action(async (flags) => {
      const { runVerify } = await import("./verify.js");
      await runVerify(flags);
    });
}
