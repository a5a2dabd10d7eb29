import { mkdir, readdir, rm, stat } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import type { KVStore } from "@bintrie/core";
import { CliError } from "./cli-error.js";
import type { StoreTarget } from "./store-target.js";

/** A store opened by a command, and how to let go of it. */
export interface OpenedStore {
  readonly store: KVStore;
  readonly target: StoreTarget;
  /** Whether this command created the database (no LevelDB was there before). */
  readonly created: boolean;
  /** Closes the store. */
  close(): Promise<void>;
  /**
   * Closes the store and, if this command created it, removes what it created (bad input:
   * write nothing): the directories it made, parents included, or the files it put into a
   * directory that was empty.
   */
  discard(): Promise<void>;
}

export interface OpenStoreOptions {
  /** Create the database when the directory does not exist or is empty (commands that write). */
  readonly create: boolean;
}

/**
 * Opens the store of `target`. A directory that holds no LevelDB (no `CURRENT` file) is a usage
 * error for read commands, and for write commands unless it is empty (it is someone's
 * directory: nothing is written into it); a database locked by another process is a usage error
 * too (exit 2, nothing written).
 */
export async function openStore(
  target: StoreTarget,
  options: OpenStoreOptions,
): Promise<OpenedStore> {
  if (target.kind === "memory") {
    const { MemoryStore } = await import("@bintrie/core");
    const store = new MemoryStore();
    const close = () => store.close();
    return { store, target, created: true, close, discard: close };
  }
  const dir = target.dir;
  const existed = await directoryExists(dir);
  if (!existed && !options.create) {
    throw new CliError("BAD_STORE", `no database at ${dir} (the directory does not exist)`);
  }
  // What this command creates, removed again by discard(): the first directory mkdir made (its
  // parents included), or the database files put into an existing empty directory.
  let undo: (() => Promise<void>) | undefined;
  if (existed && !(await holdsLevelDb(dir))) {
    if (!options.create) {
      throw new CliError(
        "BAD_STORE",
        `--db ${dir} is not a bintrie database (no LevelDB CURRENT file)`,
      );
    }
    const names = await directoryNames(dir);
    // Only LevelDB's own files: a database whose creation was cut short (a killed build). A
    // retry creates it; it was there before this command, so a failure leaves it as it is.
    const unfinished = names.length > 0 && names.every((name) => LEVELDB_FILE.test(name));
    if (names.length > 0 && !unfinished) {
      throw new CliError(
        "BAD_STORE",
        `--db ${dir} is not a bintrie database (no LevelDB CURRENT file) and not empty; give a new or empty directory`,
      );
    }
    if (!unfinished) undo = () => emptyDirectory(dir);
  }
  if (!existed) {
    let first: string | undefined;
    try {
      first = await makeDirectories(dir);
    } catch (error) {
      throw new CliError("BAD_STORE", `cannot create --db ${dir}: ${(error as Error).message}`);
    }
    const top = first ?? dir;
    undo = () => rm(top, { recursive: true, force: true });
  }
  const { openLevelStore } = await import("@bintrie/store-level");
  let store: KVStore;
  try {
    store = await openLevelStore(dir, { createIfMissing: options.create });
  } catch (error) {
    await undo?.();
    throw describeOpenFailure(error, dir);
  }
  const close = () => store.close();
  return {
    store,
    target,
    created: undo !== undefined,
    close,
    async discard() {
      await store.close();
      await undo?.();
    },
  };
}

/**
 * `mkdir -p`, one level at a time from the nearest existing ancestor; returns the first directory
 * it made. Not `mkdir(dir, { recursive: true })`: Node 20's loops forever where a parent exists
 * but refuses new entries with ENOENT (under /proc, say).
 */
async function makeDirectories(dir: string): Promise<string | undefined> {
  const missing: string[] = [];
  for (let at = resolve(dir); ; at = dirname(at)) {
    if (await pathExists(at)) break;
    missing.push(at);
    if (dirname(at) === at) break;
  }
  let first: string | undefined;
  for (let k = missing.length - 1; k >= 0; k--) {
    try {
      await mkdir(missing[k]!);
      first ??= missing[k];
    } catch (error) {
      // Made meanwhile by another process: use it, and leave it in place on failure.
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") {
        if (first !== undefined) await rm(first, { recursive: true, force: true });
        throw error;
      }
    }
  }
  return first;
}

async function pathExists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return false;
    throw error;
  }
}

async function directoryExists(dir: string): Promise<boolean> {
  try {
    const info = await stat(dir);
    if (!info.isDirectory()) {
      throw new CliError("BAD_STORE", `--db ${dir} is not a directory`);
    }
    return true;
  } catch (error) {
    if (error instanceof CliError) throw error;
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return false;
    throw new CliError("BAD_STORE", `cannot use --db ${dir}: ${(error as Error).message}`);
  }
}

/** Whether `dir` holds a LevelDB: its `CURRENT` file names the live manifest. */
async function holdsLevelDb(dir: string): Promise<boolean> {
  try {
    return (await stat(join(dir, "CURRENT"))).isFile();
  } catch {
    return false;
  }
}

/** The names of the files LevelDB keeps in its directory. */
const LEVELDB_FILE = /^(LOCK|LOG|LOG\.old|CURRENT|MANIFEST-\d+|\d+\.(log|ldb|sst|dbtmp))$/;

async function directoryNames(dir: string): Promise<string[]> {
  try {
    return await readdir(dir);
  } catch (error) {
    throw new CliError("BAD_STORE", `cannot use --db ${dir}: ${(error as Error).message}`);
  }
}

/** Removes everything in `dir` (a directory that was empty before this command), not `dir`. */
async function emptyDirectory(dir: string): Promise<void> {
  const names = await readdir(dir).catch(() => []);
  await Promise.all(names.map((name) => rm(join(dir, name), { recursive: true, force: true })));
}

function describeOpenFailure(error: unknown, dir: string): unknown {
  const code = (error as { code?: unknown }).code;
  if (code === "STORE_LOCKED") {
    return new CliError(
      "BAD_STORE",
      `the database at ${dir} is locked by another process (another bintrie command or a node using it)`,
      { cause: error },
    );
  }
  if (code === "STORE_IO") {
    return new CliError(
      "BAD_STORE",
      `cannot open the database at ${dir}: ${(error as Error).message}`,
      {
        cause: error,
      },
    );
  }
  return error;
}
