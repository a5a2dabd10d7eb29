import { execFile, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { runCli } from "../src/cli/run-cli.js";
import { MAIN } from "./cli-process.js";
import { GETH_EVM } from "./geth-tools.js";
import { dataPath } from "./test-data.js";

/**
 * `run --trace` against geth's `evm blocktest --trace`: the same JSON opcode lines on stderr,
 * byte for byte (data/geth-blocktest-traces/PROVENANCE.md).
 */
interface TraceSet {
  /** Our flags, and geth's that mean the same. */
  readonly flags: readonly string[];
  readonly gethFlags: readonly string[];
  /** geth's stderr trace lines by fixture path (relative to test/). */
  readonly traces: Readonly<Record<string, string>>;
  /** The fixtures geth's blocktest fails (a block it refuses that the fixture expects valid). */
  readonly failing: readonly string[];
}

const SETS = JSON.parse(
  readFileSync(dataPath("geth-blocktest-traces/traces.json"), "utf8"),
) as readonly TraceSet[];
const scratch = mkdtempSync(join(tmpdir(), "bintrie-testnet-run-trace-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const fixturePath = (relative: string): string =>
  fileURLToPath(new URL(`./${relative}`, import.meta.url));

/** Runs the CLI in this process: exit code, stdout and stderr. */
async function cli(argv: readonly string[]) {
  let stdout = "";
  let stderr = "";
  const status = await runCli(argv, {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
  });
  return { status, stdout, stderr };
}

describe("run --trace writes geth's blocktest trace to stderr", () => {
  it("holds geth's traces of MPT, proof-of-work and UBT fixtures, with each set of switches", () => {
    expect(SETS.map((s) => Object.keys(s.traces).length)).toEqual([37, 3, 1]);
    expect(SETS[0]!.failing).toHaveLength(2);
    const all = SETS.flatMap((s) => Object.values(s.traces)).join("");
    // What the traces exercise: UBT code chunks copied, a failing call, memory, return data.
    for (const needle of [
      '"opName":"EXTCODECOPY"',
      '"error":"out of gas"',
      '"memory":"0x',
      '"returnData":"0x',
      '"stack":null',
    ]) {
      expect(all).toContain(needle);
    }
  });

  for (const set of SETS) {
    it.each(Object.keys(set.traces))(`${set.flags.join(" ")}: %s`, async (relative) => {
      const ran = await cli(["run", fixturePath(relative), ...set.flags]);
      expect(ran.stderr).toBe(set.traces[relative]);
      const fails = set.failing.includes(relative);
      expect(ran.stdout).toMatch(fails ? /\n0 passed, 1 failed\n$/ : /\n1 passed, 0 failed\n$/);
      expect(ran.status).toBe(fails ? 1 : 0);
    });
  }

  it("with --json, stdout stays JSON and stderr holds the trace alone (no plain summary)", async () => {
    const relative = "data/mpt/blockchain/ethereum-tests/ValidBlocks/bcExample/basefeeExample.json";
    const ran = await cli(["run", fixturePath(relative), "--trace", "--json"]);
    expect(ran.stderr).toBe(SETS[0]!.traces[relative]);
    const lines = ran.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(lines.at(-1).summary).toMatchObject({ passed: 1, failed: 0 });
  });

  it("a file's tests run by name, as geth's runner sorts them: its trace is theirs in that order", async () => {
    // Three vendored one-test fixtures in one file, in reverse order of their names; geth's
    // blocktest runs a file's tests by name (each on its own chain), so its trace of the file is
    // the three traces in that order (seen with four tests of one file, either order).
    const relatives = Object.keys(SETS[0]!.traces)
      .filter((relative) => !SETS[0]!.failing.includes(relative))
      .slice(0, 3);
    const tests = relatives.map((relative) => {
      const file = JSON.parse(readFileSync(fixturePath(relative), "utf8")) as Record<
        string,
        unknown
      >;
      const [name, test] = Object.entries(file)[0]!;
      return { name, test, trace: SETS[0]!.traces[relative]! };
    });
    const byName = [...tests].sort((a, b) => (a.name < b.name ? -1 : 1));
    const reversed = [...byName].reverse();
    const combined = join(scratch, "three-tests.json");
    writeFileSync(
      combined,
      JSON.stringify(Object.fromEntries(reversed.map((t) => [t.name, t.test]))),
    );
    const ran = await cli(["run", combined, "--trace"]);
    expect(ran.stdout).toMatch(/\n3 passed, 0 failed\n$/);
    expect(ran.stderr).toBe(byName.map((t) => t.trace).join(""));
  });

  it("without --trace nothing goes to stderr; a trace switch alone traces nothing", async () => {
    const relative = "data/mpt/blockchain/ethereum-tests/ValidBlocks/bcExample/basefeeExample.json";
    expect((await cli(["run", fixturePath(relative)])).stderr).toBe("");
    expect((await cli(["run", fixturePath(relative), "--trace.nostack"])).stderr).toBe("");
  });
});

/** geth's markdown traces (`--trace.format md`), by our flags (data/geth-blocktest-traces). */
const MARKDOWN_SETS = JSON.parse(
  readFileSync(dataPath("geth-blocktest-traces/markdown.json"), "utf8"),
) as readonly Omit<TraceSet, "failing">[];

describe("run --trace --trace.format md writes geth's markdown trace to stderr", () => {
  it("holds geth's tables of MPT, proof-of-work and UBT fixtures: creations, faults, errors", () => {
    expect(MARKDOWN_SETS.map((s) => Object.keys(s.traces).length)).toEqual([7, 1]);
    const all = MARKDOWN_SETS.flatMap((s) => Object.values(s.traces)).join("");
    for (const needle of [
      "  - create: `0x", // a creation's frame
      "\nError: at pc=", // geth's OnFault, its opcode as a number
      "|\nError: out of gas\n", // an instruction that failed before it ran
      "  - error: `<nil>`",
      "  - error: `contract creation code storage out of gas`",
      "  - output: `0x",
      "  - data: ``", // Go's %#x of no bytes
    ]) {
      expect(all).toContain(needle);
    }
  });

  for (const set of MARKDOWN_SETS) {
    it.each(Object.keys(set.traces))(`${set.flags.join(" ")}: %s`, async (relative) => {
      const ran = await cli(["run", fixturePath(relative), ...set.flags]);
      expect(ran.stderr).toBe(set.traces[relative]);
      expect(ran.stdout).toMatch(/\n1 passed, 0 failed\n$/);
    });
  }

  it("refuses struct (geth's own runs differ: Go's random map order) and names an unknown format", async () => {
    const relative = "data/geth-pow/fixtures/eip150.json";
    const struct = await cli(["run", fixturePath(relative), "--trace", "--trace.format", "struct"]);
    expect(struct.status).toBe(2);
    expect(struct.stderr).toContain("--trace.format struct is not offered");
    const unknown = await cli(["run", fixturePath(relative), "--trace", "--trace.format", "xml"]);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain('unknown trace format "xml" (json, md or markdown)');
    // json is the default, named or not.
    const json = await cli(["run", fixturePath(relative), "--trace", "--trace.format", "json"]);
    expect(json.stderr).toBe((await cli(["run", fixturePath(relative), "--trace"])).stderr);
  });
});

describe("run --trace (built CLI)", () => {
  it("a reader that closes stderr early (2>&1 >/dev/null | head) ends the run with exit 0", async () => {
    // The longest vendored trace (4 MB): the reader leaves after its first piece.
    const fixture = dataPath(
      "mpt/blockchain/ethereum-tests/ValidBlocks/bcStateTests/blockhashTests.json",
    );
    const child = spawn(process.execPath, [MAIN, "run", fixture, "--trace"], {
      stdio: ["ignore", "ignore", "pipe"],
    });
    let first = "";
    child.stderr.once("data", (chunk: Buffer) => {
      first = chunk.toString("utf8");
      child.stderr.destroy();
    });
    const [code, signal] = (await once(child, "exit")) as [number | null, string | null];
    expect(first.startsWith('{"pc":')).toBe(true);
    expect({ code, signal }).toEqual({ code: 0, signal: null });
  }, 60_000);
});

const run = promisify(execFile);

describe.runIf(GETH_EVM !== undefined)(
  "run --trace against geth's evm blocktest --trace, live",
  () => {
    // Every vendored blockchain test, the ones whose traces are too large to vendor too.
    const root = fileURLToPath(new URL(".", import.meta.url));
    const fixtures = readdirSync(root, { recursive: true, encoding: "utf8" })
      .filter((name) => name.endsWith(".json") && !name.includes("geth-blocktest-traces"))
      .filter((name) => readFileSync(join(root, name), "utf8").includes('"genesisRLP"'))
      .sort();
    it.each(fixtures)(
      "%s",
      async (relative) => {
        for (const set of SETS) {
          const geth = await run(
            GETH_EVM!,
            ["blocktest", ...set.gethFlags, fixturePath(relative)],
            {
              maxBuffer: 1 << 30,
            },
          ).catch((failed: { stderr: string }) => failed);
          const lines = geth.stderr
            .split("\n")
            .filter((line) => line.startsWith("{"))
            .map((line) => `${line}\n`)
            .join("");
          expect((await cli(["run", fixturePath(relative), ...set.flags])).stderr).toBe(lines);
        }
        const markdown = ["--trace", "--trace.format", "md"];
        const geth = await run(GETH_EVM!, ["blocktest", ...markdown, fixturePath(relative)], {
          maxBuffer: 1 << 30,
        }).catch((failed: { stderr: string }) => failed);
        expect((await cli(["run", fixturePath(relative), ...markdown])).stderr).toBe(
          withoutGethLog(geth.stderr),
        );
      },
      600_000,
    );
  },
);

/**
 * geth's stderr less its log: lines that start with a level and a time (`INFO [12-07|…`,
 * `ERROR[12-07|…`), and the block of lines it writes
 * for a block it refuses (from "########## BAD BLOCK" to its closing row of #, and the empty
 * line after it).
 */
function withoutGethLog(stderr: string): string {
  const kept: string[] = [];
  let inBadBlock = false;
  let afterBadBlock = false;
  for (const line of stderr.split("\n")) {
    if (inBadBlock) {
      if (/^#+$/.test(line)) {
        inBadBlock = false;
        afterBadBlock = true;
      }
      continue;
    }
    if (line.startsWith("########## BAD BLOCK")) {
      inBadBlock = true;
      continue;
    }
    if (afterBadBlock) {
      afterBadBlock = false;
      if (line === "") continue;
    }
    if (/^[A-Z]{4,5} ?\[\d\d-\d\d\|/.test(line)) continue;
    kept.push(line);
  }
  return kept.join("\n");
}
