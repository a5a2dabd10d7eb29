import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { VERSION } from "./cli-process.js";

const BIN = fileURLToPath(new URL("../bin/bintrie-testnet.js", import.meta.url));

/** `bintrie-testnet --version` with a module that changes Node's `node:module` loaded first. */
function versionWith(preload: string) {
  const first = `data:text/javascript,${encodeURIComponent(`import m from "node:module"; ${preload}`)}`;
  return spawnSync(process.execPath, ["--import", first, BIN, "--version"], { encoding: "utf8" });
}

describe("the bintrie-testnet bin: Node's compile cache", () => {
  it("is turned on where Node has it (22.1 on) before the bundle loads", () => {
    const ran = versionWith('m.enableCompileCache = () => process.stderr.write("cache\\n");');
    expect({ stderr: ran.stderr, stdout: ran.stdout.trim() }).toEqual({
      stderr: "cache\n",
      stdout: VERSION,
    });
  });

  it("is left alone where Node has none (20, 22.0)", () => {
    const ran = versionWith("delete m.enableCompileCache;");
    expect({ stderr: ran.stderr, stdout: ran.stdout.trim(), status: ran.status }).toEqual({
      stderr: "",
      stdout: VERSION,
      status: 0,
    });
  });
});
