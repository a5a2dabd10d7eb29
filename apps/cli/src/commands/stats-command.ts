import { Command } from "commander";
import { examples, withStore } from "../program-options.js";

/** The `stats` command: its flags, help and examples (the body loads lazily). */
export function statsCommand(): Command {
  return withStore(
    new Command("stats")
      .summary("node counts per type, depth histogram, bytes")
      .description(
        "Scans every stored node (no hashing): counts per type, a depth histogram per type, stem values and bytes.",
      ),
    "read",
  )
    .option("--json", "print the statistics as one JSON object")
    .addHelpText("after", examples(["bintrie stats --db ./state"]))
    .action(async (flags) => {
      const { runStats } = await import("./stats.js");
      await runStats(flags);
    });
}
