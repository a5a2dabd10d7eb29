import { spawn } from "node:child_process";
import { cp, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { BinaryTree } from "@bintrie/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bytesOf, hexOf, randomEntries } from "./helpers/random-entries.js";
import { BIN, childEnv, runCli, tempDir } from "./helpers/run-cli.js";
import { entryLines } from "./helpers/vectors.js";

type Entry = { key: string; value: string };

const ENTRIES = randomEntries(2400, 99);
const COMMIT_EVERY = 150;
const ROUNDS = 2;
const ZERO_ROOT = `0x${"00".repeat(32)}`;

/**
 * Every root a build of `added` on top of `base` may have committed: after each chunk of
 * COMMIT_EVERY entries, chunked in input order or in key order (a build may sort its input).
 */
function committableRoots(base: readonly Entry[], added: readonly Entry[]): Set<string> {
  const roots = new Set<string>([base.length === 0 ? ZERO_ROOT : rootOf(base)]);
  const sorted = [...added].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  for (const order of [added, sorted]) {
    const tree = new BinaryTree();
    for (const e of base) tree.put(bytesOf(e.key), bytesOf(e.value));
    order.forEach((e, i) => {
      tree.put(bytesOf(e.key), bytesOf(e.value));
      if ((i + 1) % COMMIT_EVERY === 0 || i === order.length - 1) roots.add(hexOf(tree.hash()));
    });
  }
  return roots;
}

function rootOf(entries: readonly Entry[]): string {
  const tree = new BinaryTree();
  for (const e of entries) tree.put(bytesOf(e.key), bytesOf(e.value));
  return hexOf(tree.hash());
}

/** Spawns `bintrie build` and SIGKILLs it after `delayMs` (or lets it finish first). */
function buildAndKill(
  args: readonly string[],
  delayMs: number,
  env: Readonly<Record<string, string>>,
): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, "build", ...args], {
      stdio: "ignore",
      env: childEnv(env),
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), delayMs);
    child.on("error", reject);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      resolve(signal ?? `exit ${code}`);
    });
  });
}

let dir: string;
let cleanup: () => Promise<void>;
beforeAll(async () => {
  ({ dir, cleanup } = await tempDir());
});
afterAll(() => cleanup());

describe("a SIGKILLed build leaves the store at a committed root with every node intact", () => {
  // Small store batches make a first build write many batches before its last (root) one.
  const SMALL_BATCHES = { BINTRIE_MAX_BATCH_BYTES: "16384" };
  // Each case runs about ten builds and verifies one after the other (14-24 s beside the other
  // test files on 2 cores): more room than the config's 60 s for a noisier CI machine.
  it.each([
    ["into an empty store", [] as Entry[], ENTRIES, {}],
    ["into an empty store, in small batches", [] as Entry[], ENTRIES, SMALL_BATCHES],
    ["into a store with a committed tree", ENTRIES.slice(0, 900), ENTRIES.slice(900), {}],
  ])("%s", { timeout: 180_000 }, async (name, base, added, env) => {
    const file = join(dir, `${name.replace(/\W+/g, "-")}.jsonl`);
    await writeFile(file, entryLines(added));
    const allowed = committableRoots(base, added);
    const finalRoot = rootOf([...base, ...added]);
    // How long an uninterrupted build takes here, to spread the kills over it.
    const seed = join(dir, `seed-${name.replace(/\W+/g, "-")}`);
    if (base.length > 0) {
      const seeded = await runCli(["build", "--db", seed], { input: entryLines(base) });
      expect(seeded.code).toBe(0);
    }
    const timing = join(dir, `timing-${name.replace(/\W+/g, "-")}`);
    if (base.length > 0) await cp(seed, timing, { recursive: true });
    const started = Date.now();
    const full = await runCli(
      ["build", file, "--db", timing, "--commit-every", String(COMMIT_EVERY)],
      { env },
    );
    expect(full.stdout).toBe(`${finalRoot}\n`);
    const duration = Date.now() - started;

    const seen: string[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const db = join(dir, `kill-${name.replace(/\W+/g, "-")}-${round}`);
      if (base.length > 0) await cp(seed, db, { recursive: true });
      const delay = Math.floor(Math.random() * duration);
      // A SIGKILLed build cannot remove its sort directory: keep it under this test's own
      // directory (removed after the file), not the OS temp directory.
      const outcome = await buildAndKill(
        [file, "--db", db, "--commit-every", String(COMMIT_EVERY), "--tmp-dir", dir],
        delay,
        env,
      );
      const verify = await runCli(["verify", "--db", db, "--json"]);
      const context = `round ${round}, killed after ${delay} ms of ~${duration} (${outcome})`;
      if (
        base.length === 0 &&
        verify.code === 2 &&
        /no database at|cannot open|is not a bintrie database/.test(verify.stderr)
      ) {
        // Killed before LevelDB had created the database: nothing was committed.
        seen.push(ZERO_ROOT);
      } else {
        expect(verify.code, `${context}: ${verify.stderr}`).toBe(0);
        const report = JSON.parse(verify.stdout) as { ok: boolean; root: string };
        expect(report.ok, context).toBe(true);
        expect(
          allowed.has(report.root),
          `${context}: root ${report.root} was never committed`,
        ).toBe(true);
        seen.push(report.root);
      }
      // Running the build again completes the tree, and leaves no garbage behind.
      const rerun = await runCli(["build", file, "--db", db], { env });
      expect(rerun.stdout, context).toBe(`${finalRoot}\n`);
      const strict = await runCli(["verify", "--db", db, "--strict"]);
      expect(strict.code, `${context}: ${strict.stderr}`).toBe(0);
    }
    expect(seen).toHaveLength(ROUNDS);
  });
});
