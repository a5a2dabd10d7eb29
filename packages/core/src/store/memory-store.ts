import { assertKeyRange, assertStoreKey, assertStoreKeys } from "./assert-store-key.js";
import { ByteTable } from "./byte-table.js";
import { compareBytes } from "./bytes-order.js";
import type { BatchOperation, KeyRange, KVStore, SpanPuts } from "./kv-store.js";
import { StoreError } from "./store-error.js";
import { validateBatchOperations, validateSpanPuts } from "./validate-batch.js";

/**
 * An in-memory KVStore. Values are copied in and out, so callers can reuse their buffers and
 * nothing outside can mutate what is stored. Entries live in a typed-array hash table (no object
 * per entry: see ByteTable), so a store of millions of nodes costs the garbage collector nothing.
 *
 * @example
 * ```ts
 * import { BinaryTree, MemoryStore, openTree } from "@bintrie/core";
 *
 * const store = new MemoryStore();
 * const tree = new BinaryTree({ store });
 * tree.put(new Uint8Array(32).fill(1), new Uint8Array(32).fill(2));
 * await tree.persist();
 * (await openTree(store)).hash(); // the same root
 * ```
 */
export class MemoryStore implements KVStore {
  readonly #table = new ByteTable();
  #closed = false;

  /** Number of stored entries. */
  get size(): number {
    return this.#table.size;
  }

  async get(key: Uint8Array): Promise<Uint8Array | undefined> {
    this.#assertOpen();
    assertStoreKey(key, "MemoryStore.get: key");
    const id = this.#table.find(key);
    return id < 0 ? undefined : this.#table.valueOf(id);
  }

  async getMany(keys: readonly Uint8Array[]): Promise<(Uint8Array | undefined)[]> {
    this.#assertOpen();
    assertStoreKeys(keys, "MemoryStore.getMany");
    return keys.map((key) => {
      const id = this.#table.find(key);
      return id < 0 ? undefined : this.#table.valueOf(id);
    });
  }

  async batch(operations: readonly BatchOperation[]): Promise<void> {
    this.#assertOpen();
    // Validate everything first so a bad operation cannot leave half a batch applied.
    validateBatchOperations(operations);
    this.#apply(operations, 0, operations.length);
  }

  /** Like `batch`, with the span puts applied straight from their chunks before `operations[at]`. */
  async batchWithSpans(
    operations: readonly BatchOperation[],
    puts: SpanPuts,
    at: number,
  ): Promise<void> {
    this.#assertOpen();
    validateBatchOperations(operations);
    validateSpanPuts(puts, at, operations.length);
    this.#apply(operations, 0, at);
    this.#table.setSpans(puts.chunks, puts.spans, puts.count);
    this.#apply(operations, at, operations.length);
  }

  async close(): Promise<void> {
    this.#closed = true;
  }

  async *entries(range: KeyRange = {}): AsyncIterable<readonly [Uint8Array, Uint8Array]> {
    this.#assertOpen();
    assertKeyRange(range, "MemoryStore.entries");
    const table = this.#table;
    // A snapshot of the keys in order (as the Map-based store did): later batches do not move it.
    const ids = Array.from(table.ids()).sort((a, b) => table.compareKeys(a, b));
    const keys = ids.map((id) => table.keyOf(id));
    for (const key of keys) {
      if (range.gte !== undefined && compareBytes(key, range.gte) < 0) continue;
      if (range.lt !== undefined && compareBytes(key, range.lt) >= 0) break;
      const id = table.find(key);
      if (id >= 0) yield [key, table.valueOf(id)] as const;
    }
  }

  #apply(operations: readonly BatchOperation[], from: number, to: number): void {
    const table = this.#table;
    for (let i = from; i < to; ) {
      const op = operations[i]!;
      if (op.type === "put") {
        table.set(op.key, op.value);
        i++;
        continue;
      }
      // Deletes in a row (a persist's orphans) go together: their table misses overlap.
      let end = i + 1;
      while (end < to && operations[end]!.type === "del") end++;
      if (end === i + 1) {
        table.delete(op.key);
      } else {
        const keys: Uint8Array[] = new Array(end - i);
        for (let k = i; k < end; k++) keys[k - i] = operations[k]!.key;
        table.deleteMany(keys, 0, keys.length);
      }
      i = end;
    }
  }

  #assertOpen(): void {
    if (this.#closed) throw new StoreError("STORE_CLOSED", "MemoryStore: the store is closed");
  }
}
