import { StoreError } from "@bintrie/core";
import { createStore } from "idb-keyval";
import { IdbStore, type IdbStoreLocation } from "./idb-store.js";

/**
 * A store in the object store `storeName` of the IndexedDB database `database`, through
 * idb-keyval's `createStore`. The database opens on first use; if it does not exist it is
 * created with this one object store. In Node, install an IndexedDB first (for tests:
 * `import "fake-indexeddb/auto"`).
 */
export function createIdbStore(location: IdbStoreLocation): IdbStore {
  const { database, storeName } = location ?? {};
  if (typeof database !== "string" || database.length === 0) {
    throw new StoreError(
      "INVALID_ARGUMENT",
      `createIdbStore: database must be a non-empty string, got ${String(database)}`,
    );
  }
  if (typeof storeName !== "string" || storeName.length === 0) {
    throw new StoreError(
      "INVALID_ARGUMENT",
      `createIdbStore: storeName must be a non-empty string, got ${String(storeName)}`,
    );
  }
  if (typeof indexedDB === "undefined") {
    throw new StoreError(
      "STORE_IO",
      `createIdbStore(${JSON.stringify(database)}, ${JSON.stringify(storeName)}): this environment has no IndexedDB (in Node, import "fake-indexeddb/auto" first)`,
    );
  }
  return new IdbStore({ database, storeName }, createStore(database, storeName));
}
