// Exit codes and output when stdout or stderr fail (a reader that closes early, a full disk),
// and the wording of usage and library errors: `bintrie CMD: message` naming the CLI input.
import { spawn } from "node:child_process";
import { closeSync, existsSync, openSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { openLevelStore } from "@bintrie/store-level";
import { buildMptBase } from "@bintrie/transition";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hexOf } from "./helpers/random-entries.js";
import {
  BIN,
  type CliResult,
  childEnv,
  lines,
  runAll,
  runCli,
  tempDir,
} from "./helpers/run-cli.js";
import { tamperNode } from "./helpers/tamper.js";
import { entryLines } from "./helpers/vectors.js";

const ENTRIES = [1, 2, 3, 4].map((i) => ({
  key: `0x${i.toString(16).padStart(64, "0")}`,
  value: `0x${(i * 2).toString(16).padStart(64, "0")}`,
}));
const ABSENT_KEY = `0x${"00".repeat(31)}09`;

let dir: string;
let cleanup: () => Promise<void>;
let input: string;
let good: string;
let corrupt: string;
/** The root of ENTRIES. */
let ROOT: string;
beforeAll(async () => {
  ({ dir, cleanup } = await tempDir());
  input = join(dir, "entries.jsonl");
  await writeFile(input, entryLines(ENTRIES));
  good = join(dir, "good");
  corrupt = join(dir, "corrupt");
  const built = await runAll([
    () => runCli(["build", input, "--db", good]),
    () => runCli(["build", input, "--db", corrupt]),
  ]);
  ROOT = built[0]!.stdout.trim();
  expect(ROOT).toMatch(/^0x[0-9a-f]{64}$/);
  expect(built[1]!.stdout.trim()).toBe(ROOT);
  // The root node gone: verify reports MISSING_NODE (exit 1).
  await tamperNode(corrupt, "0x", () => undefined);
});
afterAll(() => cleanup());

/**
 * Runs the binary with stdout and/or stderr closed at the reading end before it writes (as
 * `| true` or `| head` do, deterministically), or stdout on a file descriptor (/dev/full).
 */
function runWith(
  args: readonly string[],
  options: {
    closeStdout?: boolean;
    closeStderr?: boolean;
    stdoutFd?: number;
    env?: Record<string, string>;
  },
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const env = childEnv(options.env);
    const child = spawn(process.execPath, [BIN, ...args], {
      env,
      stdio: ["ignore", options.stdoutFd ?? "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    if (options.closeStdout) child.stdout!.destroy();
    else child.stdout?.setEncoding("utf8").on("data", (s: string) => (stdout += s));
    if (options.closeStderr) child.stderr!.destroy();
    else child.stderr!.setEncoding("utf8").on("data", (s: string) => (stderr += s));
    child.on("error", reject);
    child.on("close", (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

/** Exactly one line on stderr, matching `message`, no stack trace. */
function expectOneLine(result: CliResult, message: RegExp): void {
  expect(lines(result.stderr)).toHaveLength(1);
  expect(result.stderr.trimEnd()).toMatch(message);
  expect(result.stderr).not.toMatch(/\n\s+at |throw error/);
}

describe("a closed stdout keeps the command's exit code", () => {
  it("verify of a corrupt store and get of an absent key still exit 1; nodes exits 0 quietly", async () => {
    // (One command at a time per database: LevelDB locks it.)
    const [verify, get] = await runAll([
      () => runWith(["verify", "--db", corrupt], { closeStdout: true }),
      () => runWith(["get", "--db", good, ABSENT_KEY, "--json"], { closeStdout: true }),
    ]);
    const nodes = await runWith(["nodes", "--db", good], { closeStdout: true });
    expect(verify!.code).toBe(1);
    expect(verify!.stderr).toMatch(/^bintrie verify: MISSING_NODE at path 0x/);
    expect(get!.code).toBe(1);
    expectOneLine(get!, /^bintrie get: no value at key 0x0{62}09$/);
    expect(nodes.code).toBe(0);
    expect(nodes.stderr).toBe("");
  });
});

describe.skipIf(!existsSync("/dev/full"))("stdout write errors (a full disk)", () => {
  async function toDevFull(args: readonly string[]): Promise<CliResult> {
    const fd = openSync("/dev/full", "w");
    try {
      return await runWith(args, { stdoutFd: fd });
    } finally {
      closeSync(fd);
    }
  }

  it("are one line `cannot write the output` and exit 1, without a stack trace", async () => {
    // (root and nodes read the same database, one after the other: LevelDB locks it.)
    const [key, root] = await runAll([
      () => toDevFull(["key", "0x0100000000000000000000000000000000000000"]),
      () => toDevFull(["root", "--db", good]),
    ]);
    const nodes = await toDevFull(["nodes", "--db", good]);
    const results = [key, root, nodes];
    for (const [result, command] of [
      [results[0]!, "key"],
      [results[1]!, "root"],
      [results[2]!, "nodes"],
    ] as const) {
      expect(result.code).toBe(1);
      expectOneLine(result, new RegExp(`^bintrie ${command}: cannot write the output: ENOSPC`));
    }
  });

  it("after a build say that the build was committed", async () => {
    const db = join(dir, "full-build");
    const result = await toDevFull(["build", input, "--db", db]);
    expect(result.code).toBe(1);
    expectOneLine(
      result,
      /^bintrie build: cannot write the output: ENOSPC.* \(the build was committed to --db /,
    );
    const root = await runCli(["root", "--db", db]);
    expect(root.stdout.trim()).toBe(ROOT);
  });
});

describe("a closed stderr", () => {
  it("stops the progress lines but not the build (its result on stdout, exit 0)", async () => {
    const db = join(dir, "closed-stderr");
    const result = await runWith(["build", input, "--db", db, "--json"], {
      closeStderr: true,
      env: { BINTRIE_PROGRESS: "1" },
    });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ root: ROOT, entries: 4, nodes: 1 });
  });
});

describe("usage errors are `bintrie CMD: message`", () => {
  it("name the command of a bad flag, and the unknown topic of help", async () => {
    const [threads, unknownFlag, help] = await runAll([
      () => runCli(["build", input, "--threads", "0", "--store", "memory"]),
      () => runCli(["build", input, "--bogus", "--store", "memory"]),
      () => runCli(["help", "bogus"]),
    ]);
    for (const result of [threads!, unknownFlag!, help!]) {
      expect(result.code).toBe(2);
      expect(result.stdout).toBe("");
    }
    expectOneLine(threads!, /^bintrie build: option '--threads <N>' argument '0' is invalid/);
    expectOneLine(unknownFlag!, /^bintrie build: unknown option '--bogus'/);
    expectOneLine(help!, /^bintrie help: unknown command 'bogus'$/);
  });
});

describe("convert errors name the CLI input at fault (exit 2)", () => {
  it("a --mpt-root whose node is not in the store", async () => {
    const root = `0x${"00".repeat(31)}01`;
    const result = await runCli(["convert", "--store", "memory", "--mpt-root", root]);
    expect(result.code).toBe(2);
    expectOneLine(result, new RegExp(`^bintrie convert: --mpt-root ${root}: `));
  });

  it("--mpt-root without --preimages, and a store holding a plain tree", async () => {
    const db = join(dir, "mpt-base");
    const store = await openLevelStore(db);
    let baseRoot: string;
    try {
      const base = await buildMptBase(store, {
        "0x0100000000000000000000000000000000000000": { balance: "0x1" },
      });
      baseRoot = hexOf(base.root);
    } finally {
      await store.close();
    }
    const [noPreimages, plain] = await runAll([
      () => runCli(["convert", "--db", db, "--mpt-root", baseRoot]),
      () => runCli(["convert", "--db", good, "--mpt-root", baseRoot]),
    ]);
    expect(noPreimages!.code).toBe(2);
    expectOneLine(noPreimages!, /^bintrie convert: .*--preimages FILE/);
    expect(noPreimages!.stderr).not.toMatch(/options\.preimages|setPreimageSource/);
    expect(plain!.code).toBe(2);
    expectOneLine(plain!, new RegExp(`^bintrie convert: .*--db ${good}.* plain binary tree`));
    expect(plain!.stderr).not.toMatch(/openTree/);
  });
});

describe("genesis input errors", () => {
  it("an out-of-range nonce names the file and the account", async () => {
    const file = join(dir, "big-nonce.json");
    const address = "0x0100000000000000000000000000000000000000";
    await writeFile(
      file,
      JSON.stringify({ alloc: { [address]: { balance: "0x1", nonce: "0x10000000000000000" } } }),
    );
    const result = await runCli(["genesis", file, "--store", "memory"]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    expectOneLine(result, /^bintrie genesis: .*big-nonce\.json: .*nonce/);
    expect(result.stderr).toContain(address);
  });
});
