import { Command } from "commander";
import { examples, withStore } from "../program-options.js";

/** The `code` command: its flags, help and examples (the body loads lazily). */
export function codeCommand(): Command {
  return withStore(
    new Command("code")
      .summary("print an account's code")
      .description(
        "Prints the code of ADDRESS rebuilt from its chunks (0x for none); exit 1 if no account.",
      )
      .argument("<ADDRESS>", "20-byte address, 0x-hex"),
    "read",
  )
    .option("--json", 'print {"address","codeSize","code"}')
    .addHelpText(
      "after",
      examples(["bintrie code --db ./state 0x000f3df6d732807ef1319fb7b8bb8522d0beac02"]),
    )
    .action(async (address: string, flags) => {
      const { runCode } = await import("./account.js");
      await runCode(address, flags);
    });
}
