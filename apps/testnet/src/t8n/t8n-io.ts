import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { type GenesisJsonShape, parseGenesisJson } from "@bintrie/core";
import { TestnetError } from "../chain/testnet-error.js";
import { prepareOutputDirectory, prepareOutputFile, writeOutputFile } from "../io/output-files.js";
import { T8N_EXIT_IO } from "./t8n-exit-codes.js";
import type { T8nEnv, T8nInput, T8nOutput, T8nTxJson } from "./transition.js";

/** The input name that reads the combined `{alloc, env, txs | txsRlp}` object from stdin. */
export const STDIN = "stdin";

/** The output names that collect into one JSON object on that stream (geth's `dispatchOutput`). */
export const STDOUT = "stdout";
export const STDERR = "stderr";

/** `--input.alloc/env/txs`: a file each, or `stdin`. */
export interface T8nInputNames {
  readonly alloc: string;
  readonly env: string;
  readonly txs: string;
}

/**
 * `--output.alloc/result/body`: a file under `basedir`, `stdout`, `stderr`, or "" (not written;
 * `body` is not written when absent either).
 */
export interface T8nOutputNames {
  readonly alloc: string;
  readonly result: string;
  readonly body?: string;
  /** Where files go (created when missing); "" or absent: the working directory. */
  readonly basedir?: string;
  /** geth's `--opcode.count`: the opcode counts' file under `basedir` (a name, never a stream). */
  readonly opcodeCount?: string;
}

/** The three inputs of a transition, as `transition()` takes them. */
export type T8nInputFiles = Pick<T8nInput, "alloc" | "env" | "txs">;

/** What `writeT8nOutput` wrote: the streams that got an object, and the files. */
export interface T8nWritten {
  readonly stdout: boolean;
  readonly stderr: boolean;
  readonly files: readonly string[];
}

/**
 * Reads the inputs as geth's `evm t8n` does: each from its file, except those named `stdin`,
 * which come from one JSON object on stdin, `{"alloc": …, "env": …, "txs": […]}` (or
 * `"txsRlp": "0x…"` for signed transactions). A txs file whose name ends in `.rlp` holds a
 * JSON string of the hex RLP list. Every fault is a TestnetError (INVALID_INPUT) naming it.
 */
export async function readT8nInput(
  names: T8nInputNames,
  readStdin: () => Promise<string>,
): Promise<T8nInputFiles> {
  let combined: Record<string, unknown> = {};
  if (names.alloc === STDIN || names.env === STDIN || names.txs === STDIN) {
    const parsed = parseJson(await readStdin(), STDIN, "genesis");
    if (!isObject(parsed)) {
      throw invalid(`${STDIN}: expected one JSON object {"alloc", "env", "txs"}`, STDIN);
    }
    combined = parsed;
  }
  const alloc =
    names.alloc === STDIN ? combinedAlloc(combined, STDIN) : await fileAlloc(names.alloc);
  const env = names.env === STDIN ? combinedEnv(combined, STDIN) : await fileEnv(names.env);
  return {
    alloc,
    env,
    txs: names.txs === STDIN ? combinedTxs(combined, STDIN) : await fileTxs(names.txs),
  };
}

/**
 * The inputs held in one object `{"alloc", "env", "txs" | "txsRlp"}`, as geth's t8n reads the
 * combined object on stdin (alloc and txs default to empty, env is required); `where` names the
 * object in messages (`stdin`, or a server request's `input`). Faults are TestnetErrors
 * (INVALID_INPUT) naming the field.
 */
export function t8nInputFromObject(
  combined: Record<string, unknown>,
  where: string,
): T8nInputFiles {
  return {
    alloc: combinedAlloc(combined, where),
    env: combinedEnv(combined, where),
    txs: combinedTxs(combined, where),
  };
}

function combinedAlloc(combined: Record<string, unknown>, where: string): T8nInputFiles["alloc"] {
  const alloc = combined.alloc ?? {};
  if (!isObject(alloc)) throw invalid(`${where}.alloc: expected an object`, where);
  return alloc as T8nInputFiles["alloc"];
}

function combinedEnv(combined: Record<string, unknown>, where: string): T8nEnv {
  const env = combined.env;
  if (env === undefined) throw invalid(`${where}: the input object has no "env"`, where);
  if (!isObject(env)) throw invalid(`${where}.env: expected an object`, where);
  return env as T8nEnv;
}

function combinedTxs(
  combined: Record<string, unknown>,
  where: string,
): readonly T8nTxJson[] | string {
  const rlp = combined.txsRlp;
  if (rlp !== undefined && rlp !== "") {
    if (typeof rlp !== "string") throw invalid(`${where}.txsRlp: expected a hex string`, where);
    return rlp;
  }
  const txs = combined.txs ?? [];
  if (!Array.isArray(txs)) throw invalid(`${where}.txs: expected an array`, where);
  return txs as T8nTxJson[];
}

async function fileAlloc(path: string): Promise<T8nInputFiles["alloc"]> {
  const alloc = await readJson(path, "alloc");
  if (!isObject(alloc)) throw invalid(`${path}: expected an object`);
  return alloc as T8nInputFiles["alloc"];
}

async function fileEnv(path: string): Promise<T8nEnv> {
  const env = await readJson(path);
  if (!isObject(env)) throw invalid(`${path}: expected an object`);
  return env as T8nEnv;
}

async function fileTxs(path: string): Promise<readonly T8nTxJson[] | string> {
  const txs = await readJson(path);
  if (path.endsWith(".rlp")) {
    if (typeof txs !== "string") throw invalid(`${path}: expected a JSON string of hex RLP`);
    return txs;
  }
  if (!Array.isArray(txs)) throw invalid(`${path}: expected a JSON array of transactions`);
  return txs as T8nTxJson[];
}

/** The output files `names` asks for, as [flag, path] (stdout, stderr and "" are no files). */
function outputFiles(names: T8nOutputNames): [string, string][] {
  const basedir = names.basedir ?? "";
  const files: [string, string][] = [];
  for (const key of ["alloc", "body", "result"] as const) {
    const name = names[key];
    if (name === undefined || name === "" || name === STDOUT || name === STDERR) continue;
    files.push([`--output.${key}`, join(basedir, name)]);
  }
  if (names.opcodeCount !== undefined && names.opcodeCount !== "") {
    files.push(["--opcode.count", join(basedir, names.opcodeCount)]);
  }
  return files;
}

/**
 * Checks, before the transition runs, that the outputs can be written: `--output.basedir` made
 * (one level at a time) and writable, no output file a directory. Faults name the flag.
 */
export async function prepareT8nOutput(names: T8nOutputNames): Promise<void> {
  const basedir = names.basedir ?? "";
  if (basedir !== "") await prepareOutputDirectory(basedir, "--output.basedir");
  for (const [flag, path] of outputFiles(names)) await prepareOutputFile(path, flag);
}

/**
 * Writes the outputs as geth's `evm t8n` does: each named file under `basedir` (JSON indented
 * by one space), and the ones named `stdout` or `stderr` gathered into ONE object per stream,
 * `{"alloc": …, "body": …, "result": …}` (keys in that order, indented by two spaces, one
 * trailing newline).
 */
export async function writeT8nOutput(
  output: T8nOutput,
  names: T8nOutputNames,
  streams: { readonly stdout: Writable; readonly stderr: Writable },
): Promise<T8nWritten> {
  const basedir = names.basedir ?? "";
  if (basedir !== "") await prepareOutputDirectory(basedir, "--output.basedir");
  const toStdout: Record<string, unknown> = {};
  const toStderr: Record<string, unknown> = {};
  const files: string[] = [];
  const parts: readonly [string, string | undefined, unknown][] = [
    ["alloc", names.alloc, output.alloc],
    ["body", names.body, output.body],
    ["result", names.result, output.result],
  ];
  for (const [key, name, data] of parts) {
    if (name === undefined || name === "") continue;
    if (name === STDOUT) toStdout[key] = data;
    else if (name === STDERR) toStderr[key] = data;
    else {
      const path = join(basedir, name);
      await writeOutputFile(path, JSON.stringify(data, null, 1), `--output.${key}`);
      files.push(path);
    }
  }
  const stdout = Object.keys(toStdout).length > 0;
  const stderr = Object.keys(toStderr).length > 0;
  if (stdout) streams.stdout.write(`${JSON.stringify(toStdout, null, 2)}\n`);
  if (stderr) streams.stderr.write(`${JSON.stringify(toStderr, null, 2)}\n`);
  return { stdout, stderr, files };
}

interface Writable {
  write(text: string): unknown;
}

/**
 * Writes geth's opcode counts (`--opcode.count`) where geth writes them: the named file under
 * `basedir`, before the other outputs (geth's saveFile: even `stdout` is a file name there).
 */
export async function writeOpcodeCounts(names: T8nOutputNames, json: string): Promise<string> {
  const path = join(names.basedir ?? "", names.opcodeCount ?? "");
  await writeOutputFile(path, json, "--opcode.count");
  return path;
}

/** `shape`: the text holds an alloc, read as geth reads one (see parseJson). */
async function readJson(path: string, shape?: GenesisJsonShape): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (cause) {
    throw invalid(
      `${path}: cannot read it (${(cause as NodeJS.ErrnoException).code ?? cause})`,
      path,
      T8N_EXIT_IO,
    );
  }
  return parseJson(text, path, shape);
}

/**
 * JSON.parse, or with a `shape`, core's parseGenesisJson: an alloc's bare balances and nonces
 * arrive as their digits, as geth's t8n reads them (exact past 2^53; `1e3` refused).
 */
function parseJson(text: string, path: string, shape?: GenesisJsonShape): unknown {
  const json = text.replace(/^\uFEFF/, "");
  if (shape !== undefined) {
    try {
      return parseGenesisJson(json, shape);
    } catch (cause) {
      // core's GenesisError (INVALID_JSON): "not JSON (why)".
      throw invalid(`${path}: ${(cause as Error).message}`, path);
    }
  }
  try {
    return JSON.parse(json);
  } catch (cause) {
    throw invalid(`${path}: not JSON (${(cause as Error).message})`, path);
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** A refused input: by default geth's ErrorJson (not JSON, or not the shape it decodes). */
function invalid(message: string, file?: string, gethExitCode?: number): TestnetError {
  return new TestnetError("INVALID_INPUT", message, {
    ...(file === undefined ? {} : { file }),
    ...(gethExitCode === undefined ? {} : { gethExitCode }),
  });
}
