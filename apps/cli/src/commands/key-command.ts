import { Command } from "commander";
import { collect } from "../option-parsers.js";
import { examples, para, schemeOption } from "../program-options.js";

/** The `key` command: its flags, help and examples (the body loads lazily). */
export function keyCommand(): Command {
  return new Command("key")
    .summary("print the tree key of an account field, slot or code chunk")
    .description(
      para`Prints EIP-7864 tree keys of ADDRESS (or of several addresses, one after the other), one per
  line: the BASIC_DATA key by default, or those of the selectors given (they may repeat and
  combine; output order: basic data, code hash, slots, chunks).`,
    )
    .argument("<ADDRESS...>", "20-byte address, 0x-hex")
    .option(
      "--slot <S>",
      "storage slot: 0x-hex (at most 32 bytes) or decimal (repeatable)",
      collect,
    )
    .option("--chunk <N>", "code chunk index, decimal (repeatable)", collect)
    .option("--basic-data", "the BASIC_DATA leaf key (subindex 0)")
    .option("--code-hash", "the CODE_HASH leaf key (subindex 1)")
    .addOption(schemeOption())
    .option("--json", 'print {"address","scheme","keys":[{"kind","key",…}]} per address')
    .addHelpText(
      "after",
      examples([
        "bintrie key 0x0100000000000000000000000000000000000000",
        "bintrie key 0x0100000000000000000000000000000000000000 --slot 0x40 --scheme blake3-le",
        "bintrie key 0x0100000000000000000000000000000000000000 --chunk 0 --chunk 128",
      ]),
    )
    .action(async (addresses: string[], flags) => {
      const { runKey } = await import("./key.js");
      await runKey(addresses, flags);
    });
}
