import { Command } from "commander";
import { examples, withStore } from "../program-options.js";

/** The `storage` command: its flags, help and examples (the body loads lazily). */
export function storageCommand(): Command {
  return withStore(
    new Command("storage")
      .summary("print a storage slot's value")
      .description(
        "Prints the 32-byte value of SLOT of ADDRESS; exit 1 if the slot was never written.",
      )
      .argument("<ADDRESS>", "20-byte address, 0x-hex")
      .argument("<SLOT>", "slot: 0x-hex (at most 32 bytes) or decimal"),
    "read",
  )
    .option("--json", 'print {"address","slot","key","value"}')
    .addHelpText(
      "after",
      examples(["bintrie storage --db ./state 0x0100000000000000000000000000000000000000 0"]),
    )
    .action(async (address: string, slot: string, flags) => {
      const { runStorage } = await import("./account.js");
      await runStorage(address, slot, flags);
    });
}
