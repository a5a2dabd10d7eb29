import { describeValue } from "@bintrie/codec";
import {
  type BatchOperation,
  bytesToHex,
  type KeyRange,
  type KVStore,
  StoreError,
} from "@bintrie/core";
import { compareBytes, copyBytes } from "@bintrie/core/bytes";
import {
  assertKeyRange,
  assertStoreKey,
  assertStoreKeys,
  validateBatchOperations,
} from "@bintrie/core/store";
import { promisifyRequest, type UseStore } from "idb-keyval";
import { describeStore, toStoreError } from "./idb-errors.js";
import { readBytes } from "./stored-bytes.js";

/** Entries read per transaction by `entries()`: a transaction cannot stay open across awaits. */
const ENTRIES_CHUNK = 512;

/** Where the store lives: an IndexedDB database and an object store inside it. */
export interface IdbStoreLocation {
  readonly database: string;
  readonly storeName: string;
}

/**
 * The core KVStore over IndexedDB through idb-keyval (`createStore`'s rules). Keys are IndexedDB binary
 * keys (ordered byte-wise, like LevelDB), values are Uint8Arrays. A batch — a commit's node
 * writes, its deletes and the root record — is one readwrite transaction: it lands whole or
 * not at all. Create it with `createIdbStore()`. Every call copies the keys and values it is
 * given before it returns (its IndexedDB requests run later, once the database is open), so the
 * caller may reuse its buffers at once.
 *
 * @example
 * ```ts
 * import { BinaryTree } from "@bintrie/core";
 * import { createIdbStore } from "@bintrie/store-idb";
 *
 * const store = createIdbStore({ database: "bintrie", storeName: "nodes" }); // an IdbStore
 * const tree = new BinaryTree({ store });
 * tree.put(new Uint8Array(32).fill(1), new Uint8Array(32).fill(2));
 * await tree.persist();
 * await store.close();
 * ```
 */
export class IdbStore implements KVStore {
  readonly database: string;
  readonly storeName: string;
  readonly #useStore: UseStore;
  readonly #closeConnection: (() => Promise<void>) | undefined;
  #closed = false;
  /** Whether a call has reached idb-keyval (which then opens, or has opened, the database). */
  #used = false;
  /** The close in progress or done. */
  #closing: Promise<void> | undefined;

  /**
   * Use `createIdbStore()`. This constructor takes idb-keyval's store function for `location`
   * and, optionally, a function closing its connection (without it, `close()` reaches the
   * connection through a transaction, which fails where the object store is missing).
   */
  constructor(
    location: IdbStoreLocation,
    useStore: UseStore,
    closeConnection?: () => Promise<void>,
  ) {
    if (
      typeof location !== "object" ||
      location === null ||
      typeof location.database !== "string" ||
      typeof location.storeName !== "string" ||
      typeof useStore !== "function" ||
      (closeConnection !== undefined && typeof closeConnection !== "function")
    ) {
      throw new StoreError(
        "INVALID_ARGUMENT",
        `new IdbStore: expected a { database, storeName } location, idb-keyval's store function and an optional close function (use createIdbStore()), got ${describeValue(location)}, ${describeValue(useStore)} and ${describeValue(closeConnection)}`,
      );
    }
    this.#closeConnection = closeConnection;
    this.database = location.database;
    this.storeName = location.storeName;
    this.#useStore = useStore;
  }

  async get(key: Uint8Array): Promise<Uint8Array | undefined> {
    this.#assertOpen("get");
    assertStoreKey(key, "get: key");
    // The request runs once the database is open, after this call returns: copy the key now.
    const own = copyBytes(key);
    const stored = await this.#transaction("readonly", "get", (store) =>
      promisifyRequest(store.get(idbKey(own))),
    );
    return this.#bytes(stored, own);
  }

  /** Values for many keys, all read in one readonly transaction. */
  async getMany(keys: readonly Uint8Array[]): Promise<(Uint8Array | undefined)[]> {
    this.#assertOpen("getMany");
    assertStoreKeys(keys, "getMany");
    // Copied now: the requests run once the database is open, after this returns.
    const own = new Array<Uint8Array>(keys.length);
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i]!;
      own[i] = copyBytes(key);
    }
    if (own.length === 0) return [];
    const stored = await this.#transaction("readonly", "getMany", (store) => {
      const out = new Array<unknown>(own.length);
      for (let i = 0; i < own.length; i++) {
        const request = store.get(idbKey(own[i]!));
        request.onsuccess = () => {
          out[i] = request.result;
        };
      }
      return promisifyRequest(store.transaction).then(() => out);
    });
    return stored.map((value, i) => this.#bytes(value, own[i]!));
  }

  /** Applies every put and delete in one readwrite transaction (atomic). */
  async batch(operations: readonly BatchOperation[]): Promise<void> {
    this.#assertOpen("batch");
    validateBatchOperations(operations);
    if (operations.length === 0) return;
    // The requests are issued once the database is open, after this call returns: take the
    // batch now — keys and values copied (exact-size, as structured clone would store a view's
    // whole buffer), so neither the caller's array nor its buffers can change what is written.
    const count = operations.length;
    const keys = new Array<Uint8Array>(count);
    const values = new Array<Uint8Array | undefined>(count);
    for (let i = 0; i < count; i++) {
      const op = operations[i]!;
      keys[i] = copyBytes(op.key);
      values[i] = op.type === "put" ? copyBytes(op.value) : undefined;
    }
    await this.#transaction("readwrite", "batch", (store) => {
      try {
        for (let i = 0; i < count; i++) {
          const value = values[i];
          if (value !== undefined) store.put(value, idbKey(keys[i]!));
          else store.delete(idbKey(keys[i]!));
        }
      } catch (error) {
        // The requests issued so far would commit on their own: abort to keep the batch atomic.
        store.transaction.abort();
        throw error;
      }
      return promisifyRequest(store.transaction);
    });
  }

  /**
   * Entries in ascending byte order within `range`, read through a cursor in chunks of
   * ENTRIES_CHUNK, one transaction each (so consumers may await between items; a chunk boundary
   * is where a concurrent write can become visible).
   */
  async *entries(range: KeyRange = {}): AsyncIterable<readonly [Uint8Array, Uint8Array]> {
    this.#assertOpen("entries");
    assertKeyRange(range, "entries");
    const { gte, lt } = range;
    if (gte !== undefined && lt !== undefined && compareBytes(gte, lt) >= 0) return;
    let lower: Uint8Array | undefined = gte;
    let lowerOpen = false;
    for (;;) {
      const keyRange = makeRange(lower, lowerOpen, lt);
      const chunk = await this.#transaction("readonly", "entries", (store) =>
        readChunk(store, keyRange),
      );
      for (const [key, value] of chunk) {
        const bytes = this.#bytes(value, key);
        if (bytes !== undefined) yield [key, bytes] as const;
      }
      if (chunk.length < ENTRIES_CHUNK) return;
      lower = chunk[chunk.length - 1]![0];
      lowerOpen = true;
    }
  }

  /**
   * Closes the IndexedDB connection (after the calls in flight); later calls reject with
   * StoreError('STORE_CLOSED'). Idempotent: every call, a concurrent one too, resolves once the
   * connection is closed. A store no call has used has no connection, and opens none to close.
   */
  close(): Promise<void> {
    this.#closed = true;
    this.#closing ??= this.#used ? this.#close() : Promise.resolve();
    return this.#closing;
  }

  async #close(): Promise<void> {
    if (this.#closeConnection !== undefined) {
      await this.#closeConnection();
      return;
    }
    try {
      const db = await this.#useStore("readonly", (store) => store.transaction.db);
      db.close();
    } catch {
      // Already gone, or the object store is missing (then the connection this store cannot
      // reach stays open: createIdbStore passes closeConnection, which reaches it).
    }
  }

  async #transaction<T>(
    mode: IDBTransactionMode,
    operation: string,
    body: (store: IDBObjectStore) => T | PromiseLike<T>,
  ): Promise<T> {
    this.#used = true;
    try {
      return await this.#useStore(mode, body);
    } catch (error) {
      throw toStoreError(error, { database: this.database, storeName: this.storeName, operation });
    }
  }

  #bytes(stored: unknown, key: Uint8Array): Uint8Array | undefined {
    const bytes = readBytes(stored);
    if (bytes === null) {
      throw new StoreError(
        "STORE_IO",
        `${describeStore(this)}: the value under key ${hex(key)} is ${typeof stored}, not bytes (written by other code?)`,
      );
    }
    return bytes;
  }

  #assertOpen(operation: string): void {
    if (this.#closed) {
      throw new StoreError("STORE_CLOSED", `${operation}: ${describeStore(this)} is closed`);
    }
  }
}

/** Any Uint8Array is a valid IndexedDB binary key (the DOM typings only admit ArrayBuffer-backed views). */
function idbKey(key: Uint8Array): IDBValidKey {
  return key as Uint8Array<ArrayBuffer>;
}

function makeRange(
  lower: Uint8Array | undefined,
  lowerOpen: boolean,
  upper: Uint8Array | undefined,
): IDBKeyRange | undefined {
  if (lower !== undefined && upper !== undefined)
    return IDBKeyRange.bound(idbKey(lower), idbKey(upper), lowerOpen, true);
  if (lower !== undefined) return IDBKeyRange.lowerBound(idbKey(lower), lowerOpen);
  if (upper !== undefined) return IDBKeyRange.upperBound(idbKey(upper), true);
  return undefined;
}

/** Up to ENTRIES_CHUNK entries from a cursor over `range`, keys as Uint8Array. */
function readChunk(
  store: IDBObjectStore,
  range: IDBKeyRange | undefined,
): Promise<[Uint8Array, unknown][]> {
  return new Promise((resolve, reject) => {
    const out: [Uint8Array, unknown][] = [];
    const request = store.openCursor(range);
    request.onerror = () => reject(request.error);
    request.onsuccess = () => {
      const cursor = request.result;
      if (cursor === null || out.length === ENTRIES_CHUNK) {
        resolve(out);
        return;
      }
      out.push([keyBytes(cursor.key), cursor.value]);
      cursor.continue();
    };
  });
}

/** IndexedDB hands binary keys back as ArrayBuffers. */
function keyBytes(key: IDBValidKey): Uint8Array {
  if (key instanceof ArrayBuffer) return new Uint8Array(key);
  if (ArrayBuffer.isView(key))
    return new Uint8Array(key.buffer, key.byteOffset, key.byteLength).slice();
  throw new StoreError("STORE_IO", `found a non-binary key (${typeof key}) in the object store`);
}

/** The key for a message: core's bytesToHex of at most its first 40 bytes. */
function hex(bytes: Uint8Array): string {
  return bytes.length > 40 ? `${bytesToHex(bytes.subarray(0, 40))}…` : bytesToHex(bytes);
}
