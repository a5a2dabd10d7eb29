import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** The built binary, run exactly as a user's `bintrie` would run it. */
export const BIN = fileURLToPath(new URL("../../dist/main.js", import.meta.url));

/** The repository's vendored test data (each folder has a PROVENANCE.md). */
export const TESTDATA = new URL("../../../../testdata/", import.meta.url);

export function testdataPath(relative: string): string {
  return fileURLToPath(new URL(relative, TESTDATA));
}

export interface CliResult {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

export interface RunOptions {
  /** Bytes written to the child's stdin (stdin is closed either way). */
  readonly input?: string;
  readonly cwd?: string;
  /** Extra environment variables. */
  readonly env?: Readonly<Record<string, string>>;
}

/**
 * The environment of a CLI child: this process's, without any BINTRIE_* setting of the person
 * or machine running the tests (BINTRIE_NO_PROGRESS, BINTRIE_DEBUG, … would change what the
 * tests see), and `extra`.
 */
export function childEnv(extra: Readonly<Record<string, string>> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (!name.startsWith("BINTRIE_")) env[name] = value;
  }
  return { ...env, ...extra };
}

/** Spawns `node dist/main.js ...args` and collects its exit code and output. */
export function runCli(args: readonly string[], options: RunOptions = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: options.cwd,
      env: childEnv(options.env),
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (s: string) => {
      stdout += s;
    });
    child.stderr.setEncoding("utf8").on("data", (s: string) => {
      stderr += s;
    });
    child.on("error", reject);
    child.on("close", (code, signal) => resolve({ code, signal, stdout, stderr }));
    child.stdin.on("error", () => undefined);
    child.stdin.end(options.input ?? "");
  });
}

/** Runs many CLI calls with at most `limit` children at a time (the machine has 2 cores). */
export async function runAll<T>(jobs: readonly (() => Promise<T>)[], limit = 3): Promise<T[]> {
  const results = new Array<T>(jobs.length);
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const i = next++;
      results[i] = await jobs[i]!();
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, jobs.length) }, worker));
  return results;
}

/** A fresh temporary directory; `cleanup()` removes it. */
export async function tempDir(): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), "bintrie-cli-test-"));
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

/** stdout lines without the trailing empty one. */
export function lines(text: string): string[] {
  return text.split("\n").filter((line, i, all) => line !== "" || i < all.length - 1);
}
