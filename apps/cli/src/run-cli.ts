import { type Command, CommanderError } from "commander";
import { type FailureContext, failureReport } from "./error-exit.js";
import { EXIT_FAILURE, EXIT_OK, EXIT_USAGE, type ExitCode } from "./exit-codes.js";
import { isClosedPipe, OutputStopped, outputFailure, settleOutput } from "./line-output.js";
import { linePrefix } from "./line-prefix.js";
import { createProgram } from "./program.js";

/** What a command commits before it prints its result (a lost result is not a lost write). */
const COMMITTED: Readonly<Record<string, string>> = {
  build: "the build",
  put: "the write",
  genesis: "the genesis state",
  convert: "the conversion",
};

/**
 * Runs the `bintrie` command line (`argv` as in process.argv) and returns the exit code:
 * 0 success, 1 failure, 2 bad usage or input. Every failure prints one line on stderr,
 * `bintrie CMD: message`. A stdout whose reader went away (EPIPE) does not change the exit code;
 * another stdout write error (a full disk) fails a command that had succeeded (exit 1). Write
 * errors of stdout are only seen when the process watches them (`watchOutput()`, as the binary
 * does).
 */
export async function runCli(argv: readonly string[]): Promise<ExitCode> {
  const program = createProgram();
  let commandName = "";
  let context: FailureContext = {};
  program.hook("preAction", (_program, action) => {
    commandName = action.name();
    context = {
      command: commandName,
      args: action.args,
      flags: action.opts() as Record<string, unknown>,
    };
  });
  for (const command of [program, ...program.commands]) {
    command.exitOverride();
    const prefix = linePrefix(command === program ? "" : command.name());
    command.configureOutput({
      // Commander's usage errors: one line, `bintrie CMD: …`, without its "error: " prefix.
      outputError: (text, write) =>
        write(
          `${prefix}: ${text
            .replace(/^error: /, "")
            .trim()
            .replace(/\s*\n\s*/g, " ")}\n`,
        ),
    });
  }
  const unknownTopic = unknownHelpTopic(program, argv.slice(2));
  if (unknownTopic !== undefined) {
    process.stderr.write(`bintrie help: unknown command '${unknownTopic}'\n`);
    return EXIT_USAGE;
  }
  let exitCode: ExitCode = EXIT_OK;
  try {
    await program.parseAsync([...argv]);
  } catch (error) {
    if (error instanceof CommanderError) {
      // --help and --version end with exit code 0; every other commander error is bad usage.
      exitCode = error.exitCode === 0 ? EXIT_OK : EXIT_USAGE;
    } else if (!(error instanceof OutputStopped)) {
      // (OutputStopped: stdout failed while a command wrote a long output; handled below.)
      const report = failureReport(error, context);
      printFailure(commandName, report.message, error);
      exitCode = report.exitCode;
    }
  }
  await settleOutput();
  const outputError = outputFailure();
  if (exitCode === EXIT_OK && outputError !== undefined && !isClosedPipe(outputError)) {
    const message = `cannot write the output: ${outputError.message}${committedNote(context)}`;
    printFailure(commandName, message, outputError);
    return EXIT_FAILURE;
  }
  return exitCode;
}

/** A failure's one line on stderr, `bintrie CMD: message`, and its stack with BINTRIE_DEBUG. */
function printFailure(commandName: string, message: string, error: unknown): void {
  process.stderr.write(`${linePrefix(commandName)}: ${message.replace(/\s*\n\s*/g, " ")}\n`);
  if (process.env.BINTRIE_DEBUG && error instanceof Error) process.stderr.write(`${error.stack}\n`);
}

/** `bintrie help NAME` of a command that does not exist: NAME (commander prints all the help). */
function unknownHelpTopic(program: Command, args: readonly string[]): string | undefined {
  const at = args.findIndex((arg) => !arg.startsWith("-"));
  if (at < 0 || args[at] !== "help") return undefined;
  const topic = args[at + 1];
  if (topic === undefined || topic.startsWith("-") || topic === "help") return undefined;
  const known = program.commands.some((c) => c.name() === topic || c.aliases().includes(topic));
  return known ? undefined : topic;
}

/** For a command that committed before printing: that its write is done, and where. */
function committedNote(context: FailureContext): string {
  const what = context.command === undefined ? undefined : COMMITTED[context.command];
  if (what === undefined) return "";
  const db = context.flags?.db;
  return typeof db === "string"
    ? ` (${what} was committed to --db ${db}; \`bintrie root --db ${db}\` prints its root)`
    : ` (${what} completed, in a memory store)`;
}
