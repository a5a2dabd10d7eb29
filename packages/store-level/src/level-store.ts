import { describeValue } from "@bintrie/codec";
import {
  type BatchOperation,
  type KeyRange,
  type KVStore,
  type SpanPuts,
  StoreError,
} from "@bintrie/core";
import { copyBytes } from "@bintrie/core/bytes";
import {
  assertKeyRange,
  assertStoreKey,
  assertStoreKeys,
  SPAN_WORDS,
  validateBatchOperations,
  validateSpanPuts,
} from "@bintrie/core/store";
import type { ChainedBatch, Level } from "level";
import { prefixed, prefixUpperBound } from "./key-prefix.js";
import { toStoreError } from "./level-errors.js";
import { plainBytes } from "./plain-bytes.js";

/** A LevelDB (or, in browsers, browser-level) database with byte keys and values. */
export type BytesLevel = Level<Uint8Array, Uint8Array>;

const NO_OPERATIONS: readonly BatchOperation[] = [];

/** Entries fetched from the iterator per round trip; large enough to amortise the native hop. */
const ENTRIES_CHUNK = 1024;

interface LevelStoreInit {
  readonly db: BytesLevel;
  readonly location: string;
  readonly prefix: Uint8Array;
  /** Whether `close()` closes the database (the store opened it) or only this view. */
  readonly ownsDatabase: boolean;
  readonly sync: boolean;
  /** Whether the database copies each key and value into its write batch (LevelDB does). */
  readonly copiesWrites: boolean;
}

/**
 * The core KVStore over `level`: classic-level (LevelDB) in Node, browser-level (IndexedDB) in
 * browsers. Every key is stored as `prefix ‖ key`, so trees with different prefixes share one
 * database; `batch()` is one LevelDB write batch, atomic across a crash. Create it with
 * `openLevelStore()`.
 *
 * @example
 * ```ts
 * import { BinaryTree, openTree } from "@bintrie/core";
 * import { openLevelStore } from "@bintrie/store-level";
 *
 * const store = await openLevelStore("./state-db"); // a LevelStore
 * const tree = new BinaryTree({ store });
 * tree.put(new Uint8Array(32).fill(1), new Uint8Array(32).fill(2));
 * await tree.persist();
 * const trees = store.withPrefix("other/"); // a second tree's keys in the same database
 * await store.close();
 * ```
 */
export class LevelStore implements KVStore {
  /** The directory (Node) or IndexedDB database name (browsers) of the database. */
  readonly location: string;
  /** Bytes prepended to every key of this store. */
  readonly prefix: Uint8Array;
  /** Whether batches are fsynced before they resolve (durable across power loss, not only crashes). */
  readonly sync: boolean;
  readonly #db: BytesLevel;
  readonly #ownsDatabase: boolean;
  readonly #copiesWrites: boolean;
  #closed = false;
  /** The close in progress or done (a failed one is cleared, so a retry tries again). */
  #closing: Promise<void> | undefined;

  /** Use `openLevelStore()`; this constructor takes an already open database. */
  constructor(init: LevelStoreInit) {
    if (typeof init !== "object" || init === null || typeof init.db !== "object") {
      throw new StoreError(
        "INVALID_ARGUMENT",
        `new LevelStore: init must be { db, location, prefix, ... } (use openLevelStore()), got ${describeValue(init)}`,
      );
    }
    this.#db = init.db;
    this.location = init.location;
    this.prefix = init.prefix;
    this.#ownsDatabase = init.ownsDatabase;
    this.sync = init.sync;
    this.#copiesWrites = init.copiesWrites;
  }

  /**
   * A store over the same open database whose keys all start with `this.prefix ‖ prefix`: how
   * several trees share one LevelDB inside one process (LevelDB's lock admits one handle).
   * Closing the view leaves the database open; closing the store that opened it closes it.
   */
  withPrefix(prefix: Uint8Array | string): LevelStore {
    this.#assertOpen("withPrefix");
    const extra = typeof prefix === "string" ? new TextEncoder().encode(prefix) : prefix;
    if (!(extra instanceof Uint8Array)) {
      throw new StoreError(
        "INVALID_ARGUMENT",
        `withPrefix: prefix must be a Uint8Array or a string, got ${describeValue(prefix)}`,
      );
    }
    return new LevelStore({
      db: this.#db,
      location: this.location,
      prefix: copyBytes(prefixed(this.prefix, extra)),
      ownsDatabase: false,
      sync: this.sync,
      copiesWrites: this.#copiesWrites,
    });
  }

  async get(key: Uint8Array): Promise<Uint8Array | undefined> {
    this.#assertOpen("get");
    assertStoreKey(key, "get: key");
    // A key of its own: classic-level reads the key on its worker thread, after this call.
    const full = backendKey(this.prefix, key, true);
    try {
      const value = await this.#db.get(full);
      return value === undefined ? undefined : plainBytes(value);
    } catch (error) {
      throw toStoreError(error, { location: this.location, operation: "get" });
    }
  }

  async getMany(keys: readonly Uint8Array[]): Promise<(Uint8Array | undefined)[]> {
    this.#assertOpen("getMany");
    assertStoreKeys(keys, "getMany");
    if (keys.length === 0) return [];
    // classic-level copies the keys during the call; browser-level issues its IndexedDB
    // requests one after another, so there each key is copied now.
    const own = !this.#copiesWrites;
    const full = new Array<Uint8Array>(keys.length);
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i]!;
      full[i] = backendKey(this.prefix, key, own);
    }
    let values: (Uint8Array | undefined)[];
    try {
      values = await this.#db.getMany(full);
    } catch (error) {
      throw toStoreError(error, { location: this.location, operation: "getMany" });
    }
    for (let i = 0; i < values.length; i++) {
      const value = values[i];
      if (value !== undefined) values[i] = plainBytes(value);
    }
    return values;
  }

  async batch(operations: readonly BatchOperation[]): Promise<void> {
    this.#assertOpen("batch");
    validateBatchOperations(operations);
    if (operations.length === 0) return;
    // A chained batch is still one LevelDB write batch (atomic across a crash; one IndexedDB
    // transaction in browser-level), but each operation goes straight into it: the array form
    // clones and re-encodes every operation object, then the native side reads each back property
    // by property: 5-7x slower on a 132k-operation commit (README, "Performance").
    const prefix = this.prefix;
    // LevelDB copies every key and value into its write batch during the call, so views (e.g.
    // of a builder's shared slabs) go in as they are. browser-level keeps them and issues its
    // IndexedDB puts one after another, after this call: there each key and value is copied
    // now (exact-size, as IndexedDB would clone a view's whole buffer).
    const own = !this.#copiesWrites;
    let chained: ChainedBatch<BytesLevel, Uint8Array, Uint8Array> | undefined;
    try {
      chained = this.#db.batch();
      addOperations(chained, prefix, own, operations, 0, operations.length);
      // The operations are in the native batch now: drop this frame's hold on them, so the
      // garbage collector need not keep (and copy) them while the write is in flight.
      operations = NO_OPERATIONS;
      await chained.write({ sync: this.sync });
    } catch (error) {
      // Frees the native batch when an operation failed before write() (write() closes it itself).
      await chained?.close().catch(() => undefined);
      throw toStoreError(error, { location: this.location, operation: "batch" });
    }
  }

  /**
   * Puts `count` packed records (KVStore.batchPacked: record i is key ‖ value, the key ending at
   * `ends[2i]`, the value at `ends[2i + 1]`) as one write batch, like `batch` with only puts but
   * without an operation object per record: each record goes into the native batch as views
   * that die at once, so a large bulk write leaves nothing for the garbage collector to copy.
   */
  async batchPacked(bytes: Uint8Array, ends: Uint32Array, count: number): Promise<void> {
    this.#assertOpen("batchPacked");
    if (
      !(bytes instanceof Uint8Array) ||
      !(ends instanceof Uint32Array) ||
      !Number.isSafeInteger(count) ||
      count < 0 ||
      ends.length < 2 * count
    ) {
      throw new StoreError(
        "INVALID_ARGUMENT",
        `batchPacked: expected bytes, a Uint32Array of 2 x count record ends and a count, got bytes ${describeValue(bytes)}, ends ${describeValue(ends)}, count ${describeValue(count)}`,
      );
    }
    let start = 0;
    for (let i = 0; i < count; i++) {
      const keyEnd = ends[2 * i]!;
      const end = ends[2 * i + 1]!;
      if (keyEnd < start || end < keyEnd || end > bytes.length) {
        throw new StoreError(
          "INVALID_ARGUMENT",
          `batchPacked: record ${i} spans ${start}..${keyEnd}..${end}, outside the ${bytes.length} bytes or out of order`,
        );
      }
      start = end;
    }
    if (count === 0) return;
    const prefix = this.prefix;
    const own = !this.#copiesWrites;
    let chained: ChainedBatch<BytesLevel, Uint8Array, Uint8Array> | undefined;
    try {
      chained = this.#db.batch();
      start = 0;
      for (let i = 0; i < count; i++) {
        const keyEnd = ends[2 * i]!;
        const end = ends[2 * i + 1]!;
        const key = bytes.subarray(start, keyEnd);
        const value = bytes.subarray(keyEnd, end);
        chained.put(backendKey(prefix, key, own), own ? copyBytes(value) : value);
        start = end;
      }
      await chained.write({ sync: this.sync });
    } catch (error) {
      await chained?.close().catch(() => undefined);
      throw toStoreError(error, { location: this.location, operation: "batchPacked" });
    }
  }

  /**
   * `batch(operations)` with the span puts (KVStore.batchWithSpans) going into the same write
   * batch before `operations[at]`, each as two views that die at once: a commit's node set
   * needs no operation object per node.
   */
  async batchWithSpans(
    operations: readonly BatchOperation[],
    puts: SpanPuts,
    at: number,
  ): Promise<void> {
    this.#assertOpen("batchWithSpans");
    validateBatchOperations(operations);
    validateSpanPuts(puts, at, operations.length);
    if (operations.length === 0 && puts.count === 0) return;
    const prefix = this.prefix;
    const own = !this.#copiesWrites;
    const { chunks, spans, count } = puts;
    let chained: ChainedBatch<BytesLevel, Uint8Array, Uint8Array> | undefined;
    try {
      chained = this.#db.batch();
      addOperations(chained, prefix, own, operations, 0, at);
      for (let i = 0; i < count; i++) {
        const w = i * SPAN_WORDS;
        const chunk = chunks[spans[w]!]!;
        const key = chunk.subarray(spans[w + 1]!, spans[w + 2]!);
        const value = chunk.subarray(spans[w + 3]!, spans[w + 4]!);
        chained.put(backendKey(prefix, key, own), own ? copyBytes(value) : value);
      }
      addOperations(chained, prefix, own, operations, at, operations.length);
      await chained.write({ sync: this.sync });
    } catch (error) {
      await chained?.close().catch(() => undefined);
      throw toStoreError(error, { location: this.location, operation: "batchWithSpans" });
    }
  }

  /** Entries in ascending byte order within `range`, keys without this store's prefix. */
  async *entries(range: KeyRange = {}): AsyncIterable<readonly [Uint8Array, Uint8Array]> {
    this.#assertOpen("entries");
    assertKeyRange(range, "entries");
    const prefix = this.prefix;
    const lt = range.lt !== undefined ? prefixed(prefix, range.lt) : prefixUpperBound(prefix);
    const gte = prefixed(prefix, range.gte ?? new Uint8Array(0));
    const iterator = this.#db.iterator(lt === undefined ? { gte } : { gte, lt });
    try {
      for (;;) {
        let chunk: [Uint8Array, Uint8Array][];
        try {
          chunk = await iterator.nextv(ENTRIES_CHUNK);
        } catch (error) {
          throw toStoreError(error, { location: this.location, operation: "entries" });
        }
        if (chunk.length === 0) return;
        for (const [key, value] of chunk) {
          yield [plainBytes(key).subarray(prefix.length), plainBytes(value)] as const;
        }
      }
    } finally {
      await iterator.close().catch(() => undefined);
    }
  }

  /**
   * Closes the store; closes the database too when this store opened it (after the calls in
   * flight). Idempotent: every call, a concurrent one too, resolves once the database is closed.
   */
  close(): Promise<void> {
    this.#closed = true;
    if (!this.#ownsDatabase) return Promise.resolve();
    if (this.#closing === undefined) {
      const closing = this.#db.close().catch((error: unknown) => {
        if (this.#closing === closing) this.#closing = undefined;
        throw toStoreError(error, { location: this.location, operation: "close" });
      });
      this.#closing = closing;
    }
    return this.#closing;
  }

  #assertOpen(operation: string): void {
    if (this.#closed || this.#db.status === "closed" || this.#db.status === "closing") {
      throw new StoreError(
        "STORE_CLOSED",
        `${operation}: the LevelStore at ${JSON.stringify(this.location)} is closed`,
      );
    }
  }
}

/** Adds operations[from, to) to a chained batch (values owned first where the backend keeps them). */
function addOperations(
  chained: ChainedBatch<BytesLevel, Uint8Array, Uint8Array>,
  prefix: Uint8Array,
  own: boolean,
  operations: readonly BatchOperation[],
  from: number,
  to: number,
): void {
  for (let i = from; i < to; i++) {
    const op = operations[i]!;
    const key = backendKey(prefix, op.key, own);
    if (op.type === "put") chained.put(key, own ? copyBytes(op.value) : op.value);
    else chained.del(key);
  }
}

/**
 * `prefix ‖ key` for the backend; with `own`, in a fresh array (never the caller's, which it may
 * change after the call).
 */
function backendKey(prefix: Uint8Array, key: Uint8Array, own: boolean): Uint8Array {
  return own && prefix.length === 0 ? copyBytes(key) : prefixed(prefix, key);
}
