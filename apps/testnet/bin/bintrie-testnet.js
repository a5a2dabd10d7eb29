#!/usr/bin/env node
// pnpm links bins at install time, before `pnpm build` has written dist/: this committed file
// is what it links, and it loads the built command line: one bundle with its dependencies
// (scripts/bundle-bin.mjs; it starts in about 0.6 of the time of dist/cli/main.js and its files).
import nodeModule from "node:module";

// Node >= 22.1 keeps the code it compiles for the command line on disk (its compile cache, under
// the system's temp folder or NODE_COMPILE_CACHE; NODE_DISABLE_COMPILE_CACHE=1 turns it off), so
// the next run skips compiling it; older Node has no such function.
nodeModule.enableCompileCache?.();
try {
  await import("../dist/cli/bintrie-testnet.mjs");
} catch (error) {
  if (
    error?.code !== "ERR_MODULE_NOT_FOUND" ||
    !String(error.message).includes("/dist/cli/bintrie-testnet.mjs")
  )
    throw error;
  process.stderr.write("bintrie-testnet: not built yet; run `pnpm build` first\n");
  process.exitCode = 1;
}
