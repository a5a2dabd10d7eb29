import { spawn } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { withChromiumPage } from "@bintrie/store-testkit/node";

export interface BlockRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `command` in a fresh temporary directory (removed after), collecting its output. */
async function inTempDir(
  command: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  at?: string,
): Promise<BlockRun> {
  const temp = await mkdtemp(join(tmpdir(), "readme-block-"));
  const cwd = at ?? temp;
  try {
    return await new Promise<BlockRun>((resolve, reject) => {
      const child = spawn(command, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
      let stdout = "";
      let stderr = "";
      child.stdout.setEncoding("utf8").on("data", (s: string) => {
        stdout += s;
      });
      child.stderr.setEncoding("utf8").on("data", (s: string) => {
        stderr += s;
      });
      child.on("error", reject);
      child.on("close", (code) => resolve({ code, stdout, stderr }));
    });
  } finally {
    await rm(temp, { recursive: true, force: true });
  }
}

/** A compiled block as a Node program. */
export function runInNode(file: string): Promise<BlockRun> {
  return inTempDir(process.execPath, [file], { ...process.env, NODE_NO_WARNINGS: "1" });
}

/**
 * A shell block under `bash -e -o pipefail`, with the built bins on PATH, in a fresh temporary
 * directory or in `cwd`.
 */
export function runInShell(code: string, binDir: string, cwd?: string): Promise<BlockRun> {
  return inTempDir(
    "bash",
    ["-e", "-o", "pipefail", "-c", code],
    { ...process.env, PATH: `${binDir}:${process.env.PATH ?? ""}`, BINTRIE_NO_PROGRESS: "1" },
    cwd,
  );
}

/** Only parses a shell block (`bash -n`): for blocks marked `no-run`. */
export function parseShell(code: string): Promise<BlockRun> {
  return inTempDir("bash", ["-n", "-c", code], process.env);
}

/**
 * A block as a browser program: bundled by esbuild, loaded into a page of headless Chromium;
 * console.log lines are collected and the block's top-level await is waited for.
 */
export async function runInChromium(source: string): Promise<BlockRun> {
  const entry = join(dirname(source), `${basename(source, ".ts")}.entry.ts`);
  await writeFile(
    entry,
    `const g = globalThis as unknown as { __logs: string[]; __done?: string };
g.__logs = [];
const show = (v: unknown) =>
  typeof v === "string" ? v : typeof v === "bigint" ? \`\${v}n\` : JSON.stringify(v, (_k, x) => (typeof x === "bigint" ? \`\${x}n\` : x));
console.log = (...args: unknown[]) => { g.__logs.push(args.map(show).join(" ")); };
import("./${basename(source)}").then(
  () => { g.__done = "ok"; },
  (error: unknown) => { g.__done = \`error: \${error instanceof Error ? error.stack ?? error.message : String(error)}\`; },
);
`,
  );
  let run: BlockRun = { code: null, stdout: "", stderr: "" };
  await withChromiumPage(entry, async (page) => {
    await page.waitForFunction(
      () => (globalThis as unknown as { __done?: string }).__done !== undefined,
      null,
      { timeout: 60_000 },
    );
    const { done, logs } = await page.evaluate(() => {
      const g = globalThis as unknown as { __logs: string[]; __done: string };
      return { done: g.__done, logs: g.__logs };
    });
    run = {
      code: done === "ok" ? 0 : 1,
      stdout: logs.map((line) => `${line}\n`).join(""),
      stderr: done === "ok" ? "" : done,
    };
  });
  return run;
}
