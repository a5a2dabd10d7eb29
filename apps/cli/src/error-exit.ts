import { CliError } from "./cli-error.js";
import { EXIT_FAILURE, EXIT_USAGE, type ExitCode } from "./exit-codes.js";

/** How a failure ends the process: its exit code and the one line printed on stderr. */
export interface FailureReport {
  readonly exitCode: ExitCode;
  readonly message: string;
}

// Library errors are matched by name and code (not instanceof) so this module needs no imports
// of the packages that define them, and the CLI starts fast.
const USAGE_CODES: Record<string, ReadonlySet<string>> = {
  StoreError: new Set(["STORE_LOCKED", "ROOT_RECORD_MISMATCH"]),
  TreeError: new Set(["INVALID_KEY", "INVALID_STEM", "INVALID_VALUE", "INVALID_OPTION"]),
  BuilderError: new Set([
    "STEM_OUT_OF_ORDER",
    "DUPLICATE_STEM",
    "KEY_OUT_OF_ORDER",
    "DUPLICATE_KEY",
    "INVALID_KEY",
    "INVALID_STEM",
    "INVALID_VALUE",
    "INVALID_INPUT",
    "INVALID_OPTION",
    "STORE_NOT_EMPTY",
  ]),
  TransitionError: new Set([
    "MISSING_PREIMAGE",
    "BAD_PREIMAGE",
    "NO_PREIMAGE_SOURCE",
    "NO_BASE_ROOT",
    "RECORD_MISMATCH",
    "NOT_A_TRANSITION",
    "INVALID_ARGUMENT",
  ]),
};

/** Errors of input validation: always bad input (exit 2). */
const INPUT_ERROR_NAMES = new Set([
  "GenesisError",
  "KeyDerivationError",
  "BasicDataError",
  "CodeChunkError",
  "HashError",
]);

/** Maps any error a command throws to its exit code and message. */
export function failureReport(error: unknown): FailureReport {
  if (error instanceof CliError) return { exitCode: error.exitCode, message: error.message };
  if (!(error instanceof Error)) return { exitCode: EXIT_FAILURE, message: String(error) };
  const code = (error as { code?: unknown }).code;
  if (INPUT_ERROR_NAMES.has(error.name)) return { exitCode: EXIT_USAGE, message: error.message };
  const usage = USAGE_CODES[error.name];
  if (usage !== undefined && typeof code === "string" && usage.has(code)) {
    return { exitCode: EXIT_USAGE, message: error.message };
  }
  if (error.name === "TreeError" || error.name === "CodecError") {
    // Missing, undecodable or wrong-hash nodes met while reading: the store is damaged.
    return { exitCode: EXIT_FAILURE, message: `corrupt store: ${error.message}` };
  }
  return { exitCode: EXIT_FAILURE, message: error.message };
}
