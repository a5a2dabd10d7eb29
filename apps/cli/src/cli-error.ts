// From codec (the same class core re-exports): parsing arguments and --help load no tree code.
import { BintrieError } from "@bintrie/codec";
import { EXIT_FAILURE, EXIT_USAGE, type ExitCode } from "./exit-codes.js";

export type CliErrorCode =
  /** A flag, argument or input file is malformed or missing. */
  | "BAD_INPUT"
  /** Flags that cannot be used together, or a required one is missing. */
  | "BAD_USAGE"
  /** The store cannot be used for this command (missing, not empty, another scheme). */
  | "BAD_STORE"
  /** A key, account or node the command was asked for is not there. */
  | "NOT_FOUND"
  /** The store is damaged (missing, undecodable or wrong-hash nodes). */
  | "CORRUPT_STORE"
  /** Verification found problems (the report says which). */
  | "VERIFY_FAILED";

const EXIT_OF: Record<CliErrorCode, ExitCode> = {
  BAD_INPUT: EXIT_USAGE,
  BAD_USAGE: EXIT_USAGE,
  BAD_STORE: EXIT_USAGE,
  NOT_FOUND: EXIT_FAILURE,
  CORRUPT_STORE: EXIT_FAILURE,
  VERIFY_FAILED: EXIT_FAILURE,
};

/** A failure the CLI reports as one line on stderr, with the exit code its `code` implies. */
export class CliError extends BintrieError<CliErrorCode> {
  override name = "CliError";
  readonly exitCode: ExitCode;

  constructor(code: CliErrorCode, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
    this.exitCode = EXIT_OF[code];
  }
}
