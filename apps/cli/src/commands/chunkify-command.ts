import { Command } from "commander";
import { examples } from "../program-options.js";

/** The `chunkify` command: its flags, help and examples (the body loads lazily). */
export function chunkifyCommand(): Command {
  return new Command("chunkify")
    .summary("print the 32-byte code chunks of some EVM code")
    .description(
      "Prints the EIP-7864 code chunks of HEXCODE, one per line (byte 0: leading PUSH-data bytes; 1..31: code); several codes are separated by a blank line.",
    )
    .argument("<HEXCODE...>", "EVM code, 0x-hex")
    .option("--json", "print a JSON array of chunks per code and line")
    .addHelpText("after", examples(["bintrie chunkify 0x6001600201"]))
    .action(async (codes: string[], flags) => {
      const { runChunkify } = await import("./key.js");
      await runChunkify(codes, flags);
    });
}
