#!/usr/bin/env node
import { runCli } from "./run-cli.js";

// `bintrie-testnet … | head` closes stdout early, `run --trace 2>&1 >/dev/null | head` stderr:
// the reader has what it wanted, that is not a failure.
for (const stream of [process.stdout, process.stderr]) {
  stream.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code === "EPIPE") process.exit(0);
    throw error;
  });
}

process.exitCode = await runCli(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  stdin: process.stdin,
});
