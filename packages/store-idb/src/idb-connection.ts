import { promisifyRequest, type UseStore } from "idb-keyval";

/** An object store's connection: idb-keyval's store function, and a way to close it. */
export interface IdbConnection {
  readonly useStore: UseStore;
  /** Closes the connection if one is open (after the transactions already asked for). */
  close(): Promise<void>;
}

/**
 * idb-keyval's `createStore(database, storeName)` — the same rules: the database opens on first
 * use, and the object store is created only when the database is — plus a connection that gives
 * way to another one's upgrade or deletion (`versionchange`), and `close()`, which
 * closes the connection even when the database has no such object store (`useStore` then fails
 * with NotFoundError before handing out anything that leads to the connection, so a store could
 * not close it, and the open connection blocked deleting or upgrading the database for good).
 */
export function openIdbConnection(database: string, storeName: string): IdbConnection {
  let opened: Promise<IDBDatabase> | undefined;
  const connect = (): Promise<IDBDatabase> => {
    if (opened !== undefined) return opened;
    const request = indexedDB.open(database);
    request.onupgradeneeded = () => request.result.createObjectStore(storeName);
    const opening = promisifyRequest(request);
    opened = opening;
    opening.then(
      (db) => {
        // The browser closed it (idb-keyval's rule): the next call opens a new one.
        db.onclose = () => {
          if (opened === opening) opened = undefined;
        };
        // Another connection (another tab) upgrades or deletes the database: let it, closing
        // this one once its transactions end; the next call opens a new one (which waits for
        // that upgrade or deletion to finish). Held open, it would block the other tab for good.
        db.onversionchange = () => {
          if (opened === opening) opened = undefined;
          db.close();
        };
      },
      () => {
        if (opened === opening) opened = undefined;
      },
    );
    return opening;
  };
  const useStore: UseStore = (mode, callback) =>
    connect().then((db) => callback(db.transaction(storeName, mode).objectStore(storeName)));
  return {
    useStore,
    async close() {
      const opening = opened;
      if (opening === undefined) return;
      let db: IDBDatabase;
      try {
        db = await opening;
      } catch {
        return; // never opened: nothing to close
      }
      db.close();
    },
  };
}
