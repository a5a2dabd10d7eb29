import { randomBytes } from "node:crypto";
import { mkdir, open, rename, rm, stat, unlink, writeFile } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import { TestnetError } from "../chain/testnet-error.js";

/**
 * Every output file the commands write goes through here: a location is checked before the
 * work starts (a coded error naming the flag, exit 2), and a file is written to a temporary
 * name in its own directory and renamed over the target, so a failed or interrupted write
 * leaves the previous file as it was.
 */

/** A write that failed after its location was accepted (disk full, file too large…): exit 1 (t8n: 11). */
export class OutputWriteError extends Error {
  override name = "OutputWriteError";
}

/**
 * Makes `dir` (and its missing parents) and checks that a file can be created in it. Faults are
 * a TestnetError naming `flag` (`--out DIR: not a directory`).
 */
export async function prepareOutputDirectory(dir: string, flag: string): Promise<void> {
  await prepareDirectory(dir, `${flag} ${dir}`);
}

/** Checks that `path` can be written as a file: its directory is usable, it is no directory. */
export async function prepareOutputFile(path: string, flag: string): Promise<void> {
  const info = await stat(path).catch(() => undefined);
  if (info?.isDirectory() === true) {
    throw unusable(`${flag} ${path}`, "is a directory, not a file");
  }
  await prepareDirectory(dirname(path), `${flag} ${path}`);
}

async function prepareDirectory(dir: string, where: string): Promise<void> {
  await makeDirectories(dir, where);
  // A probe, not access(W_OK): that says yes to root on a read-only mount.
  const probe = join(dir, `.bintrie-probe-${process.pid}-${randomBytes(4).toString("hex")}`);
  try {
    await (await open(probe, "wx")).close();
  } catch (cause) {
    throw unusable(where, `cannot create files in it (${errorCode(cause)})`);
  }
  await unlink(probe).catch(() => {});
}

/**
 * Writes `text` to `path` through a temporary file in the same directory and a rename (missing
 * parents are made). The temporary file is removed when anything fails; a failure names `flag`.
 */
export async function writeOutputFile(path: string, text: string, flag: string): Promise<void> {
  const where = `${flag} ${path}`;
  await makeDirectories(dirname(path), where);
  const info = await stat(path).catch(() => undefined);
  if (info?.isDirectory() === true) throw unusable(where, "is a directory, not a file");
  const temporary = join(
    dirname(path),
    `.${basename(path)}.${process.pid}-${randomBytes(4).toString("hex")}.tmp`,
  );
  try {
    await writeFile(temporary, text, { flag: "wx" });
    await rename(temporary, path);
  } catch (cause) {
    await rm(temporary, { force: true }).catch(() => {});
    throw new OutputWriteError(`${where}: cannot write it (${errorCode(cause)})`);
  }
}

/**
 * `mkdir -p`, one level at a time from the nearest existing ancestor. Not `mkdir(dir,
 * { recursive: true })`: Node 20's loops forever where a parent exists but refuses new entries
 * with ENOENT (under /proc, say).
 */
async function makeDirectories(dir: string, where: string): Promise<void> {
  const missing: string[] = [];
  for (let at = resolve(dir); ; at = dirname(at)) {
    const info = await stat(at).catch((cause: NodeJS.ErrnoException) => {
      // ENOTDIR: a file on the way, reported when the walk reaches it.
      if (cause.code === "ENOENT" || cause.code === "ENOTDIR") return undefined;
      throw unusable(where, `cannot use ${at} (${errorCode(cause)})`);
    });
    if (info !== undefined) {
      if (!info.isDirectory()) {
        throw unusable(where, at === resolve(dir) ? "not a directory" : `${at} is not a directory`);
      }
      break;
    }
    missing.push(at);
    if (dirname(at) === at) break;
  }
  for (let k = missing.length - 1; k >= 0; k--) {
    try {
      await mkdir(missing[k]!);
    } catch (cause) {
      // Made meanwhile by another process: use it.
      if ((cause as NodeJS.ErrnoException).code !== "EEXIST") {
        throw unusable(where, `cannot create ${missing[k]} (${errorCode(cause)})`);
      }
    }
  }
}

function unusable(where: string, reason: string): TestnetError {
  return new TestnetError("INVALID_OUTPUT", `${where}: ${reason}`);
}

function errorCode(cause: unknown): string {
  return (cause as NodeJS.ErrnoException).code ?? (cause as Error).message;
}
