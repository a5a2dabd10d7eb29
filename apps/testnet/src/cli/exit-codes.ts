import { TestnetError } from "../chain/testnet-error.js";
import { type T8nExitCode, t8nExitCodeOf } from "../t8n/t8n-exit-codes.js";

export const EXIT_OK = 0;
/** A test failed, or a tool failed on input it accepted. */
export const EXIT_FAILURE = 1;
/** Bad usage or bad input: unknown option, invalid filter, missing path, no matching test. */
export const EXIT_USAGE = 2;

/** 0, 1, 2; `t8n` ends its faults with geth's `evm t8n` codes instead (t8n-exit-codes.ts). */
export type ExitCode = typeof EXIT_OK | typeof EXIT_FAILURE | typeof EXIT_USAGE | T8nExitCode;

/**
 * The exit code a command's thrown error ends the process with. A TestnetError is always about
 * what the user gave (a path, a filter, a fixture, a t8n input, a fork name); anything else is
 * a failure. (`run` reports a test's own errors as failed tests instead of throwing.) `t8n`
 * numbers its faults as geth's `evm t8n` does.
 */
export function exitCodeOf(error: unknown, command = ""): ExitCode {
  if (command === "t8n") return t8nExitCodeOf(error);
  return error instanceof TestnetError ? EXIT_USAGE : EXIT_FAILURE;
}
