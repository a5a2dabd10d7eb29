#!/usr/bin/env node
import { watchOutput } from "./line-output.js";
import { runCli } from "./run-cli.js";

// Write errors of stdout and stderr never end the process by themselves: a reader that closes
// stdout early (`bintrie nodes | head`, `bintrie verify | true`) leaves the command's exit code
// as it was, a full disk under stdout is one error line and exit 1, a closed stderr only stops
// progress and messages.
watchOutput();

process.exitCode = await runCli(process.argv);
