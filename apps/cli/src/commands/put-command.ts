import { Command } from "commander";
import { examples, groupDepthOption, schemeOption, withStore } from "../program-options.js";

/** The `put` command: its flags, help and examples (the body loads lazily). */
export function putCommand(): Command {
  return withStore(
    new Command("put")
      .summary("set one value and commit; print the new root")
      .description("Sets KEY to VALUE in the latest committed tree and commits (one atomic batch).")
      .argument("<KEY>", "32-byte key, 0x-hex")
      .argument("<VALUE>", "32-byte value, 0x-hex"),
    "write",
  )
    .addOption(groupDepthOption())
    .addOption(schemeOption())
    .option("--json", 'print {"root":"0x…"}')
    .addHelpText(
      "after",
      examples([`bintrie put --db ./state 0x${"00".repeat(31)}01 0x${"11".repeat(32)}`]),
    )
    .action(async (key: string, value: string, flags) => {
      const { runPut } = await import("./put.js");
      await runPut(key, value, flags);
    });
}
