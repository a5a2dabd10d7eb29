import type { BatchOperation, KVStore } from "@bintrie/core";
import { hexToBytes } from "@bintrie/core/bytes";
import type { BatchDBOp, DB } from "@ethereumjs/util";
import { concatBytes } from "@noble/hashes/utils.js";
import { invalidArgument } from "./arguments.js";
import { checkStore } from "./check-store.js";

/**
 * A core `KVStore` seen through @ethereumjs's `DB` interface, so a `MerklePatriciaTrie` reads
 * and writes MPT nodes in the same store as the binary overlay. The trie hands over keys as
 * unprefixed hex; they are stored as `prefix || bytes`. Values are bytes (use the trie with
 * `valueEncoding: ValueEncoding.Bytes`).
 *
 * With `buffered: true` writes stay in memory until `flush()` writes them in one atomic batch
 * (building a trie puts each node many times; only the last value matters).
 *
 * @example
 * ```ts
 * import { MemoryStore } from "@bintrie/core";
 * import { KVStoreDB } from "@bintrie/transition";
 *
 * // @ethereumjs/trie's DB interface over any KVStore, its keys under a prefix.
 * const db = new KVStoreDB(new MemoryStore(), Uint8Array.of(0x6d));
 * ```
 */
export class KVStoreDB implements DB<string, string | Uint8Array> {
  readonly store: KVStore;
  readonly prefix: Uint8Array;
  /** Staged writes by the trie's hex key; null = delete. */
  readonly #buffer: Map<string, Uint8Array | null> | undefined;

  constructor(store: KVStore, prefix: Uint8Array, options: { buffered?: boolean } = {}) {
    checkStore("KVStoreDB: store", store);
    if (!(prefix instanceof Uint8Array) || prefix.length === 0) {
      throw invalidArgument("KVStoreDB: prefix", "non-empty bytes (a Uint8Array)", prefix);
    }
    this.store = store;
    this.prefix = prefix.slice();
    this.#buffer = options.buffered === true ? new Map() : undefined;
  }

  async get(key: string): Promise<string | Uint8Array | undefined> {
    if (this.#buffer !== undefined) {
      const pending = this.#buffer.get(key);
      if (pending !== undefined) return pending ?? undefined;
    }
    return this.store.get(this.#key(key));
  }

  async put(key: string, value: string | Uint8Array): Promise<void> {
    await this.batch([{ type: "put", key, value }]);
  }

  async del(key: string): Promise<void> {
    await this.batch([{ type: "del", key }]);
  }

  async batch(opStack: BatchDBOp<string, string | Uint8Array>[]): Promise<void> {
    if (this.#buffer !== undefined) {
      // Buffered by the trie's own hex key: no conversion until flush.
      for (const op of opStack)
        this.#buffer.set(op.key, op.type === "put" ? asBytes(op.value) : null);
      return;
    }
    const ops: BatchOperation[] = opStack.map((op) =>
      op.type === "put"
        ? { type: "put", key: this.#key(op.key), value: asBytes(op.value) }
        : { type: "del", key: this.#key(op.key) },
    );
    await this.store.batch(ops);
  }

  /** Writes the buffered operations (and `extra`) in one atomic batch. */
  async flush(extra: readonly BatchOperation[] = []): Promise<number> {
    if (this.#buffer === undefined) return 0;
    const ops: BatchOperation[] = [...extra];
    for (const [k, v] of this.#buffer) {
      const key = this.#key(k);
      ops.push(v === null ? { type: "del", key } : { type: "put", key, value: v });
    }
    await this.store.batch(ops);
    const written = this.#buffer.size;
    this.#buffer.clear();
    return written;
  }

  /** Buffered operations not yet flushed. */
  get pending(): number {
    return this.#buffer?.size ?? 0;
  }

  shallowCopy(): DB<string, string | Uint8Array> {
    return this;
  }

  async open(): Promise<void> {}

  #key(hex: string): Uint8Array {
    return concatBytes(this.prefix, hexToBytes(hex));
  }
}

function asBytes(value: string | Uint8Array): Uint8Array {
  return typeof value === "string" ? hexToBytes(value) : value;
}
