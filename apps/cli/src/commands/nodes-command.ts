import { Command } from "commander";
import { examples, para, withStore } from "../program-options.js";

/** The `nodes` command: its flags, help and examples (the body loads lazily). */
export function nodesCommand(): Command {
  return withStore(
    new Command("nodes")
      .summary("print every stored node as JSON lines, sorted by path")
      .description(
        para`Prints every stored node as a JSON line {"path":"0x…","blob":"0x…"}, sorted by path key bytes.
  The path key is geth's: packed path bits + one length byte; the root path is 0x. The root record
  is not a node and is left out.`,
      ),
    "read",
  )
    .option("--json", "JSON lines (the only format; accepted like on every other command)")
    .addHelpText("after", examples(["bintrie nodes --db ./state | head"]))
    .action(async (flags) => {
      const { runNodes } = await import("./nodes.js");
      await runNodes(flags);
    });
}
