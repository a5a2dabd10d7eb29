// One case for both IndexedDBs (fake-indexeddb in Node, Chromium's own): an open IdbStore lets
// another connection (another tab) delete or upgrade its database, and goes on afterwards.
import { expect } from "vitest";
import { createIdbStore } from "../../src/index.js";

const b = (...bytes: number[]) => Uint8Array.from(bytes);

/**
 * Deletes `name` as another tab would: "deleted" once it is, "still blocked" if a connection
 * holds on for 10 s. (A transient "blocked" event is no failure: Chromium may report one while a
 * connection closed a moment ago is still closing in its backend.)
 */
function deleteFromElsewhere(name: string): Promise<"deleted" | "still blocked"> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => resolve("still blocked"), 10_000);
    const request = indexedDB.deleteDatabase(name);
    request.onsuccess = () => {
      clearTimeout(timer);
      resolve("deleted");
    };
    request.onerror = () => {
      clearTimeout(timer);
      reject(request.error);
    };
  });
}

export async function storeGivesWayToAnotherConnection(name: string): Promise<void> {
  const store = createIdbStore({ database: name, storeName: "nodes" });
  await store.batch([{ type: "put", key: b(1), value: b(7) }]);
  expect(await store.get(b(1))).toEqual(b(7));
  // Another tab deletes the database (a reset, a schema upgrade): not blocked by this store.
  expect(await deleteFromElsewhere(name)).toBe("deleted");
  // The store goes on, on a new connection to the new, empty database.
  expect(await store.get(b(1))).toBeUndefined();
  await store.batch([{ type: "put", key: b(2), value: b(8) }]);
  expect(await store.get(b(2))).toEqual(b(8));
  await store.close();
  expect(await deleteFromElsewhere(name)).toBe("deleted");
}
