import { Command } from "commander";
import { integerParser, MAX_THREADS } from "../option-parsers.js";
import { examples, groupDepthOption, para, schemeOption, withStore } from "../program-options.js";

/** The `build` command: its flags, help and examples (the body loads lazily). */
export function buildCommand(): Command {
  return withStore(
    new Command("build")
      .summary("build a tree from JSON lines of key/value entries, commit it, print the root")
      .description(
        para`Reads JSON lines {"key":"0x…32 bytes","value":"0x…32 bytes"} from FILE (or stdin for - or no
  FILE), checks and sorts every line first (a bad line is an error naming its line number, and
  nothing is written; large inputs are sorted on disk), then adds the entries to the store's latest
  committed tree and commits. An empty store is filled by the streaming builder; into a store with a
  tree, entries are committed in chunks. Every commit is one atomic batch, so a killed build leaves
  the store at a committed root with every node of that root intact (an interrupted first build can
  leave unreachable nodes, which 'verify' reports as garbage; running it again completes it). Later
  entries win over earlier ones with the same key.`,
      )
      .argument(
        "[FILE]",
        "JSON lines file (a FIFO, /dev/stdin or <(…) too: read front to back), or - for stdin (default: stdin)",
      ),
    "write",
  )
    .addOption(groupDepthOption())
    .addOption(schemeOption())
    .option("--json", 'print {"root":"0x…","entries":N,"nodes":M}')
    .option(
      "--commit-every <N>",
      "entries per atomic commit when adding to a store that holds a tree (default 10000)",
      integerParser(1),
    )
    .option("--tmp-dir <DIR>", "where the external sort keeps its runs (default: the OS temp dir)")
    .option(
      "--threads <N>",
      `threads of a build into an empty store, 1..${MAX_THREADS}: up to N workers build partitions of the tree while this one writes (default: the CPU count; 1: no workers; no more than there are partitions or entries)`,
      integerParser(1, MAX_THREADS),
    )
    .addHelpText(
      "after",
      examples([
        "bintrie build entries.jsonl --db ./state",
        "cat entries.jsonl | bintrie build - --db ./state --json",
        "bintrie build entries.jsonl --store memory --group-depth 8",
      ]),
    )
    .action(async (file: string | undefined, flags) => {
      const { runBuild } = await import("./build.js");
      await runBuild(file, flags);
    });
}
