import { createRequire } from "node:module";
import { Command, Option } from "commander";
import { collect, integerParser, parseGroupDepth, SCHEME_CHOICES } from "./option-parsers.js";

const STORE_HELP = "LevelDB directory of the tree";

/** A paragraph written over several source lines; commander wraps it to the terminal. */
function para(strings: TemplateStringsArray, ...values: unknown[]): string {
  return String.raw({ raw: strings }, ...values).replace(/\s*\n\s*/g, " ");
}

function examples(lines: readonly string[]): string {
  return `\nExamples:\n${lines.map((line) => `  $ ${line}`).join("\n")}`;
}

/** --db DIR and --store level|memory, on every command that opens a store. */
function withStore(command: Command): Command {
  return command
    .option("--db <DIR>", STORE_HELP)
    .addOption(
      new Option("--store <KIND>", "store kind: level (at --db DIR) or memory (throwaway)")
        .choices(["level", "memory"])
        .default(undefined, "level"),
    );
}

function schemeOption(): Option {
  return new Option(
    "--scheme <S>",
    "key derivation and node hash scheme (default: sha256-be, geth master)",
  ).choices(SCHEME_CHOICES);
}

function groupDepthOption(): Option {
  return new Option(
    "--group-depth <G>",
    "internal levels per stored group blob, 0..8 (0 = flat 65-byte nodes; default 5, as geth)",
  ).argParser(parseGroupDepth);
}

/** The package version (package.json sits one level above dist/ and src/). */
function packageVersion(): string {
  const require = createRequire(import.meta.url);
  return (require("../package.json") as { version: string }).version;
}

/**
 * The `bintrie` command line: every command and its flags (a contract), with help text and
 * examples. Command bodies load lazily, so `--help` and small commands start fast.
 */
export function createProgram(): Command {
  const program = new Command("bintrie")
    .description(
      "Build, inspect, verify and convert EIP-7864 binary state trees on disk (go-ethereum compatible).",
    )
    .version(packageVersion(), "-V, --version")
    .showSuggestionAfterError(true)
    .addHelpText(
      "after",
      `
Exit codes: 0 success, 1 failure (verification failed, corrupt store, value absent),
            2 bad usage or bad input (nothing was written).
${examples([
  "bintrie build entries.jsonl --db ./state",
  "bintrie genesis genesis.json --db ./state --json",
  "bintrie verify --db ./state",
  "bintrie key 0x0100000000000000000000000000000000000000 --slot 0",
  "bintrie build --store memory < entries.jsonl",
])}`,
    );

  withStore(
    program
      .command("build")
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
      .argument("[FILE]", "JSON lines file, or - for stdin (default: stdin)"),
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
    .addHelpText(
      "after",
      examples([
        "bintrie build entries.jsonl --db ./state",
        "cat entries.jsonl | bintrie build - --db ./state --json",
        "bintrie build entries.jsonl --store memory --group-depth 8",
      ]),
    )
    .action(async (file: string | undefined, flags) => {
      const { runBuild } = await import("./commands/build.js");
      await runBuild(file, flags);
    });

  withStore(
    program
      .command("nodes")
      .summary("print every stored node as JSON lines, sorted by path")
      .description(
        para`Prints every stored node as a JSON line {"path":"0x…","blob":"0x…"}, sorted by path key bytes.
The path key is geth's: packed path bits + one length byte; the root path is 0x. The root record
is not a node and is left out.`,
      ),
  )
    .addHelpText("after", examples(["bintrie nodes --db ./state | head"]))
    .action(async (flags) => {
      const { runNodes } = await import("./commands/nodes.js");
      await runNodes(flags);
    });

  withStore(
    program
      .command("root")
      .summary("print the latest committed root")
      .description("Prints the latest committed root (32 zero bytes when nothing was committed)."),
  )
    .option("--json", 'print {"root":"0x…","groupDepth":G,"scheme":"…"}')
    .addHelpText("after", examples(["bintrie root --db ./state"]))
    .action(async (flags) => {
      const { runRoot } = await import("./commands/root.js");
      await runRoot(flags);
    });

  withStore(
    program
      .command("get")
      .summary("print the value at a 32-byte key")
      .description(
        "Prints the 32-byte value at KEY in the latest committed tree; exit 1 if absent.",
      )
      .argument("<KEY>", "32-byte key, 0x-hex"),
  )
    .option("--json", 'print {"key":"0x…","value":"0x…"|null}')
    .addHelpText(
      "after",
      examples([
        "bintrie get --db ./state 0xf5a5fd42d16a20302798ef6ed309979b43003d2320d9f0e8ea9831a92759fb00",
      ]),
    )
    .action(async (key: string, flags) => {
      const { runGet } = await import("./commands/get.js");
      await runGet(key, flags);
    });

  withStore(
    program
      .command("put")
      .summary("set one value and commit; print the new root")
      .description("Sets KEY to VALUE in the latest committed tree and commits (one atomic batch).")
      .argument("<KEY>", "32-byte key, 0x-hex")
      .argument("<VALUE>", "32-byte value, 0x-hex"),
  )
    .addOption(groupDepthOption())
    .addOption(schemeOption())
    .option("--json", 'print {"root":"0x…"}')
    .addHelpText(
      "after",
      examples([`bintrie put --db ./state 0x${"00".repeat(31)}01 0x${"11".repeat(32)}`]),
    )
    .action(async (key: string, value: string, flags) => {
      const { runPut } = await import("./commands/put.js");
      await runPut(key, value, flags);
    });

  withStore(
    program
      .command("genesis")
      .summary("geth genesis.json alloc → committed binary-tree genesis state; print the root")
      .description(
        para`Writes the alloc of a geth-style genesis.json as go-ethereum's binary-tree genesis does (account
header leaves, code chunks, non-zero storage) into an empty store in one atomic commit, and prints
the root. With --mpt, a second line holds the Merkle-Patricia state root of the same alloc.`,
      )
      .argument("<FILE>", "genesis.json (or a JSON object with an alloc field)"),
  )
    .addOption(groupDepthOption())
    .addOption(schemeOption())
    .option("--json", 'print {"root":"0x…","accounts":N} (with --mpt also "mptRoot")')
    .option("--mpt", "also print the MPT state root of the alloc")
    .addHelpText(
      "after",
      examples([
        "bintrie genesis genesis.json --db ./state",
        "bintrie genesis genesis.json --store memory --mpt --json",
      ]),
    )
    .action(async (file: string, flags) => {
      const { runGenesis } = await import("./commands/genesis.js");
      await runGenesis(file, flags);
    });

  withStore(
    program
      .command("account")
      .summary("print an account's decoded header fields")
      .description(
        "Prints the BASIC_DATA fields (version, nonce, balance, code size) and the code hash of ADDRESS; exit 1 if absent.",
      )
      .argument("<ADDRESS>", "20-byte address, 0x-hex"),
  )
    .option("--json", "print the fields as one JSON object")
    .addHelpText(
      "after",
      examples(["bintrie account --db ./state 0x0100000000000000000000000000000000000000"]),
    )
    .action(async (address: string, flags) => {
      const { runAccount } = await import("./commands/account.js");
      await runAccount(address, flags);
    });

  withStore(
    program
      .command("storage")
      .summary("print a storage slot's value")
      .description(
        "Prints the 32-byte value of SLOT of ADDRESS; exit 1 if the slot was never written.",
      )
      .argument("<ADDRESS>", "20-byte address, 0x-hex")
      .argument("<SLOT>", "slot: 0x-hex (at most 32 bytes) or decimal"),
  )
    .option("--json", 'print {"address","slot","key","value"}')
    .addHelpText(
      "after",
      examples(["bintrie storage --db ./state 0x0100000000000000000000000000000000000000 0"]),
    )
    .action(async (address: string, slot: string, flags) => {
      const { runStorage } = await import("./commands/account.js");
      await runStorage(address, slot, flags);
    });

  withStore(
    program
      .command("code")
      .summary("print an account's code")
      .description(
        "Prints the code of ADDRESS rebuilt from its chunks (0x for none); exit 1 if no account.",
      )
      .argument("<ADDRESS>", "20-byte address, 0x-hex"),
  )
    .option("--json", 'print {"address","codeSize","code"}')
    .addHelpText(
      "after",
      examples(["bintrie code --db ./state 0x000f3df6d732807ef1319fb7b8bb8522d0beac02"]),
    )
    .action(async (address: string, flags) => {
      const { runCode } = await import("./commands/account.js");
      await runCode(address, flags);
    });

  program
    .command("key")
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
      const { runKey } = await import("./commands/key.js");
      await runKey(addresses, flags);
    });

  program
    .command("chunkify")
    .summary("print the 32-byte code chunks of some EVM code")
    .description(
      "Prints the EIP-7864 code chunks of HEXCODE, one per line (byte 0: leading PUSH-data bytes; 1..31: code); several codes are separated by a blank line.",
    )
    .argument("<HEXCODE...>", "EVM code, 0x-hex")
    .option("--json", "print a JSON array of chunks per code and line")
    .addHelpText("after", examples(["bintrie chunkify 0x6001600201"]))
    .action(async (codes: string[], flags) => {
      const { runChunkify } = await import("./commands/key.js");
      await runChunkify(codes, flags);
    });

  withStore(
    program
      .command("inspect")
      .summary("print the decoded node stored at a path")
      .description(
        para`Prints the node stored at PATH as JSON: type, hash, size, and the stem's values or the group's
entries (each with its child path). PATH is a path key as printed by 'nodes' (0x = the root) or
bits from the root (e.g. 0110). Exit 1 if no node is stored there.`,
      )
      .argument("[PATH]", "0x path key or bits; default: the root"),
  )
    .option("--json", "print one line instead of indented JSON")
    .addHelpText(
      "after",
      examples([
        "bintrie inspect --db ./state",
        "bintrie inspect --db ./state 0x8001",
        "bintrie inspect --db ./state 10",
      ]),
    )
    .action(async (path: string | undefined, flags) => {
      const { runInspect } = await import("./commands/inspect.js");
      await runInspect(path, flags);
    });

  withStore(
    program
      .command("verify")
      .summary("check every node reachable from the latest committed root")
      .description(
        para`Walks from the latest committed root: every reachable blob must exist, decode and hash to what
its parent stores. Reports node counts. Exit 1 if any reachable node is missing, undecodable or
has the wrong hash (each is named by its path on stderr). Stored nodes no root reaches (left by
an interrupted run) are reported as garbage with a warning; --strict makes them an error.`,
      ),
  )
    .option("--strict", "treat unreachable stored nodes as an error")
    .option("--json", "print the report as one JSON object")
    .addHelpText(
      "after",
      examples(["bintrie verify --db ./state", "bintrie verify --db ./state --strict --json"]),
    )
    .action(async (flags) => {
      const { runVerify } = await import("./commands/verify.js");
      await runVerify(flags);
    });

  withStore(
    program
      .command("stats")
      .summary("node counts per type, depth histogram, bytes")
      .description(
        "Scans every stored node (no hashing): counts per type, a depth histogram per type, stem values and bytes.",
      ),
  )
    .option("--json", "print the statistics as one JSON object")
    .addHelpText("after", examples(["bintrie stats --db ./state"]))
    .action(async (flags) => {
      const { runStats } = await import("./commands/stats.js");
      await runStats(flags);
    });

  withStore(
    program
      .command("convert")
      .summary("convert an MPT state (genesis alloc or MPT store) into a binary tree, resumably")
      .description(
        para`Converts a Merkle-Patricia state into the binary tree, in the same store. With --genesis FILE,
the alloc's MPT state is written into the store first and its addresses and slots serve as
preimages; with --mpt-root ROOT, the MPT base is already in the store (under the transition
layout) and --preimages FILE gives keccak(key) → key as a JSON object. Every --step base leaves
are committed together with the conversion cursor, so an interrupted run resumes where it
stopped when started again. Prints the binary root.`,
      ),
  )
    .option("--genesis <FILE>", "geth genesis.json whose alloc is the MPT state to convert")
    .option("--mpt-root <ROOT>", "MPT state root of a base already in the store")
    .option(
      "--preimages <FILE>",
      "JSON object keccak(address|slot) → address|slot (with --mpt-root)",
    )
    .addOption(groupDepthOption())
    .addOption(schemeOption())
    .option("--step <N>", "base leaves per atomic commit (default 10000)", integerParser(1))
    .option("--json", 'print {"root","mptRoot","resumed","accounts","storageSlots",…}')
    .addHelpText(
      "after",
      examples([
        "bintrie convert --db ./state --genesis genesis.json",
        "bintrie convert --db ./state --mpt-root 0x… --preimages preimages.json --json",
      ]),
    )
    .action(async (flags) => {
      const { runConvert } = await import("./commands/convert.js");
      await runConvert(flags);
    });

  return program;
}
