import { readFileSync } from "node:fs";
import { Command } from "commander";
import { accountCommand } from "./commands/account-command.js";
import { buildCommand } from "./commands/build-command.js";
import { chunkifyCommand } from "./commands/chunkify-command.js";
import { codeCommand } from "./commands/code-command.js";
import { convertCommand } from "./commands/convert-command.js";
import { genesisCommand } from "./commands/genesis-command.js";
import { getCommand } from "./commands/get-command.js";
import { inspectCommand } from "./commands/inspect-command.js";
import { keyCommand } from "./commands/key-command.js";
import { nodesCommand } from "./commands/nodes-command.js";
import { proveCommand } from "./commands/prove-command.js";
import { putCommand } from "./commands/put-command.js";
import { rootCommand } from "./commands/root-command.js";
import { statsCommand } from "./commands/stats-command.js";
import { storageCommand } from "./commands/storage-command.js";
import { verifyCommand } from "./commands/verify-command.js";
import { verifyProofCommand } from "./commands/verify-proof-command.js";
import { examples, INPUT_RULES_HELP } from "./program-options.js";

/** The package version (package.json sits one level above dist/ and src/). */
function packageVersion(): string {
  // A URL literal: the bundler moves this module, and the build rewrites the literal to match.
  const file = new URL("../package.json", import.meta.url);
  return (JSON.parse(readFileSync(file, "utf8")) as { version: string }).version;
}

/**
 * The `bintrie` command line: the program and its commands, one file each under commands/ (a
 * contract: flags, help text and examples). Command bodies load lazily, so `--help` and small
 * commands start fast.
 */
export function createProgram(): Command {
  const program = new Command("bintrie")
    .description(
      "Build, inspect, verify, prove and convert EIP-7864 binary state trees on disk (go-ethereum compatible).",
    )
    .version(packageVersion(), "-V, --version")
    .showSuggestionAfterError(true)
    .addHelpText(
      "after",
      `
Exit codes: 0 success, 1 failure (verification failed, corrupt store, value absent),
            2 bad usage or bad input (nothing was written).${INPUT_RULES_HELP}
${examples([
  "bintrie build entries.jsonl --db ./state",
  "bintrie genesis genesis.json --db ./state --json",
  "bintrie verify --db ./state",
  "bintrie key 0x0100000000000000000000000000000000000000 --slot 0",
  "bintrie build --store memory < entries.jsonl",
])}`,
    );
  for (const command of [
    buildCommand(),
    nodesCommand(),
    rootCommand(),
    getCommand(),
    putCommand(),
    genesisCommand(),
    accountCommand(),
    storageCommand(),
    codeCommand(),
    keyCommand(),
    chunkifyCommand(),
    inspectCommand(),
    verifyCommand(),
    proveCommand(),
    verifyProofCommand(),
    statsCommand(),
    convertCommand(),
  ]) {
    program.addCommand(command.addHelpText("after", INPUT_RULES_HELP));
  }
  return program;
}
