export { BintrieError } from "@bintrie/core";
export { CliError, type CliErrorCode } from "./cli-error.js";
export { EXIT_FAILURE, EXIT_OK, EXIT_USAGE, type ExitCode } from "./exit-codes.js";
export { FsRunStorage } from "./fs-run-storage.js";
export { createProgram } from "./program.js";
export { runCli } from "./run-cli.js";
