import { bytesToKeyString, compareBytes, keyStringToBytes } from "./bytes-order.js";
import type { BatchOperation, KeyRange, KVStore } from "./kv-store.js";
import { StoreError } from "./store-error.js";
import { validateBatchOperations } from "./validate-batch.js";

const SLAB_BYTES = 64 * 1024;
/** Larger values get a buffer of their own (a slab holds at least eight). */
const SLAB_MAX_VALUE = SLAB_BYTES / 8;

/**
 * An in-memory KVStore. Values are copied in and out, so callers can reuse their buffers and
 * nothing outside can mutate what is stored.
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
  readonly #map = new Map<string, Uint8Array>();
  #closed = false;
  // Stored copies are views of shared slabs: one buffer per ~64 KiB instead of one per value,
  // which keeps both the copy and the garbage collector's work per stored value small.
  #slab = new Uint8Array(0);
  #slabAt = 0;

  /** Number of stored entries. */
  get size(): number {
    return this.#map.size;
  }

  async get(key: Uint8Array): Promise<Uint8Array | undefined> {
    this.#assertOpen();
    const value = this.#map.get(bytesToKeyString(key));
    return value === undefined ? undefined : value.slice();
  }

  async getMany(keys: readonly Uint8Array[]): Promise<(Uint8Array | undefined)[]> {
    this.#assertOpen();
    return keys.map((key) => this.#map.get(bytesToKeyString(key))?.slice());
  }

  async batch(operations: readonly BatchOperation[]): Promise<void> {
    this.#assertOpen();
    // Validate everything first so a bad operation cannot leave half a batch applied.
    validateBatchOperations(operations);
    for (const op of operations) {
      const k = bytesToKeyString(op.key);
      if (op.type === "put") this.#map.set(k, this.#copy(op.value));
      else this.#map.delete(k);
    }
  }

  async close(): Promise<void> {
    this.#closed = true;
  }

  async *entries(range: KeyRange = {}): AsyncIterable<readonly [Uint8Array, Uint8Array]> {
    this.#assertOpen();
    const keys = [...this.#map.keys()].map(keyStringToBytes).sort(compareBytes);
    for (const key of keys) {
      if (range.gte !== undefined && compareBytes(key, range.gte) < 0) continue;
      if (range.lt !== undefined && compareBytes(key, range.lt) >= 0) break;
      const value = this.#map.get(bytesToKeyString(key));
      if (value !== undefined) yield [key, value.slice()] as const;
    }
  }

  #copy(value: Uint8Array): Uint8Array {
    const n = value.length;
    if (n > SLAB_MAX_VALUE) return value.slice();
    if (this.#slabAt + n > this.#slab.length) {
      this.#slab = new Uint8Array(SLAB_BYTES);
      this.#slabAt = 0;
    }
    const at = this.#slabAt;
    this.#slab.set(value, at);
    this.#slabAt = at + n;
    return this.#slab.subarray(at, at + n);
  }

  #assertOpen(): void {
    if (this.#closed) throw new StoreError("STORE_CLOSED", "MemoryStore: the store is closed");
  }
}
