import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** The built command line the `bintrie-testnet` bin loads (one bundle with its dependencies). */
export const MAIN = fileURLToPath(new URL("../dist/cli/bintrie-testnet.mjs", import.meta.url));

/** A vendored file of these tests (see cli-fixtures/PROVENANCE.md). */
export function cliFixture(relative: string): string {
  return fileURLToPath(new URL(`./cli-fixtures/${relative}`, import.meta.url));
}

export function readCliFixture<T>(relative: string): T {
  return JSON.parse(readFileSync(cliFixture(relative), "utf8")) as T;
}

export const VERSION = (
  JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
    version: string;
  }
).version;

export interface Ran {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs the built CLI as a user would (a child process), with optional stdin text. */
export function runBuilt(
  args: readonly string[],
  options: { cwd?: string; input?: string } = {},
): Ran {
  if (!existsSync(MAIN)) throw new Error(`${MAIN} is missing: run \`pnpm build\` first`);
  const ran = spawnSync(process.execPath, [MAIN, ...args], {
    cwd: options.cwd,
    input: options.input ?? "",
    encoding: "utf8",
    env: { ...process.env, BINTRIE_DEBUG: "" },
  });
  if (ran.error !== undefined) throw ran.error;
  return { status: ran.status, stdout: ran.stdout, stderr: ran.stderr };
}

/** `t8n`'s three input switches for `alloc.json`, `env.json` and `txs.json` in `dir`. */
export function t8nInputFlags(dir: string): string[] {
  return [
    "--input.alloc",
    join(dir, "alloc.json"),
    "--input.env",
    join(dir, "env.json"),
    "--input.txs",
    join(dir, "txs.json"),
  ];
}
