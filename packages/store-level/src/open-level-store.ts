import { assertKnownOptions, describeValue } from "@bintrie/codec";
import { StoreError } from "@bintrie/core";
import { Level } from "level";
import { normalizePrefix } from "./key-prefix.js";
import { toStoreError } from "./level-errors.js";
import { type BytesLevel, LevelStore } from "./level-store.js";

export interface LevelStoreOptions {
  /**
   * Bytes (or UTF-8 text) prepended to every key, so several trees can share one database.
   * Default: none.
   */
  readonly prefix?: Uint8Array | string;
  /**
   * Create the database when it does not exist. Default true. (browser-level would create it
   * regardless: with `false` the store first looks the database up in `indexedDB.databases()`.)
   */
  readonly createIfMissing?: boolean;
  /**
   * Fail when the database already exists. Default false. (browser-level ignores it: with `true`
   * the store first looks the database up in `indexedDB.databases()`.)
   */
  readonly errorIfExists?: boolean;
  /**
   * fsync each batch before it resolves, so a commit survives power loss and not only a
   * process crash. Default true (one fsync per commit). Ignored by browser-level.
   */
  readonly sync?: boolean;
  /** LevelDB block cache in bytes (classic-level only). Default: LevelDB's 8 MiB. */
  readonly cacheSize?: number;
  /** LevelDB memtable size in bytes before it is flushed (classic-level only). Default 4 MiB. */
  readonly writeBufferSize?: number;
}

/**
 * Opens (creating by default) the database at `location` — a directory in Node, an IndexedDB
 * database name in browsers — and returns a ready store. Fails with StoreError('STORE_LOCKED')
 * when another process holds the LevelDB lock, StoreError('STORE_IO') for any other open failure,
 * and StoreError('INVALID_ARGUMENT') for a location or option of the wrong type or range (before
 * anything is opened).
 *
 * @example
 * ```ts
 * import { openTree } from "@bintrie/core";
 * import { openLevelStore } from "@bintrie/store-level";
 *
 * const store = await openLevelStore("./state-db", { prefix: "mainnet/" });
 * const tree = await openTree(store); // the latest committed root, or an empty tree
 * await store.close();
 * ```
 */
export async function openLevelStore(
  location: string,
  options: LevelStoreOptions = {},
): Promise<LevelStore> {
  if (typeof location !== "string" || location.length === 0) {
    throw new StoreError(
      "INVALID_ARGUMENT",
      `openLevelStore: location must be a non-empty string, got ${describeValue(location)}`,
    );
  }
  checkOptions(options);
  const prefix = normalizePrefix(options.prefix);
  const createIfMissing = options.createIfMissing ?? true;
  const errorIfExists = options.errorIfExists ?? false;
  const make = (): BytesLevel =>
    new Level<Uint8Array, Uint8Array>(location, {
      keyEncoding: "view",
      valueEncoding: "view",
      createIfMissing,
      errorIfExists,
      ...(options.cacheSize === undefined ? {} : { cacheSize: options.cacheSize }),
      ...(options.writeBufferSize === undefined
        ? {}
        : { writeBufferSize: options.writeBufferSize }),
    });
  let db = make();
  if (
    (!createIfMissing && !db.supports.createIfMissing) ||
    (errorIfExists && !db.supports.errorIfExists)
  ) {
    // browser-level would create the database whatever these say, and a new level opens itself
    // on the next microtask: drop this one unopened, look the database up, then open a new one.
    await db.close();
    await checkExistence(db, location, createIfMissing, errorIfExists);
    db = make();
  }
  try {
    await db.open({ createIfMissing, errorIfExists });
  } catch (error) {
    throw toStoreError(error, { location, operation: "open" });
  }
  return new LevelStore({
    db,
    location,
    prefix,
    ownsDatabase: true,
    sync: options.sync ?? true,
    copiesWrites: copiesWrites(db),
  });
}

/**
 * Whether `db` is classic-level (LevelDB, whose native write batch copies every key and value)
 * rather than browser-level (IndexedDB, which structured-clones a view's whole buffer): only
 * classic-level offers LevelDB's compactRange.
 */
function copiesWrites(db: BytesLevel): boolean {
  return (db.supports.additionalMethods as Record<string, boolean>).compactRange === true;
}

const OPTION_KEYS: readonly (keyof LevelStoreOptions)[] = [
  "prefix",
  "createIfMissing",
  "errorIfExists",
  "sync",
  "cacheSize",
  "writeBufferSize",
];
const BOOLEAN_OPTIONS = ["createIfMissing", "errorIfExists", "sync"] as const;
const SIZE_OPTIONS = ["cacheSize", "writeBufferSize"] as const;

/** Throws StoreError('INVALID_ARGUMENT') naming the first option of the wrong type or range. */
function checkOptions(options: LevelStoreOptions): void {
  assertKnownOptions(options, OPTION_KEYS, "openLevelStore", StoreError, "INVALID_ARGUMENT");
  for (const name of BOOLEAN_OPTIONS) {
    const value: unknown = options[name];
    if (value !== undefined && typeof value !== "boolean") {
      throw new StoreError(
        "INVALID_ARGUMENT",
        `openLevelStore: options.${name} must be a boolean, got ${describeValue(value)}`,
      );
    }
  }
  for (const name of SIZE_OPTIONS) {
    const value: unknown = options[name];
    if (value !== undefined && !(Number.isSafeInteger(value) && (value as number) >= 0)) {
      throw new StoreError(
        "INVALID_ARGUMENT",
        `openLevelStore: options.${name} must be a non-negative integer (bytes), got ${describeValue(value)}`,
      );
    }
  }
}

/** What an IndexedDB factory offers for listing databases (`indexedDB.databases()`). */
interface DatabaseLister {
  databases?(): Promise<readonly { readonly name?: string }[]>;
}

/**
 * Honours `createIfMissing: false` and `errorIfExists: true` where the backend ignores them
 * (`db`, unopened, says so in its `supports`): browser-level opens (so creates) its IndexedDB
 * database whatever they say. There the store looks the database (`namePrefix + location`) up
 * in `indexedDB.databases()` just before opening.
 */
async function checkExistence(
  db: BytesLevel,
  location: string,
  createIfMissing: boolean,
  errorIfExists: boolean,
): Promise<void> {
  const mustExist = !createIfMissing && !db.supports.createIfMissing;
  const mustNotExist = errorIfExists && !db.supports.errorIfExists;
  const option = mustExist ? "createIfMissing: false" : "errorIfExists: true";
  const factory = (globalThis as { indexedDB?: DatabaseLister }).indexedDB;
  if (typeof factory?.databases !== "function") {
    throw new StoreError(
      "INVALID_ARGUMENT",
      `openLevelStore(${JSON.stringify(location)}): option ${option} needs indexedDB.databases(), which this environment lacks`,
    );
  }
  const name = `${(db as { namePrefix?: unknown }).namePrefix ?? ""}${location}`;
  let exists: boolean;
  try {
    exists = (await factory.databases()).some((database) => database.name === name);
  } catch (error) {
    throw toStoreError(error, { location, operation: "open" });
  }
  const where = `cannot open LevelDB at ${JSON.stringify(location)} (IndexedDB database ${JSON.stringify(name)})`;
  if (mustExist && !exists) {
    throw new StoreError("STORE_IO", `${where}: it does not exist (createIfMissing is false)`);
  }
  if (mustNotExist && exists) {
    throw new StoreError("STORE_IO", `${where}: it exists (errorIfExists is true)`);
  }
}
