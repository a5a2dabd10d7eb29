import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { cliFixture, MAIN, runBuilt } from "./cli-process.js";

/**
 * Output locations (built CLI): an unusable one is one line naming the flag, exit 2, before any
 * work (no block printed); a path under /proc fails instead of hanging (Node 20's recursive
 * mkdir loops there); a write that fails part-way (EFBIG under `ulimit -f`) keeps the previous
 * file and leaves no temporary file behind.
 */
const dir = mkdtempSync(join(tmpdir(), "bintrie-testnet-output-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const aFile = join(dir, "afile");
const aDir = join(dir, "adir");
writeFileSync(aFile, "not a directory\n");
mkdirSync(aDir);

const T8N = [
  "t8n",
  "--input.alloc",
  cliFixture("t8n/transfer/alloc.json"),
  "--input.env",
  cliFixture("t8n/transfer/env.json"),
  "--input.txs",
  cliFixture("t8n/transfer/txs.json"),
  "--state.fork",
  "Shanghai",
];
const CHAIN = join(dir, "chain.json");
writeFileSync(
  CHAIN,
  JSON.stringify({
    genesis: { alloc: { "0x71562b71999873db5b286df957af199ec94617f7": { balance: "0x1" } } },
    blocks: [{}],
  }),
);

describe("unusable output locations: exit 2 (t8n: 11, geth's), one line naming the flag, before the work", () => {
  const cases: [string, string[], RegExp][] = [
    [
      "t8n --output.basedir under /proc",
      [...T8N, "--output.basedir", "/proc/nope"],
      /^bintrie-testnet t8n: --output\.basedir \/proc\/nope: cannot create \/proc\/nope \(ENOENT\)\n$/,
    ],
    [
      "t8n --output.basedir a file",
      [...T8N, "--output.basedir", aFile],
      /^bintrie-testnet t8n: --output\.basedir .*afile: not a directory\n$/,
    ],
    [
      "t8n --output.result a directory",
      [...T8N, "--output.basedir", dir, "--output.result", "adir"],
      /^bintrie-testnet t8n: --output\.result .*adir: is a directory, not a file\n$/,
    ],
    [
      "devnet --out under /proc",
      ["devnet", "--blocks", "1", "--out", "/proc/x/d.json"],
      /^bintrie-testnet devnet: --out \/proc\/x\/d\.json: cannot create \/proc\/x \(ENOENT\)\n$/,
    ],
    [
      "devnet --out a directory",
      ["devnet", "--blocks", "1", "--out", aDir],
      /^bintrie-testnet devnet: --out .*adir: is a directory, not a file\n$/,
    ],
    [
      "fill --out a file",
      ["fill", CHAIN, "--out", aFile],
      /^bintrie-testnet fill: --out .*afile: not a directory\n$/,
    ],
    [
      "fill --out below a file",
      ["fill", CHAIN, "--out", join(aFile, "sub")],
      /^bintrie-testnet fill: --out .*afile\/sub: .*afile is not a directory\n$/,
    ],
  ];
  for (const [name, args, stderr] of cases) {
    it(name, () => {
      const ran = spawnSync(process.execPath, [MAIN, ...args], {
        encoding: "utf8",
        // A hang is forever; a start-up of this CLI on a loaded 2-core machine takes seconds.
        timeout: 45_000,
      });
      expect(ran.signal).toBeNull(); // not killed by the timeout: no hang
      // t8n: geth's ErrorIO ("failed creating output basedir", cli-fixtures' exit-codes.json).
      const status = name.startsWith("t8n") ? 11 : 2;
      expect({ status: ran.status, stderr: ran.stderr }).toMatchObject({ status });
      expect(ran.stderr).toMatch(stderr);
      expect(ran.stdout).not.toMatch(/block 1|FILLED|wrote/);
    }, 60_000);
  }
});

describe("a failed write keeps the previous file", () => {
  function underFileSizeLimit(args: readonly string[]): { status: number | null; stderr: string } {
    // ulimit -f 1: files stop at 1 KiB (EFBIG), as a full disk would stop them.
    const quoted = [process.execPath, MAIN, ...args].map((a) => `'${a}'`).join(" ");
    const ran = spawnSync("bash", ["-c", `ulimit -f 1; ${quoted}`], { encoding: "utf8" });
    return { status: ran.status, stderr: ran.stderr };
  }

  it("devnet --out", () => {
    const out = join(dir, "keep", "devnet.json");
    mkdirSync(join(dir, "keep"));
    writeFileSync(out, "the previous fixture\n");
    const ran = underFileSizeLimit(["devnet", "--blocks", "1", "--out", out]);
    expect(ran).toEqual({
      status: 1,
      stderr: `bintrie-testnet devnet: --out ${out}: cannot write it (EFBIG)\n`,
    });
    expect(readFileSync(out, "utf8")).toBe("the previous fixture\n");
    expect(readdirSync(join(dir, "keep"))).toEqual(["devnet.json"]);
  }, 60_000);

  it("t8n --output.result", () => {
    const base = join(dir, "keep-t8n");
    mkdirSync(base);
    writeFileSync(join(base, "result.json"), "{}");
    const ran = underFileSizeLimit([...T8N, "--output.basedir", base, "--output.alloc", ""]);
    expect(ran).toEqual({
      // geth's ErrorIO for an output it could not write.
      status: 11,
      stderr: `bintrie-testnet t8n: --output.result ${join(base, "result.json")}: cannot write it (EFBIG)\n`,
    });
    expect(readFileSync(join(base, "result.json"), "utf8")).toBe("{}");
    expect(readdirSync(base)).toEqual(["result.json"]);
  }, 60_000);

  it("fill --out", () => {
    const out = join(dir, "keep-fill");
    mkdirSync(out);
    writeFileSync(join(out, "chain.json"), "old");
    const ran = underFileSizeLimit(["fill", CHAIN, "--out", out]);
    expect(ran.status).toBe(1);
    expect(ran.stderr).toBe(
      `bintrie-testnet fill: --out ${join(out, "chain.json")}: cannot write it (EFBIG)\n`,
    );
    expect(readFileSync(join(out, "chain.json"), "utf8")).toBe("old");
    expect(readdirSync(out)).toEqual(["chain.json"]);
  }, 60_000);
});

describe("writes still work", () => {
  it("a nested new --output.basedir is made", () => {
    const base = join(dir, "new", "nested");
    expect(runBuilt([...T8N, "--output.basedir", base]).status).toBe(0);
    expect(readdirSync(base).sort()).toEqual(["alloc.json", "result.json"]);
  });
});
