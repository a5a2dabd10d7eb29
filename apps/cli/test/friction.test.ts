import { existsSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lines, runCli, tempDir } from "./helpers/run-cli.js";
import { entryLines, nodesetCase } from "./helpers/vectors.js";

// The rough edges of issue 17, each against the built CLI: one line on stderr naming the input,
// exit 2 for bad input or usage (nothing written), exit 1 for failures.
const CASE = nodesetCase("LargeNumberOfEntries"); // 256 entries; built at the default G = 5
const KEY = CASE.entries[0]!.key;

let dir: string;
let cleanup: () => Promise<void>;
let db: string;
let input: string;

beforeAll(async () => {
  ({ dir, cleanup } = await tempDir());
  db = join(dir, "db");
  input = join(dir, "entries.jsonl");
  await writeFile(input, entryLines(CASE.entries));
  const built = await runCli(["build", input, "--db", db]);
  expect(built.code).toBe(0);
  expect(built.stdout).toBe(`${CASE.root}\n`);
});
afterAll(() => cleanup());

function expectOneLine(stderr: string, ...parts: string[]): void {
  expect(lines(stderr)).toHaveLength(1);
  for (const part of parts) expect(stderr).toContain(part);
}

describe("bintrie: input rules", () => {
  it("strips a UTF-8 byte order mark from a build input", async () => {
    const file = join(dir, "bom.jsonl");
    await writeFile(file, `\ufeff${entryLines(CASE.entries)}`);
    const result = await runCli(["build", file, "--store", "memory"]);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(`${CASE.root}\n`);
  });

  it("strips a BOM from stdin too, and from a genesis file", async () => {
    const piped = await runCli(["build", "-", "--store", "memory"], {
      input: `\ufeff${entryLines(CASE.entries)}`,
    });
    expect(piped.stdout).toBe(`${CASE.root}\n`);
    const genesis = join(dir, "bom-genesis.json");
    await writeFile(
      genesis,
      '\ufeff{"alloc":{"0x0100000000000000000000000000000000000000":{"balance":"0x1"}}}',
    );
    const result = await runCli(["genesis", genesis, "--store", "memory"]);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
  });

  it("refuses 0X (uppercase x) in input lines and arguments, naming the input", async () => {
    const file = join(dir, "upper-x.jsonl");
    const upper = CASE.entries[0]!.key.replace(/^0x/, "0X");
    await writeFile(file, `${JSON.stringify({ key: upper, value: CASE.entries[0]!.value })}\n`);
    const built = await runCli(["build", file, "--db", join(dir, "never")]);
    expect(built.code).toBe(2);
    expectOneLine(built.stderr, "line 1", '"key"', "lowercase x");
    expect(existsSync(join(dir, "never"))).toBe(false);
    for (const args of [
      ["get", "--db", db, upper],
      ["key", "0X0100000000000000000000000000000000000000"],
      ["key", "0100000000000000000000000000000000000000"],
      ["chunkify", "6001"],
      ["storage", "--db", db, "0x0100000000000000000000000000000000000000", "0X01"],
    ]) {
      const result = await runCli(args);
      expect(result.code, args.join(" ")).toBe(2);
      expectOneLine(result.stderr, "lowercase x");
    }
  });

  it("accepts either case of hex digits", async () => {
    const result = await runCli(["get", "--db", db, KEY.toUpperCase().replace(/^0X/, "0x")]);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(`${CASE.entries[0]!.value}\n`);
  });

  it("an input without entries is exit 2 'no entries' and writes nothing", async () => {
    const file = join(dir, "blank.jsonl");
    await writeFile(file, "\n  \n\n");
    const fresh = join(dir, "empty-db");
    const result = await runCli(["build", file, "--db", fresh]);
    expect(result.code).toBe(2);
    expectOneLine(result.stderr, "blank.jsonl", "no entries");
    expect(existsSync(fresh)).toBe(false);
    const before = await runCli(["nodes", "--db", db]);
    const into = await runCli(["build", "-", "--db", db], { input: "" });
    expect(into.code).toBe(2);
    expectOneLine(into.stderr, "stdin", "no entries");
    expect((await runCli(["nodes", "--db", db])).stdout).toBe(before.stdout);
  });

  it("states the hex rule in the help", async () => {
    const help = await runCli(["get", "--help"]);
    expect(help.stdout).toContain("lowercase x; digits in either case");
  });
});

describe("bintrie: flags", () => {
  it("read-only commands refuse --store memory", async () => {
    for (const args of [
      ["nodes"],
      ["root"],
      ["get", KEY],
      ["account", "0x0100000000000000000000000000000000000000"],
      ["inspect"],
      ["verify"],
      ["stats"],
    ]) {
      const result = await runCli([...args, "--store", "memory"]);
      expect(result.code, args[0]).toBe(2);
      expectOneLine(result.stderr, `bintrie ${args[0]}: --store memory`, "only reads");
    }
  });

  it("nodes accepts --json (JSON lines either way)", async () => {
    const plain = await runCli(["nodes", "--db", db]);
    const json = await runCli(["nodes", "--db", db, "--json"]);
    expect(json.code).toBe(0);
    expect(json.stdout).toBe(plain.stdout);
    expect(lines(json.stdout)).toHaveLength(CASE.nodesets["5"]!.length);
  });

  it("checks --tmp-dir before any work: missing, or not a directory", async () => {
    for (const tmp of [join(dir, "no-such-dir"), input]) {
      const fresh = join(dir, "tmp-check-db");
      const result = await runCli(["build", input, "--db", fresh, "--tmp-dir", tmp]);
      expect(result.code).toBe(2);
      expectOneLine(result.stderr, `--tmp-dir ${tmp}`);
      expect(result.stderr).not.toMatch(/ENOENT|ENOTDIR|EACCES/);
      expect(existsSync(fresh)).toBe(false);
    }
  });
});

describe("bintrie: progress", () => {
  it("labels every phase of build and verify with done/total, rate, elapsed and ETA", async () => {
    const env = { BINTRIE_PROGRESS: "1" };
    const built = await runCli(["build", input, "--store", "memory"], { env });
    expect(built.code).toBe(0);
    const size = entryLines(CASE.entries).length.toLocaleString("en-US");
    expect(built.stderr).toMatch(
      new RegExp(
        `^1/2 reading and sorting .*entries.jsonl: ${size}/${size} B 100\\.0%, .* B/s, elapsed .*s, ETA .*s$`,
        "m",
      ),
    );
    expect(built.stderr).toMatch(
      /^2\/2 building the tree: 256\/256 entries 100\.0%, .* entries\/s, elapsed .*s, ETA .*s$/m,
    );
    const verified = await runCli(["verify", "--db", db], { env });
    expect(verified.code).toBe(0);
    const nodes = CASE.nodesets["5"]!.length;
    expect(verified.stderr).toMatch(
      new RegExp(`^1/2 counting stored nodes: ${nodes} nodes, .* nodes/s, elapsed`, "m"),
    );
    expect(verified.stderr).toMatch(
      new RegExp(
        `^2/2 walking and hashing from the root: ${nodes}/${nodes} nodes 100\\.0%, .*, elapsed .*, ETA .*$`,
        "m",
      ),
    );
  });

  it("prints no progress in a pipe unless asked", async () => {
    const result = await runCli(["build", input, "--store", "memory"]);
    expect(result.stderr).toBe("");
  });
});

describe("bintrie inspect", () => {
  it("--key shows the stem holding the key, its value and every group blob on the path", async () => {
    const result = await runCli(["inspect", "--db", db, "--key", KEY, "--json"]);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    const shown = JSON.parse(result.stdout) as {
      key: string;
      value: string;
      stem: { kind: string; stem: string; path: string; hash: string };
      path: { kind: string; path: string; hash: string }[];
    };
    expect(shown.key).toBe(KEY);
    expect(shown.value).toBe(CASE.entries[0]!.value);
    expect(shown.stem.kind).toBe("stem");
    expect(shown.stem.stem).toBe(KEY.slice(0, 64));
    expect(shown.path[0]!.path).toBe("0x");
    expect(shown.path[0]!.hash).toBe(CASE.root);
    // Each blob on the path is one of geth's node set, hash and all.
    const byPath = new Map(CASE.nodesets["5"]!.map((n) => [n.path, n.hash]));
    for (const node of [...shown.path, shown.stem]) {
      expect(node.kind === "stem" || node.kind === "group").toBe(true);
      expect(byPath.get(node.path)).toBe(node.hash);
    }
  });

  it("--key of a key no stem holds is exit 1 naming where the path ends", async () => {
    const absent = `0x${"ee".repeat(32)}`;
    const result = await runCli(["inspect", "--db", db, "--key", absent]);
    expect(result.code).toBe(1);
    expectOneLine(result.stderr, absent, "no stem holds");
  });

  it("every example of its --help works on a store built with the defaults", async () => {
    const help = await runCli(["inspect", "--help"]);
    const examples = help.stdout
      .split("\n")
      .filter((line) => line.trim().startsWith("$ bintrie inspect"))
      .map((line) =>
        line
          .trim()
          .slice(2)
          .replace(/\s+#.*$/, ""),
      );
    expect(examples.length).toBeGreaterThanOrEqual(3);
    // The help's key example is the quick start's first key; put it in the store first.
    const exampleKey = `0x${"00".repeat(31)}01`;
    const put = await runCli(["put", "--db", db, exampleKey, `0x${"00".repeat(31)}02`]);
    expect(put.code).toBe(0);
    for (const example of examples) {
      const args = example
        .split(/\s+/)
        .slice(1)
        .map((a) => (a === "./state" ? db : a));
      const result = await runCli(args);
      expect(result.stderr, example).toBe("");
      expect(result.code, example).toBe(0);
    }
  });
});
