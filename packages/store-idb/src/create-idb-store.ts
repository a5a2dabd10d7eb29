import { describeValue } from "@bintrie/codec";
import { StoreError } from "@bintrie/core";
import { openIdbConnection } from "./idb-connection.js";
import { IdbStore, type IdbStoreLocation } from "./idb-store.js";

/**
 * A store in the object store `storeName` of the IndexedDB database `database`, with
 * idb-keyval's `createStore` rules. The database opens on first use; if it does not exist it is
 * created with this one object store. In Node, install an IndexedDB first (for tests:
 * `import "fake-indexeddb/auto"`).
 *
 * @example
 * ```ts
 * import { openTree } from "@bintrie/core";
 * import { createIdbStore } from "@bintrie/store-idb";
 *
 * const store = createIdbStore({ database: "bintrie", storeName: "nodes" });
 * const tree = await openTree(store); // persist() is one IndexedDB transaction
 * await store.close();
 * ```
 */
export function createIdbStore(location: IdbStoreLocation): IdbStore {
  const { database, storeName } = location ?? {};
  if (typeof database !== "string" || database.length === 0) {
    throw new StoreError(
      "INVALID_ARGUMENT",
      `createIdbStore: database must be a non-empty string, got ${describeValue(database)}`,
    );
  }
  if (typeof storeName !== "string" || storeName.length === 0) {
    throw new StoreError(
      "INVALID_ARGUMENT",
      `createIdbStore: storeName must be a non-empty string, got ${describeValue(storeName)}`,
    );
  }
  if (typeof indexedDB === "undefined") {
    throw new StoreError(
      "STORE_IO",
      `createIdbStore(${JSON.stringify(database)}, ${JSON.stringify(storeName)}): this environment has no IndexedDB (in Node, import "fake-indexeddb/auto" first)`,
    );
  }
  const connection = openIdbConnection(database, storeName);
  return new IdbStore({ database, storeName }, connection.useStore, connection.close);
}
