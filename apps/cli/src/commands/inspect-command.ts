import { Command } from "commander";
import { examples, para, withStore } from "../program-options.js";

/** The `inspect` command: its flags, help and examples (the body loads lazily). */
export function inspectCommand(): Command {
  return withStore(
    new Command("inspect")
      .summary("print the decoded node stored at a path, or the stem holding a key")
      .description(
        para`Prints the node stored at PATH as JSON: type, hash, size, and the stem's values or the group's
  entries (each with its child path). PATH is a path key as printed by 'nodes' (0x = the root) or
  bits from the root (e.g. 0110). Blobs sit only at group boundaries (depth 0, G, 2G, … for group
  depth G) and where a stem ends a path, so take PATH from a group's entries. Exit 1 if no node is
  stored there. With --key KEY, walks from the root to the stem holding KEY and prints that stem,
  the key's value (null if the stem has none at its subindex) and every group blob on the path;
  exit 1 if no stem holds it.`,
      )
      .argument("[PATH]", "0x path key or bits; default: the root"),
    "read",
  )
    .option("--key <KEY>", "32-byte key, 0x-hex: show the stem holding it and the groups above")
    .option("--json", "print one line instead of indented JSON")
    .addHelpText(
      "after",
      examples([
        "bintrie inspect --db ./state",
        `bintrie inspect --db ./state --key 0x${"00".repeat(31)}01`,
        "bintrie inspect --db ./state 0x8005   # bits 10000: a child of the root group (G = 5)",
        "bintrie inspect --db ./state 10000",
      ]),
    )
    .action(async (path: string | undefined, flags) => {
      const { runInspect } = await import("./inspect.js");
      await runInspect(path, flags);
    });
}
