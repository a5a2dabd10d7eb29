import { readFileSync } from "node:fs";
import { Command, Option } from "commander";
import type { CliIO } from "./cli-io.js";
import type { ExitCode } from "./exit-codes.js";
import { integerParser, parseRegExp, parseReward, SCHEME_CHOICES } from "./option-parsers.js";

/** A paragraph written over several source lines; commander wraps it to the terminal. */
function para(strings: TemplateStringsArray, ...values: unknown[]): string {
  return String.raw({ raw: strings }, ...values).replace(/\s*\n\s*/g, " ");
}

function examples(lines: readonly string[]): string {
  return `\nExamples:\n${lines.map((line) => `  $ ${line}`).join("\n")}`;
}

/** The package version (package.json sits two levels above dist/cli/ and src/cli/). */
export function packageVersion(): string {
  // A URL literal: the bundler moves this module, and the build rewrites the literal to match.
  const file = new URL("../../package.json", import.meta.url);
  return (JSON.parse(readFileSync(file, "utf8")) as { version: string }).version;
}

function schemeOption(): Option {
  return new Option(
    "--scheme <S>",
    "key scheme of the binary state (default: the fixture's, else sha256-be as geth master)",
  ).choices(SCHEME_CHOICES);
}

function filterOption(): Option {
  return new Option(
    "--filter <REGEX>",
    'only tests whose "file :: name" matches this regular expression (as geth\'s --run)',
  ).argParser(parseRegExp);
}

/**
 * The `bintrie-testnet` command line: every command, its flags and help. Command bodies load
 * lazily (they pull in the EVM), so `--help` and `--version` start fast. Each action hands its
 * exit code to `setExit`.
 */
export function createProgram(io: CliIO, setExit: (code: ExitCode) => void): Command {
  const version = packageVersion();
  const program = new Command("bintrie-testnet")
    .description(
      para`Runs Ethereum blockchain tests through @ethereumjs/vm on EIP-7864 binary-tree state, fills
binary-root fixtures, applies state transitions as geth's evm t8n, and runs a local devnet.`,
    )
    .version(version, "-V, --version")
    .showSuggestionAfterError(true)
    .addHelpText(
      "after",
      `
Exit codes: 0 success, 1 a test or transition failed, 2 bad usage or bad input
            (unknown option, invalid filter, a filter matching no test, missing path);
            t8n: geth's evm t8n codes (10 JSON, 11 I/O, 3 config, 2 EVM,
            4 missing block hash, 12 RLP).
${examples([
  "bintrie-testnet run fixtures/ --filter 'Cancun'",
  "bintrie-testnet fill fixtures/ --out filled/",
  "bintrie-testnet t8n --input.alloc alloc.json --input.env env.json --input.txs txs.json --output.result stdout --output.alloc stdout",
  "bintrie-testnet devnet --blocks 8",
])}`,
    );

  program
    .command("run")
    .summary("run blockchain tests on binary-tree state; one line per test")
    .description(
      para`Runs every blockchain test in the given files and folders (folders are searched for .json
files): a binary genesis from pre, every block through runBlock (receipts, bloom, gas and
requests checked against the header), lastblockhash and the full postState. Binary fixtures
(written by fill, with _bintrie) also have every state root checked, the genesis header's
included. A malformed test is one failed test, and the run goes on. Exit 1 if any test
failed; exit 2 if no test matches.`,
    )
    .version(version, "-V, --version")
    .argument("<PATH...>", "fixture files or folders")
    .option("--json", "print one JSON object per test, then a summary object (stdout stays JSON)")
    .addOption(filterOption())
    .addOption(schemeOption())
    .option(
      "--trace",
      "write the JSON opcode trace of every transaction the blocks run to stderr, as geth's evm blocktest --trace (then stderr holds nothing else)",
    )
    .option("--trace.memory", "with --trace: each step's memory")
    .option("--trace.nostack", "with --trace: no stacks")
    .option("--trace.returndata", "with --trace: each step's return data")
    .option(
      "--trace.format <format>",
      "with --trace: json (geth's JSON lines, the default), or md / markdown (geth's markdown table: a row per instruction, each transaction's frame before and after it)",
    )
    .addHelpText(
      "after",
      examples([
        "bintrie-testnet run fixtures/blockchain",
        "bintrie-testnet run fixtures/ --filter 'SimpleTx|logRevert' --json",
        "bintrie-testnet run fixtures/ --filter 'bcStateTests/.* :: .*_Cancun$'",
        "bintrie-testnet run fixtures/ --filter 'logRevert' --trace 2> trace.jsonl",
        "bintrie-testnet run fixtures/ --filter 'logRevert' --trace --trace.format md 2> trace.md",
      ]),
    )
    .action(async (paths: string[], flags) => {
      const { runTests } = await import("./commands/run.js");
      setExit(await runTests(paths, flags, io));
    });

  program
    .command("fill")
    .summary("re-execute fixtures on binary-tree state and write binary-root fixtures")
    .description(
      para`Re-executes each blockchain test on binary-tree state and writes it to --out with every state
root (genesis included) replaced by the binary one, the chain re-linked, and a _bintrie section
listing the roots; run checks them. Each input file keeps its path relative to the folder it was
found in.`,
    )
    .version(version, "-V, --version")
    .argument("<IN...>", "fixture files or folders")
    .requiredOption("--out <DIR>", "folder the filled fixtures are written to")
    .addOption(filterOption())
    .addOption(schemeOption())
    .addHelpText("after", examples(["bintrie-testnet fill fixtures/ --out filled/"]))
    .action(async (inputs: string[], flags) => {
      const { fillTests } = await import("./commands/fill.js");
      setExit(await fillTests(inputs, flags, io));
    });

  program
    .command("t8n")
    .summary("one state transition with geth's evm t8n inputs and outputs")
    .description(
      para`Applies the transactions of --input.txs to the --input.alloc state in the --input.env block, on
binary-tree state (stateRoot is the binary root), with geth's evm t8n conventions: an input
named stdin is read from one JSON object {"alloc", "env", "txs"} (or "txsRlp") on standard input;
an output named stdout or stderr goes into one JSON object {"alloc", "body", "result"} on that
stream; any other output name is a file under --output.basedir; an empty name writes nothing.
A txs file ending in .rlp holds a JSON string of the hex RLP list of signed transactions.
A fault exits with geth's code for it: 10 an input that is not JSON or holds a value geth
refuses, 11 an input it cannot read or an output it cannot write, 3 a fork or env that does not
fit the chain, 2 a block it cannot process, 4 BLOCKHASH of a block blockHashes does not give,
12 a txs.rlp that is not RLP.`,
    )
    .version(version, "-V, --version")
    .option("--input.alloc <FILE>", "prestate alloc: a file or stdin", "alloc.json")
    .option("--input.env <FILE>", "block environment: a file or stdin", "env.json")
    .option("--input.txs <FILE>", "transactions: a file (.json, or .rlp) or stdin", "txs.json")
    .option(
      "--output.result <NAME>",
      "result (roots, receipts): a file, stdout or stderr",
      "result.json",
    )
    .option("--output.alloc <NAME>", "post-state alloc: a file, stdout or stderr", "alloc.json")
    .option("--output.body <NAME>", "RLP of the applied transactions: a file, stdout or stderr")
    .option("--output.basedir <DIR>", "where output files are written (created if missing)")
    .option(
      "--state.fork <FORK>",
      "fork name as geth's (Shanghai, Cancun, Prague, Osaka…)",
      "Prague",
    )
    .addOption(new Option("--state.chainid <N>", "chain id").argParser(integerParser(0)).default(1))
    .addOption(
      new Option("--state.reward <N>", "block reward in wei (negative: no reward step)")
        .argParser(parseReward)
        .default(0n, "0"),
    )
    .addOption(schemeOption())
    .option(
      "--trace",
      "write each executed transaction's JSON opcode trace (geth's) to trace-<n>-<tx hash>.jsonl under --output.basedir",
    )
    .option("--trace.memory", "with --trace: each step's memory")
    .option("--trace.nostack", "with --trace: no stacks")
    .option("--trace.returndata", "with --trace: each step's return data")
    .option("--trace.callframes", "with --trace: a line as each call frame is entered")
    .option(
      "--opcode.count <FILE>",
      "write how many times each opcode ran (geth's counts, system calls included) to FILE under --output.basedir",
    )
    .addHelpText(
      "after",
      examples([
        "bintrie-testnet t8n --input.alloc alloc.json --input.env env.json --input.txs txs.json --state.fork Shanghai --output.basedir out",
        "bintrie-testnet t8n --input.alloc alloc.json --input.env env.json --input.txs txs.json --output.result stdout --output.alloc stdout",
        "bintrie-testnet t8n --input.alloc stdin --input.env stdin --input.txs stdin --output.result stdout < combined.json",
      ]),
    )
    .action(async (flags) => {
      const { runT8n } = await import("./commands/t8n.js");
      setExit(await runT8n(flags, io));
    });

  program
    .command("t8n-server")
    .summary("t8n as an HTTP server: one process for many transitions")
    .description(
      para`Serves state transitions over HTTP until SIGINT or SIGTERM: each POST of one JSON request
{"state": {"fork", "chainid", "reward"}, "input": {"alloc", "env", "txs"}, "trace"?,
"output-basedir"?} (the shape execution-spec-tests' t8n server client sends) is answered with
{"alloc", "result", "body"}, what t8n prints with every output named stdout, or with
{"error": {"code", "message", "exitCode"}} (400 for an input the transition refuses, 500 for
anything else) and the exit code t8n would end with. Requests are independent and may overlap.
Once it listens it prints one line, "listening <url>" (http://host:port/, or for --uds
http+unix://<path, slashes as %2F>/).`,
    )
    .version(version, "-V, --version")
    .addOption(
      new Option("--uds <PATH>", "listen on this Unix domain socket").conflicts(["port", "host"]),
    )
    .addOption(
      new Option("--port <N>", "listen on this TCP port (0: one the OS picks)")
        .argParser(integerParser(0))
        .default(0),
    )
    .option("--host <HOST>", "the address the TCP port is bound to", "127.0.0.1")
    .addOption(schemeOption())
    .addHelpText(
      "after",
      examples([
        "bintrie-testnet t8n-server --uds /tmp/t8n.sock",
        "bintrie-testnet t8n-server --port 8545",
      ]),
    )
    .action(async (flags) => {
      const { runT8nServer } = await import("./commands/t8n-server.js");
      setExit(await runT8nServer(flags, io));
    });

  program
    .command("devnet")
    .summary("produce blocks on binary-tree state, write them as a fixture, re-execute it")
    .description(
      para`Produces --blocks blocks of transfers, contract creations and calls from the dev accounts of
--genesis, on binary-tree state, writes the chain as a binary blockchain-test fixture to --out,
and runs it again with every root checked. With --rpc it serves Ethereum JSON-RPC instead
(http://127.0.0.1:8545/ by default, WebSocket with eth_subscribe on the same address): every
transaction sent is mined at once into a block of its own; on SIGINT or SIGTERM the chain is
written to --out and run again.`,
    )
    .version(version, "-V, --version")
    .option("--genesis <FILE>", "genesis file (default: the shipped genesis/devnet.json)")
    .addOption(
      new Option("--blocks <N>", "blocks to produce").argParser(integerParser(1)).default(32),
    )
    .addOption(
      new Option("--seed <N>", "workload seed (same seed, same chain)")
        .argParser(integerParser(0))
        .default(7864),
    )
    .option("--out <FILE>", "where the fixture is written", ".reports/devnet.fixture.json")
    .addOption(
      new Option(
        "--rpc",
        "serve Ethereum JSON-RPC instead: one block per transaction sent, until SIGINT or SIGTERM",
      ).conflicts(["blocks", "seed"]),
    )
    .addOption(
      new Option("--port <N>", "with --rpc: the TCP port (0: one the OS picks)")
        .argParser(integerParser(0))
        .default(8545),
    )
    .option("--host <HOST>", "with --rpc: the address the port is bound to", "127.0.0.1")
    .addHelpText(
      "after",
      examples([
        "bintrie-testnet devnet --blocks 8 --out devnet.json",
        "bintrie-testnet devnet --rpc --port 8545",
      ]),
    )
    .action(async (flags, command: Command) => {
      if (flags.rpc === true) {
        const { runDevnetRpc } = await import("./commands/devnet-rpc.js");
        setExit(await runDevnetRpc(flags, io, version));
        return;
      }
      for (const name of ["port", "host"]) {
        if (command.getOptionValueSource(name) === "cli") {
          command.error(`--${name} is for --rpc only`, { exitCode: 2 });
        }
      }
      const { runDevnet } = await import("./commands/devnet.js");
      setExit(await runDevnet(flags, io));
    });

  return program;
}
