import { TestnetError } from "../chain/testnet-error.js";
import { OutputWriteError } from "../io/output-files.js";

/**
 * geth's `evm t8n` exit codes (cmd/evm/internal/t8ntool: ErrorEVM … ErrorRlp), which `t8n`
 * ends with, so a harness written for geth's tool reads ours the same way.
 */
/** The block could not be processed (geth: a Prague block without the request contracts). */
export const T8N_EXIT_EVM = 2;
/** The fork or the env does not fit the chain configuration (missing base fee, random…). */
export const T8N_EXIT_CONFIG = 3;
/** BLOCKHASH asked for a block whose hash the env's `blockHashes` does not give. */
export const T8N_EXIT_MISSING_BLOCKHASH = 4;
/** An input is not JSON, or holds a value geth's decoding refuses. */
export const T8N_EXIT_JSON = 10;
/** An input cannot be read, or an output cannot be written. */
export const T8N_EXIT_IO = 11;
/** The signed transactions of a txs.rlp input are not RLP. */
export const T8N_EXIT_RLP = 12;

export type T8nExitCode =
  | typeof T8N_EXIT_EVM
  | typeof T8N_EXIT_CONFIG
  | typeof T8N_EXIT_MISSING_BLOCKHASH
  | typeof T8N_EXIT_JSON
  | typeof T8N_EXIT_IO
  | typeof T8N_EXIT_RLP;

/**
 * The exit code a `t8n` fault ends the process with: the one its TestnetError carries, else by
 * its code (an output location that cannot be used: IO; an unknown fork: config; any other
 * input fault: JSON, geth's code for an input its decoding refuses). A write that fails
 * part-way is IO too; anything else is our failure, 1 (as geth's own unnumbered errors are).
 */
export function t8nExitCodeOf(error: unknown): T8nExitCode | 1 {
  if (error instanceof OutputWriteError) return T8N_EXIT_IO;
  if (!(error instanceof TestnetError)) return 1;
  if (error.gethExitCode !== undefined) return error.gethExitCode as T8nExitCode;
  if (error.code === "INVALID_OUTPUT") return T8N_EXIT_IO;
  if (error.code === "UNKNOWN_NETWORK") return T8N_EXIT_CONFIG;
  return T8N_EXIT_JSON;
}
