import { mkdir, readdir, rm, rmdir, stat } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import type { KVStore } from "@bintrie/core";
import { CliError } from "./cli-error.js";
import { levelFailure } from "./level-failure.js";
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
   * write nothing): the database files, and the directories it made (parents included) as long
   * as nothing else was put into them. A database another process created or opened meanwhile
   * is never removed.
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
  // The directories this command made (the first one's parents excluded), top first.
  let made: string[] = [];
  if (!existed) {
    try {
      made = await makeDirectories(dir);
    } catch (error) {
      throw new CliError("BAD_STORE", `cannot create --db ${dir}: ${(error as Error).message}`);
    }
  }
  // Whether this command creates the database: the directory is new or empty (not one holding a
  // LevelDB, nor one whose creation was cut short). Only then may it remove what it made again,
  // and only what it made: the LevelDB files in `dir` and the directories of `made`, never
  // anything another process put there meanwhile (checked under LevelDB's lock, see below).
  let ours = false;
  if (!(await holdsLevelDb(dir))) {
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
      await removeMade(dir, made, { files: false });
      throw new CliError(
        "BAD_STORE",
        `--db ${dir} is not a bintrie database (no LevelDB CURRENT file) and not empty; give a new or empty directory`,
      );
    }
    ours = !unfinished;
  }
  const { openLevelStore } = await import("@bintrie/store-level");
  let store: KVStore;
  try {
    // errorIfExists: LevelDB checks under its lock that this open creates the database, so one
    // that another process created since the checks above is never taken for ours.
    store = await openLevelStore(dir, {
      createIfMissing: options.create,
      ...(ours ? { errorIfExists: true } : {}),
    });
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (!ours || code === "STORE_LOCKED") {
      // Locked: another process has the database open, and whatever is in `dir` is its own.
      throw describeOpenFailure(error, dir);
    }
    if (!(await holdsLevelDb(dir))) {
      await removeMade(dir, made, { files: true });
      throw describeOpenFailure(error, dir);
    }
    // Created by another process meanwhile: it is not ours to remove; open it as it is.
    ours = false;
    try {
      store = await openLevelStore(dir, { createIfMissing: options.create });
    } catch (again) {
      throw describeOpenFailure(again, dir);
    }
  }
  const close = () => store.close();
  return {
    store,
    target,
    created: ours,
    close,
    async discard() {
      if (!ours) return close();
      // The database's files go while this process still holds its lock (LOCK itself stays
      // until it is closed), so no other process can open the database meanwhile; then LOCK,
      // and the directories this command made, unless another process has made a database
      // there since.
      await removeMade(dir, [], { files: true, keepLock: true }).catch(() => false);
      await close();
      if (!(await holdsLevelDb(dir))) await removeMade(dir, made, { files: true });
    },
  };
}

/**
 * Removes what a command made for a database it created: with `files`, LevelDB's files in `dir`
 * (nothing else that is there; `keepLock`: all but LOCK); then the directories of `made`,
 * deepest first, as long as they are empty. Returns whether all of it is gone.
 */
async function removeMade(
  dir: string,
  made: readonly string[],
  options: { readonly files: boolean; readonly keepLock?: boolean },
): Promise<boolean> {
  let complete = true;
  if (options.files) {
    const names = await readdir(dir).catch(() => [] as string[]);
    for (const name of names) {
      if (options.keepLock === true && name === "LOCK") continue;
      if (!LEVELDB_FILE.test(name)) {
        complete = false;
        continue;
      }
      try {
        await rm(join(dir, name), { force: true });
      } catch {
        complete = false;
      }
    }
  }
  for (let k = made.length - 1; k >= 0; k--) {
    try {
      await rmdir(made[k]!);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") continue;
      // Not empty (another process's files), or not removable: it and its parents stay.
      return false;
    }
  }
  return complete;
}

/**
 * `mkdir -p`, one level at a time from the nearest existing ancestor; returns the directories it
 * made, top first (none when another process made them meanwhile). Not `mkdir(dir, { recursive:
 * true })`: Node 20's loops forever where a parent exists but refuses new entries with ENOENT
 * (under /proc, say).
 */
async function makeDirectories(dir: string): Promise<string[]> {
  const missing: string[] = [];
  for (let at = resolve(dir); ; at = dirname(at)) {
    if (await pathExists(at)) break;
    missing.push(at);
    if (dirname(at) === at) break;
  }
  const made: string[] = [];
  for (let k = missing.length - 1; k >= 0; k--) {
    try {
      await mkdir(missing[k]!);
      made.push(missing[k]!);
    } catch (error) {
      // Made meanwhile by another process: use it, and leave it in place on failure.
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") {
        await removeMade(dir, made, { files: false });
        throw error;
      }
    }
  }
  return made;
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
    // LevelDB's reason once (not the library's "cannot open LevelDB at …" around it). Still a
    // usage error: a directory LevelDB cannot open may be no LevelDB at all (another engine's).
    return new CliError(
      "BAD_STORE",
      `cannot open the database at ${dir}: ${levelFailure(error).reason}`,
      { cause: error },
    );
  }
  return error;
}
