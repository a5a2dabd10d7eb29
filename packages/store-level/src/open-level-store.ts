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
  /** Create the database when it does not exist. Default true. */
  readonly createIfMissing?: boolean;
  /** Fail when the database already exists. Default false. */
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
 * when another process holds the LevelDB lock, StoreError('STORE_IO') for any other open failure.
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
      `openLevelStore: location must be a non-empty string, got ${String(location)}`,
    );
  }
  const prefix = normalizePrefix(options.prefix);
  const createIfMissing = options.createIfMissing ?? true;
  const errorIfExists = options.errorIfExists ?? false;
  const db: BytesLevel = new Level<Uint8Array, Uint8Array>(location, {
    keyEncoding: "view",
    valueEncoding: "view",
    createIfMissing,
    errorIfExists,
    ...(options.cacheSize === undefined ? {} : { cacheSize: options.cacheSize }),
    ...(options.writeBufferSize === undefined ? {} : { writeBufferSize: options.writeBufferSize }),
  });
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
