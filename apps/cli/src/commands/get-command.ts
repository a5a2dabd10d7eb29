import { Command } from "commander";
import { examples, withStore } from "../program-options.js";

/** The `get` command: its flags, help and examples (the body loads lazily). */
export function getCommand(): Command {
  return withStore(
    new Command("get")
      .summary("print the value at a 32-byte key")
      .description(
        "Prints the 32-byte value at KEY in the latest committed tree; exit 1 if absent.",
      )
      .argument("<KEY>", "32-byte key, 0x-hex"),
    "read",
  )
    .option("--json", 'print {"key":"0x…","value":"0x…"|null}')
    .addHelpText(
      "after",
      examples([
        "bintrie get --db ./state 0xf5a5fd42d16a20302798ef6ed309979b43003d2320d9f0e8ea9831a92759fb00",
      ]),
    )
    .action(async (key: string, flags) => {
      const { runGet } = await import("./get.js");
      await runGet(key, flags);
    });
}
