import { TestnetError, type TestnetErrorCode } from "../chain/testnet-error.js";

export const EXIT_OK = 0;
/** A test failed, or a tool failed on input it accepted. */
export const EXIT_FAILURE = 1;
/** Bad usage or bad input: unknown option, invalid filter, missing path, no matching test. */
export const EXIT_USAGE = 2;

export type ExitCode = typeof EXIT_OK | typeof EXIT_FAILURE | typeof EXIT_USAGE;

/** TestnetError codes that mean the command line or its input is wrong. */
const USAGE_CODES: ReadonlySet<TestnetErrorCode> = new Set<TestnetErrorCode>([
  "INVALID_INPUT",
  "INVALID_FILTER",
  "NO_MATCHING_TESTS",
  "FIXTURE_NOT_FOUND",
  "UNKNOWN_NETWORK",
]);

/** The exit code a command's thrown error ends the process with. */
export function exitCodeOf(error: unknown): ExitCode {
  return error instanceof TestnetError && USAGE_CODES.has(error.code) ? EXIT_USAGE : EXIT_FAILURE;
}
