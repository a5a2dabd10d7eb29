import { CommanderError } from "commander";
import { failureReport } from "./error-exit.js";
import { EXIT_OK, EXIT_USAGE, type ExitCode } from "./exit-codes.js";
import { createProgram } from "./program.js";

/**
 * Runs the `bintrie` command line (`argv` as in process.argv) and returns the exit code:
 * 0 success, 1 failure, 2 bad usage or input. Every failure prints one line on stderr,
 * `bintrie CMD: message`.
 */
export async function runCli(argv: readonly string[]): Promise<ExitCode> {
  const program = createProgram();
  let commandName = "";
  program.hook("preAction", (_program, action) => {
    commandName = action.name();
  });
  for (const command of [program, ...program.commands]) {
    command.exitOverride();
    command.configureOutput({
      // Commander's usage errors: one line, without its "error: " prefix.
      outputError: (text, write) =>
        write(
          `bintrie: ${text
            .replace(/^error: /, "")
            .trim()
            .replace(/\s*\n\s*/g, " ")}\n`,
        ),
    });
  }
  try {
    await program.parseAsync([...argv]);
    return EXIT_OK;
  } catch (error) {
    if (error instanceof CommanderError) {
      // --help and --version end with exit code 0; every other commander error is bad usage.
      return error.exitCode === 0 ? EXIT_OK : EXIT_USAGE;
    }
    const report = failureReport(error);
    const prefix = commandName === "" ? "bintrie" : `bintrie ${commandName}`;
    process.stderr.write(`${prefix}: ${report.message.replace(/\s*\n\s*/g, " ")}\n`);
    if (process.env.BINTRIE_DEBUG && error instanceof Error)
      process.stderr.write(`${error.stack}\n`);
    return report.exitCode;
  }
}
