import { existsSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { openLevelStore } from "@bintrie/store-level";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CliResult, lines, runAll, runCli, tempDir } from "./helpers/run-cli.js";
import { entryLines, nodesetCase } from "./helpers/vectors.js";

const CASE = nodesetCase("MerkleizeMultipleEntries");
const KEY = `0x${"00".repeat(31)}01`;
const VALUE = `0x${"11".repeat(32)}`;

let dir: string;
let cleanup: () => Promise<void>;
let db: string;
let good: string;
beforeAll(async () => {
  ({ dir, cleanup } = await tempDir());
  good = join(dir, "good.jsonl");
  await writeFile(good, entryLines(CASE.entries));
  db = join(dir, "db");
  const built = await runCli(["build", good, "--db", db]);
  expect(built.code).toBe(0);
});
afterAll(() => cleanup());

/** Exit 2, nothing on stdout, exactly one line on stderr matching `message`. */
function expectUsageError(result: CliResult, message: RegExp): void {
  expect(result.stdout).toBe("");
  expect(lines(result.stderr)).toHaveLength(1);
  expect(result.stderr.trimEnd()).toMatch(message);
  expect(result.code).toBe(2);
}

/** Every key and value of the database (read in this process, which is quicker than spawning). */
async function snapshot(at: string): Promise<string> {
  const store = await openLevelStore(at, { createIfMissing: false });
  try {
    let text = "";
    for await (const [key, value] of store.entries!()) {
      text += `${Buffer.from(key).toString("hex")}=${Buffer.from(value).toString("hex")}\n`;
    }
    expect(text).toContain("=");
    return text;
  } finally {
    await store.close();
  }
}

describe("usage", () => {
  it("--help of the program and of every command prints examples and exits 0", async () => {
    const commands = [
      "build",
      "nodes",
      "root",
      "get",
      "put",
      "genesis",
      "account",
      "storage",
      "code",
    ];
    commands.push("key", "chunkify", "inspect", "verify", "stats", "convert");
    const results = await runAll([
      () => runCli(["--help"]),
      ...commands.map((c) => () => runCli([c, "--help"])),
    ]);
    for (const result of results) {
      expect(result.code).toBe(0);
      expect(result.stdout).toContain("Examples:");
      expect(result.stderr).toBe("");
    }
    for (const c of commands) expect(results[0]!.stdout).toContain(`  ${c} `);
    expect(results[0]!.stdout).toContain("Exit codes:");
  });

  it("--version prints the package version", async () => {
    const result = await runCli(["--version"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^\d+\.\d+\.\d+/);
  });

  it.each([
    [["frobnicate"], /^bintrie: unknown command 'frobnicate'/],
    [["build", "--db", "x", "--bogus"], /^bintrie build: unknown option '--bogus'/],
    [["get", "--db", "x"], /^bintrie get: missing required argument 'KEY'/],
    [["root", "--db", "x", "extra"], /^bintrie root: too many arguments for 'root'/],
    [["build", "--group-depth", "9", "--store", "memory"], /argument '9' is invalid/],
    [["build", "--store", "disk"], /argument 'disk' is invalid/],
    [["root"], /^bintrie root: missing --db DIR/],
    [
      ["put", "--db", "x", "--store", "memory", `0x${"00".repeat(32)}`, `0x${"00".repeat(32)}`],
      /^bintrie put: use either --db DIR or --store memory/,
    ],
    [
      ["root", "--db", "x", "--store", "memory"],
      /^bintrie root: --store memory: this command only reads/,
    ],
    [["build", "--commit-every", "0", "--store", "memory"], /argument '0' is invalid/],
  ])("%j: exit 2, one line", async (args, message) => {
    expectUsageError(await runCli(args, { cwd: dir }), message);
  });

  it("no command prints the help on stderr with exit 2", async () => {
    const result = await runCli([]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("Usage: bintrie");
  });
});

describe("bad input: one line on stderr, exit 2, nothing written", () => {
  it.each([
    [
      "malformed hex key",
      ["put", `0x${"zz".repeat(32)}`, VALUE],
      /^bintrie put: KEY "0x(zz){32}" is not hex$/,
    ],
    [
      "short key",
      ["get", "0x0102"],
      /^bintrie get: KEY must be 32 bytes \(0x \+ 64 hex digits\), got 2 bytes: "0x0102"/,
    ],
    ["long value", ["put", KEY, `${VALUE}00`], /^bintrie put: VALUE must be 32 bytes/],
    [
      "odd hex",
      ["put", KEY, "0x123"],
      /^bintrie put: VALUE "0x123" has an odd number of hex digits/,
    ],
  ])("%s", async (_name, args, message) => {
    const before = await snapshot(db);
    const result = await runCli([args[0]!, "--db", db, ...args.slice(1)]);
    expectUsageError(result, message);
    expect(await snapshot(db)).toBe(before);
  });

  it.each([
    ["not JSON", '{"key":', /line 2: not valid JSON/],
    [
      "short key",
      `{"key":"0x12","value":"${VALUE}"}`,
      /line 2: "key" must be 32 bytes of hex \(0x followed by hex digits \(lowercase x; digits in either case\): 64 digits\), got "0x12" \(1 bytes\)/,
    ],
    ["missing value", `{"key":"${KEY}"}`, /line 2: missing "value"/],
    ["array", "[1,2]", /line 2: expected an object/],
    [
      "non-hex value",
      `{"key":"${KEY}","value":"0x${"gg".repeat(32)}"}`,
      /line 2: "value" must be 32 bytes of hex/,
    ],
  ])(
    "build with a bad JSON line (%s) names the line and changes nothing",
    async (_name, line, message) => {
      const file = join(dir, "bad.jsonl");
      await writeFile(
        file,
        `${entryLines(CASE.entries.slice(0, 1))}${line}\n${entryLines(CASE.entries.slice(1))}`,
      );
      const before = await snapshot(db);
      expectUsageError(
        await runCli(["build", file, "--db", db]),
        new RegExp(`^bintrie build: ${file.replace(/[.]/g, "\\.")} ${message.source}`),
      );
      expect(await snapshot(db)).toBe(before);
      // Into a new directory: it is not even created. From stdin: the source is named "stdin".
      const fresh = join(dir, "never-created");
      expectUsageError(
        await runCli(["build", "-", "--db", fresh], { input: `\n${line}\n` }),
        new RegExp(`^bintrie build: stdin ${message.source}`),
      );
      expect(existsSync(fresh)).toBe(false);
    },
  );

  it("a missing input file", async () => {
    const fresh = join(dir, "never-created");
    const result = await runCli(["build", join(dir, "nope.jsonl"), "--db", fresh]);
    expectUsageError(result, /^bintrie build: cannot read .*nope\.jsonl: no such file$/);
    expect(existsSync(fresh)).toBe(false);
    expectUsageError(
      await runCli(["genesis", join(dir, "nope.json"), "--db", fresh]),
      /no such file/,
    );
  });

  it("a store written with another scheme or group depth", async () => {
    const before = await snapshot(db);
    expectUsageError(
      await runCli(["build", good, "--db", db, "--scheme", "blake3-be"]),
      /^bintrie build: the store was committed with key scheme 'sha256-be', not 'blake3-be'$/,
    );
    expectUsageError(
      await runCli(["put", "--db", db, KEY, VALUE, "--group-depth", "8"]),
      /^bintrie put: the store was committed with group depth 5, not 8$/,
    );
    expect(await snapshot(db)).toBe(before);
  });

  it("a database locked by another process", async () => {
    const holder = await openLevelStore(db, { createIfMissing: false });
    try {
      for (const args of [
        ["build", good, "--db", db],
        ["root", "--db", db],
        ["verify", "--db", db],
      ]) {
        expectUsageError(
          await runCli(args),
          /^bintrie \w+: the database at .* is locked by another process/,
        );
      }
    } finally {
      await holder.close();
    }
  });

  it("a missing database for read commands, a file as --db", async () => {
    const missing = join(dir, "no-such-db");
    for (const command of ["root", "nodes", "verify", "stats", "inspect"]) {
      expectUsageError(await runCli([command, "--db", missing]), /no database at .*no-such-db/);
    }
    expect(existsSync(missing)).toBe(false);
    expectUsageError(await runCli(["root", "--db", good]), /is not a directory/);
    const empty = join(dir, "empty-dir");
    await mkdir(empty);
    expectUsageError(
      await runCli(["root", "--db", empty]),
      /^bintrie root: --db .*empty-dir is not a bintrie database \(no LevelDB CURRENT file\)/,
    );
  });
});

describe("get and put", () => {
  it("put commits and prints the new root; get reads it back", async () => {
    const target = join(dir, "put");
    const put = await runCli(["put", "--db", target, KEY, VALUE, "--json"]);
    expect(put.code).toBe(0);
    const { BinaryTree } = await import("@bintrie/core");
    const tree = new BinaryTree();
    tree.put(Buffer.from(KEY.slice(2), "hex"), Buffer.from(VALUE.slice(2), "hex"));
    const root = `0x${Buffer.from(tree.hash()).toString("hex")}`;
    expect(JSON.parse(put.stdout)).toEqual({ root });
    const get = await runCli(["get", "--db", target, KEY]);
    expect(get.stdout).toBe(`${VALUE}\n`);
    expect((await runCli(["root", "--db", target])).stdout).toBe(`${root}\n`);
  });
});
