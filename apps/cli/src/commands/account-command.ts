import { Command } from "commander";
import { examples, withStore } from "../program-options.js";

/** The `account` command: its flags, help and examples (the body loads lazily). */
export function accountCommand(): Command {
  return withStore(
    new Command("account")
      .summary("print an account's decoded header fields")
      .description(
        "Prints the BASIC_DATA fields (version, nonce, balance, code size) and the code hash of ADDRESS; exit 1 if absent.",
      )
      .argument("<ADDRESS>", "20-byte address, 0x-hex"),
    "read",
  )
    .option("--json", "print the fields as one JSON object")
    .addHelpText(
      "after",
      examples(["bintrie account --db ./state 0x0100000000000000000000000000000000000000"]),
    )
    .action(async (address: string, flags) => {
      const { runAccount } = await import("./account.js");
      await runAccount(address, flags);
    });
}
