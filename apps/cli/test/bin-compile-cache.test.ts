import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const BIN = fileURLToPath(new URL("../bin/bintrie.js", import.meta.url));
const { version } = JSON.parse(
  readFileSync(new URL("../package.json", import.meta.url), "utf8"),
) as { version: string };

/** Runs the bin with `preload` (module source) loaded first. */
function runWith(preload: string) {
  const stub = `data:text/javascript,${encodeURIComponent(preload)}`;
  return spawnSync(process.execPath, ["--import", stub, BIN, "--version"], { encoding: "utf8" });
}

describe("the bintrie bin and Node's compile cache", () => {
  it("turns it on where Node has one (22.1 on), then runs the command line", () => {
    const ran = runWith(
      'import m from "node:module"; m.enableCompileCache = () => process.stderr.write("on\\n");',
    );
    expect([ran.stderr, ran.stdout.trim(), ran.status]).toEqual(["on\n", version, 0]);
  });

  it("runs as before where Node has none", () => {
    const ran = runWith('import m from "node:module"; delete m.enableCompileCache;');
    expect([ran.stderr, ran.stdout.trim(), ran.status]).toEqual(["", version, 0]);
  });
});
