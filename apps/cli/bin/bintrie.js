#!/usr/bin/env node
// pnpm links bins at install time, before `pnpm build` has written dist/: this committed file
// is what it links, and it loads the built command line.
try {
  await import("../dist/main.js");
} catch (error) {
  if (error?.code !== "ERR_MODULE_NOT_FOUND" || !String(error.message).includes("/dist/main.js"))
    throw error;
  process.stderr.write("bintrie: not built yet; run `pnpm build` first\n");
  process.exitCode = 1;
}
