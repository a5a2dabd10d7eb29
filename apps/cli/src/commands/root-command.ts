import { Command } from "commander";
import { examples, withStore } from "../program-options.js";

/** The `root` command: its flags, help and examples (the body loads lazily). */
export function rootCommand(): Command {
  return withStore(
    new Command("root")
      .summary("print the latest committed root")
      .description("Prints the latest committed root (32 zero bytes when nothing was committed)."),
    "read",
  )
    .option("--json", 'print {"root":"0x…","groupDepth":G,"scheme":"…"}')
    .addHelpText("after", examples(["bintrie root --db ./state"]))
    .action(async (flags) => {
      const { runRoot } = await import("./root.js");
      await runRoot(flags);
    });
}
