import { CommanderError } from "commander";
import type { CliIO } from "./cli-io.js";
import { EXIT_OK, EXIT_USAGE, type ExitCode, exitCodeOf } from "./exit-codes.js";
import { createProgram } from "./program.js";

export type { CliIO, CliOutput } from "./cli-io.js";

/**
 * Runs the `bintrie-testnet` command line (`argv` without node and the script) and resolves
 * to the exit code: 0 success, 1 a test or transition failed, 2 bad usage or bad input (`t8n`:
 * geth's `evm t8n` codes, 2/3/4/10/11/12, for an input it cannot use). A failure prints one
 * line on stderr, `bintrie-testnet CMD: message`.
 */
export async function runCli(argv: readonly string[], io: CliIO): Promise<ExitCode> {
  let exitCode: ExitCode = EXIT_OK;
  const program = createProgram(io, (code) => {
    exitCode = code;
  });
  let commandName = "";
  program.hook("preAction", (_program, action) => {
    commandName = action.name();
  });
  for (const command of [program, ...program.commands]) {
    const name = command === program ? program.name() : `${program.name()} ${command.name()}`;
    command.exitOverride();
    command.configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
      // Commander's usage errors: one line, without its "error: " prefix.
      outputError: (text, write) =>
        write(
          `${name}: ${text
            .replace(/^error: /, "")
            .trim()
            .replace(/\s*\n\s*/g, " ")}\n`,
        ),
    });
  }
  try {
    await program.parseAsync([...argv], { from: "user" });
    return exitCode;
  } catch (error) {
    if (error instanceof CommanderError) {
      // --help and --version end with exit code 0; every other commander error is bad usage.
      return error.exitCode === 0 ? EXIT_OK : EXIT_USAGE;
    }
    const prefix = commandName === "" ? "bintrie-testnet" : `bintrie-testnet ${commandName}`;
    const message = error instanceof Error ? error.message : String(error);
    io.stderr.write(`${prefix}: ${message.replace(/\s*\n\s*/g, " ")}\n`);
    if (process.env.BINTRIE_DEBUG && error instanceof Error) io.stderr.write(`${error.stack}\n`);
    return exitCodeOf(error, commandName);
  }
}
