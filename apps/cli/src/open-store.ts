import { mkdir, rm, stat } from "node:fs/promises";
import type { KVStore } from "@bintrie/core";
import { CliError } from "./cli-error.js";
import type { StoreTarget } from "./store-target.js";

/** A store opened by a command, and how to let go of it. */
export interface OpenedStore {
  readonly store: KVStore;
  readonly target: StoreTarget;
  /** Whether this command created the database (the directory did not exist before). */
  readonly created: boolean;
  /** Closes the store. */
  close(): Promise<void>;
  /** Closes the store and, if this command created it, removes it again (bad input: write nothing). */
  discard(): Promise<void>;
}

export interface OpenStoreOptions {
  /** Create the database when the directory does not exist (commands that write). */
  readonly create: boolean;
}

/**
 * Opens the store of `target`. A missing database is a usage error for read commands; a
 * database locked by another process is a usage error too (exit 2, nothing written).
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
  if (!existed) await mkdir(dir, { recursive: true });
  const { openLevelStore } = await import("@bintrie/store-level");
  let store: KVStore;
  try {
    store = await openLevelStore(dir, { createIfMissing: options.create });
  } catch (error) {
    if (!existed) await rm(dir, { recursive: true, force: true });
    throw describeOpenFailure(error, dir);
  }
  const close = () => store.close();
  return {
    store,
    target,
    created: !existed,
    close,
    async discard() {
      await store.close();
      if (!existed) await rm(dir, { recursive: true, force: true });
    },
  };
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
