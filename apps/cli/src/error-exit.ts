import { CliError } from "./cli-error.js";
import { EXIT_FAILURE, EXIT_USAGE, type ExitCode } from "./exit-codes.js";
import { levelFailure } from "./level-failure.js";

/** How a failure ends the process: its exit code and the one line printed on stderr. */
export interface FailureReport {
  readonly exitCode: ExitCode;
  readonly message: string;
}

/** The command that failed, so library messages can name the CLI input at fault. */
export interface FailureContext {
  /** The command's name (`build`, `convert`, …). */
  readonly command?: string;
  /** Its positional arguments, as given. */
  readonly args?: readonly string[];
  /** Its parsed flags (`db`, `store`, `genesis`, `mptRoot`, `preimages`, …). */
  readonly flags?: Readonly<Record<string, unknown>>;
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
  // README (convert): a missing preimage (before the run commits a step: after one, convert.ts
  // reports it as exit 1), a wrong --mpt-root or a store with a plain tree is exit 2. MISSING_BASE_DATA is handled in transitionReport (only a missing root is usage);
  // INVALID_RECORD and CORRUPT_STATE (a damaged store) and STORE_NOT_ORDERED (a store the CLI
  // never opens) are failures, exit 1.
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
export function failureReport(error: unknown, context: FailureContext = {}): FailureReport {
  if (error instanceof CliError) return { exitCode: error.exitCode, message: error.message };
  if (!(error instanceof Error)) return { exitCode: EXIT_FAILURE, message: String(error) };
  const code = (error as { code?: unknown }).code;
  if (error.name === "TransitionError" && typeof code === "string") {
    const report = transitionReport(code, error.message, context);
    if (report !== undefined) return report;
  }
  if (INPUT_ERROR_NAMES.has(error.name)) {
    return { exitCode: EXIT_USAGE, message: inputMessage(error, context) };
  }
  if (error.name === "StoreError" && code === "STORE_IO") {
    // A read or write of the database failed (a full disk, damaged files): LevelDB's own words,
    // naming --db instead of the library call.
    const { reason, corrupt } = levelFailure(error);
    return {
      exitCode: EXIT_FAILURE,
      message: `${corrupt ? "corrupt store: " : ""}cannot read or write ${storeName(context)}: ${reason}`,
    };
  }
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

/** `--db DIR`, or `--store memory`: the store a command ran on, as the user named it. */
function storeName(context: FailureContext): string {
  const db = context.flags?.db;
  return typeof db === "string" ? `the database at --db ${db}` : "the store";
}

/** TransitionError messages speak of the library API; these name the `convert` flags instead. */
function transitionReport(
  code: string,
  message: string,
  context: FailureContext,
): FailureReport | undefined {
  const flags = context.flags ?? {};
  switch (code) {
    case "NO_PREIMAGE_SOURCE":
      return {
        exitCode: EXIT_USAGE,
        message:
          "--mpt-root needs --preimages FILE (a JSON object keccak(address|slot) → address|slot) to convert the MPT base",
      };
    case "NOT_A_TRANSITION":
      return {
        exitCode: EXIT_USAGE,
        message: `${storeName(context)} holds a plain binary tree (no conversion state); convert into a --db without one (a new database, or one holding the MPT base or an earlier conversion)`,
      };
    case "NO_BASE_ROOT":
      return {
        exitCode: EXIT_USAGE,
        message: `${storeName(context)} holds no conversion; give --mpt-root ROOT or --genesis FILE to start one`,
      };
    case "MISSING_BASE_DATA": {
      // Only the base's root node is checked before anything is written: a root not in the
      // store is a wrong --mpt-root (exit 2); data missing further down is an incomplete base.
      if (/^MPT root node /.test(message)) {
        const root = typeof flags.mptRoot === "string" ? ` ${flags.mptRoot}` : "";
        return {
          exitCode: EXIT_USAGE,
          message: `--mpt-root${root}: no MPT root node with that hash in ${storeName(context)} (a wrong root, or the MPT base was never written)`,
        };
      }
      return {
        exitCode: EXIT_FAILURE,
        message: `incomplete MPT base in ${storeName(context)}: ${message}`,
      };
    }
    case "INVALID_RECORD":
    case "CORRUPT_STATE":
      return { exitCode: EXIT_FAILURE, message: `corrupt store: ${message}` };
    case "MISSING_PREIMAGE":
    case "BAD_PREIMAGE": {
      const file = typeof flags.preimages === "string" ? flags.preimages : undefined;
      return {
        exitCode: EXIT_USAGE,
        message: file === undefined ? message : `${file}: ${message}`,
      };
    }
    default:
      return undefined;
  }
}

/** The genesis file a command reads (`genesis FILE`, `convert --genesis FILE`), if any. */
function genesisFile(context: FailureContext): string | undefined {
  if (context.command === "genesis") return context.args?.[0];
  const file = context.flags?.genesis;
  return typeof file === "string" ? file : undefined;
}

/**
 * Input errors name the value at fault; when it came from a genesis file, the message also names
 * the file. (The genesis and convert commands name the account too, see alloc-check.ts.)
 */
function inputMessage(error: Error, context: FailureContext): string {
  const file = genesisFile(context);
  if (file === undefined || error.message.includes(file)) return error.message;
  return `${file}: ${error.message}`;
}
