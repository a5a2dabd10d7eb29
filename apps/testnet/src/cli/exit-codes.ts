import { TestnetError } from "../chain/testnet-error.js";

export const EXIT_OK = 0;
/** A test failed, or a tool failed on input it accepted. */
export const EXIT_FAILURE = 1;
/** Bad usage or bad input: unknown option, invalid filter, missing path, no matching test. */
export const EXIT_USAGE = 2;

export type ExitCode = typeof EXIT_OK | typeof EXIT_FAILURE | typeof EXIT_USAGE;

/**
 * The exit code a command's thrown error ends the process with. A TestnetError is always about
 * what the user gave (a path, a filter, a fixture, a t8n input, a fork name); anything else is
 * a failure. (`run` reports a test's own errors as failed tests instead of throwing.)
 */
export function exitCodeOf(error: unknown): ExitCode {
  return error instanceof TestnetError ? EXIT_USAGE : EXIT_FAILURE;
}
