// Inputs that are not regular files, stores that must not be written, worker counts and
// interruptions: each case against the built CLI, as a user would run it.
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { createWriteStream, existsSync } from "node:fs";
import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BIN, type CliResult, childEnv, lines, runCli, tempDir } from "./helpers/run-cli.js";
import { entryLines, nodesetCase } from "./helpers/vectors.js";

const CASE = nodesetCase("MerkleizeMultipleEntries");
const ADDRESS = "0x0100000000000000000000000000000000000000";
/** An alloc the binary-tree embedding refuses: a nonce of 2^64 does not fit 8 bytes. */
const BAD_ALLOC = `{"alloc":{"${ADDRESS}":{"balance":"0x1","nonce":"0x10000000000000000"}}}`;

let dir: string;
let cleanup: () => Promise<void>;
let input: string;
let text: string;
let badGenesis: string;

beforeAll(async () => {
  ({ dir, cleanup } = await tempDir());
  text = entryLines(CASE.entries);
  input = join(dir, "entries.jsonl");
  await writeFile(input, text);
  badGenesis = join(dir, "g7.json");
  await writeFile(badGenesis, BAD_ALLOC);
});
afterAll(() => cleanup());

/** Exit 2, nothing on stdout, one line on stderr containing every part. */
function expectUsageError(result: CliResult, ...parts: string[]): void {
  expect(result.stdout).toBe("");
  expect(lines(result.stderr)).toHaveLength(1);
  for (const part of parts) expect(result.stderr).toContain(part);
  expect(result.code).toBe(2);
}

/** Resolves with the exit code (or signal) and output of a child spawned by the test. */
function finished(child: ChildProcess): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    let stdout = "";
    let stderr = "";
    child.stdout!.setEncoding("utf8").on("data", (s: string) => {
      stdout += s;
    });
    child.stderr!.setEncoding("utf8").on("data", (s: string) => {
      stderr += s;
    });
    child.on("error", reject);
    child.on("close", (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

describe("build reads inputs that cannot be read at a position", () => {
  it("a FIFO, read front to back (progress without a total)", async () => {
    const fifo = join(dir, "entries.fifo");
    execFileSync("mkfifo", [fifo]);
    const child = spawn(process.execPath, [BIN, "build", fifo, "--store", "memory"], {
      env: childEnv({ BINTRIE_PROGRESS: "1" }),
      stdio: ["ignore", "pipe", "pipe"],
    });
    const done = finished(child);
    const writer = createWriteStream(fifo);
    writer.end(text);
    const result = await done;
    expect(result.stderr).not.toContain("bintrie build:");
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(`${CASE.root}\n`);
    const bytes = Buffer.byteLength(text).toLocaleString("en-US");
    expect(result.stderr).toMatch(
      new RegExp(`^1/2 reading and sorting .*entries\\.fifo: ${bytes} B`, "m"),
    );
    expect(result.stderr).not.toContain(`${bytes}/${bytes} B`);
  });

  it("/dev/stdin of a pipe, and a process substitution", async () => {
    const piped = await runCli(["build", "/dev/stdin", "--store", "memory"], { input: text });
    expect(piped.stderr).toBe("");
    expect(piped.stdout).toBe(`${CASE.root}\n`);
    expect(piped.code).toBe(0);
    const substituted = await finished(
      spawn(
        "bash",
        ["-c", `"$0" "$1" build <(cat "$2") --store memory`, process.execPath, BIN, input],
        {
          stdio: ["ignore", "pipe", "pipe"],
        },
      ),
    );
    expect(substituted.stderr).toBe("");
    expect(substituted.stdout).toBe(`${CASE.root}\n`);
    expect(substituted.code).toBe(0);
  });
});

describe("a failure with exit 2 writes nothing", () => {
  it("convert --genesis with a nonce out of range: no database, the error names the file and account", async () => {
    const db = join(dir, "ndc");
    const result = await runCli(["convert", "--genesis", badGenesis, "--db", db]);
    expectUsageError(result, "g7.json", `alloc[${ADDRESS}]`, "nonce");
    expect(existsSync(db)).toBe(false);
  });

  it("a genesis field error names its account once", async () => {
    const file = join(dir, "bad-balance.json");
    await writeFile(file, JSON.stringify({ alloc: { [ADDRESS]: { balance: "0xzz" } } }));
    const result = await runCli(["genesis", file, "--store", "memory"]);
    expectUsageError(result, `bad-balance.json: alloc[${ADDRESS}].balance: "0xzz"`);
    expect(result.stderr.split(ADDRESS.slice(2)).length).toBe(2);
  });

  it("build and genesis remove the parent directories they created", async () => {
    const empty = join(dir, "empty.jsonl");
    await writeFile(empty, "");
    const built = await runCli(["build", empty, "--db", join(dir, "deep", "a", "b")]);
    expectUsageError(built, "no entries");
    expect(existsSync(join(dir, "deep"))).toBe(false);
    const genesis = await runCli(["genesis", badGenesis, "--db", join(dir, "x", "y")]);
    expectUsageError(genesis, "g7.json", `alloc[${ADDRESS}]`);
    expect(existsSync(join(dir, "x"))).toBe(false);
  });

  // Node 20's recursive mkdir spins forever under /proc (ENOENT from an existing parent).
  it.runIf(existsSync("/proc/self"))(
    "a --db whose directories cannot be made (under /proc) is exit 2 at once",
    async () => {
      const started = Date.now();
      const built = await runCli(["build", input, "--db", "/proc/bintrie-test/a/b"]);
      expectUsageError(built, "cannot create --db /proc/bintrie-test/a/b", "ENOENT");
      expect(Date.now() - started).toBeLessThan(30_000);
    },
  );

  it("an existing empty directory is left empty; a good build then fills it", async () => {
    const db = join(dir, "was-empty");
    await mkdir(db);
    const empty = join(dir, "blank.jsonl");
    await writeFile(empty, "\n");
    expectUsageError(await runCli(["build", empty, "--db", db]), "no entries");
    expectUsageError(await runCli(["convert", "--genesis", badGenesis, "--db", db]), "g7.json");
    expect(await readdir(db)).toEqual([]);
    const built = await runCli(["build", input, "--db", db]);
    expect(built.code).toBe(0);
    expect(built.stdout).toBe(`${CASE.root}\n`);
  });
});

describe("--threads", () => {
  it("refuses more than 1024, naming --threads, and writes nothing", async () => {
    const db = join(dir, "t-db");
    const result = await runCli(["build", input, "--db", db, "--threads", "1025"]);
    expectUsageError(result, "--threads", "1..1024");
    expect(existsSync(db)).toBe(false);
  });

  it.skipIf(!existsSync("/proc/self/status"))(
    "starts no more workers than can be used: --threads 256 on a few entries runs a handful",
    async () => {
      const child = spawn(
        process.execPath,
        [BIN, "build", input, "--store", "memory", "--threads", "256"],
        { env: childEnv(), stdio: ["ignore", "pipe", "pipe"] },
      );
      const done = finished(child);
      // The most threads the process had at once (its own, V8's and libuv's, and the workers').
      let most = 0;
      let running = true;
      void done.then(() => {
        running = false;
      });
      while (running) {
        const status = await readFile(`/proc/${child.pid}/status`, "utf8").catch(() => "");
        most = Math.max(most, Number(/^Threads:\s+(\d+)/m.exec(status)?.[1] ?? 0));
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      const result = await done;
      expect(result.stderr).toBe("");
      expect(result.stdout).toBe(`${CASE.root}\n`);
      expect(result.code).toBe(0);
      // 256 workers meant 256+ threads (and about 1.6 GB); no more workers than entries now.
      expect(most).toBeGreaterThan(0);
      expect(most).toBeLessThan(40);
    },
  );
});

describe("a directory that holds no LevelDB is not written into", () => {
  it("read-only commands refuse it with exit 2 and leave it as it was", async () => {
    const somedir = join(dir, "somedir");
    await mkdir(somedir);
    await writeFile(join(somedir, "notes.txt"), "hi\n");
    for (const args of [
      ["root"],
      ["nodes"],
      ["verify"],
      ["stats"],
      ["get", CASE.entries[0]!.key],
    ]) {
      const result = await runCli([...args, "--db", somedir]);
      expectUsageError(
        result,
        `--db ${somedir} is not a bintrie database (no LevelDB CURRENT file)`,
      );
    }
    expect(await readdir(somedir)).toEqual(["notes.txt"]);
  });

  it("commands that write refuse it unless it is empty", async () => {
    const somedir = join(dir, "otherdir");
    await mkdir(somedir);
    await writeFile(join(somedir, "notes.txt"), "hi\n");
    expectUsageError(await runCli(["build", input, "--db", somedir]), "not a bintrie database");
    expectUsageError(
      await runCli(["put", CASE.entries[0]!.key, CASE.entries[0]!.value, "--db", somedir]),
      "not a bintrie database",
    );
    expect(await readdir(somedir)).toEqual(["notes.txt"]);
  });

  it("a build into a database a killed build left unfinished (LevelDB files, no CURRENT) works", async () => {
    const unfinished = join(dir, "unfinished");
    await mkdir(unfinished);
    await writeFile(join(unfinished, "LOCK"), "");
    await writeFile(join(unfinished, "LOG"), "");
    expectUsageError(await runCli(["root", "--db", unfinished]), "not a bintrie database");
    const built = await runCli(["build", input, "--db", unfinished]);
    expect(built.code).toBe(0);
    expect(built.stdout).toBe(`${CASE.root}\n`);
    expect((await runCli(["root", "--db", unfinished])).stdout).toBe(`${CASE.root}\n`);
  });
});

describe("an interrupted build removes its temporary directory", () => {
  /**
   * Starts a build that reads stdin held open (so it is still reading), waits for its external
   * sort directory under `tmp`, sends `signal` and returns how it ended.
   */
  async function interrupt(signal: NodeJS.Signals, tmp: string, db: string): Promise<CliResult> {
    await mkdir(tmp, { recursive: true });
    const child = spawn(process.execPath, [BIN, "build", "-", "--db", db, "--tmp-dir", tmp], {
      env: childEnv(),
      stdio: ["pipe", "pipe", "pipe"],
    });
    const done = finished(child);
    child.stdin!.write(text);
    for (let i = 0; i < 400 && (await readdir(tmp)).length === 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect((await readdir(tmp)).some((name) => name.startsWith("bintrie-sort-"))).toBe(true);
    child.kill(signal);
    const result = await done;
    child.stdin!.destroy();
    return result;
  }

  it("SIGINT: exit 130, no bintrie-sort-* left, the store as it was", async () => {
    const db = join(dir, "int-db");
    expect((await runCli(["build", input, "--db", db])).code).toBe(0);
    const tmp = join(dir, "td-int");
    const result = await interrupt("SIGINT", tmp, db);
    expect(result.stderr).toBe("bintrie build: interrupted by SIGINT\n");
    expect(result.code).toBe(130);
    expect(await readdir(tmp)).toEqual([]);
    const root = await runCli(["root", "--db", db]);
    expect(root.stdout).toBe(`${CASE.root}\n`);
    expect((await runCli(["verify", "--db", db, "--strict"])).code).toBe(0);
  });

  it("SIGTERM: exit 143, no bintrie-sort-* left", async () => {
    const tmp = join(dir, "td-term");
    const result = await interrupt("SIGTERM", tmp, join(dir, "term-db"));
    expect(result.stderr).toBe("bintrie build: interrupted by SIGTERM\n");
    expect(result.code).toBe(143);
    expect(await readdir(tmp)).toEqual([]);
  });
});
