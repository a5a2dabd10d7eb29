import type { BatchOperation, KeyRange, KVStore } from "@bintrie/core";
// Map keys are core's latin1 key strings: they sort like the bytes, so sorted keys keep byte order.
import { bytesToKeyString, compareBytes, keyStringToBytes } from "@bintrie/core/bytes";

const DELETED = null;

/**
 * A store that reads through to `base` but keeps its own writes and deletes: a state-manager
 * copy commits here, so it never overwrites the path-keyed nodes of the state it was copied from.
 */
export class CopyOnWriteStore implements KVStore {
  readonly #base: KVStore;
  readonly #own = new Map<string, Uint8Array | typeof DELETED>();

  constructor(base: KVStore) {
    this.#base = base;
  }

  async get(key: Uint8Array): Promise<Uint8Array | undefined> {
    const own = this.#own.get(bytesToKeyString(key));
    if (own === DELETED) return undefined;
    return own ?? (await this.#base.get(key));
  }

  async getMany(keys: readonly Uint8Array[]): Promise<(Uint8Array | undefined)[]> {
    const out: (Uint8Array | undefined)[] = new Array(keys.length);
    const missing: number[] = [];
    for (let i = 0; i < keys.length; i++) {
      const own = this.#own.get(bytesToKeyString(keys[i]!));
      if (own === undefined) missing.push(i);
      else out[i] = own === DELETED ? undefined : own;
    }
    if (missing.length > 0) {
      const values = await this.#base.getMany(missing.map((i) => keys[i]!));
      for (let j = 0; j < missing.length; j++) out[missing[j]!] = values[j];
    }
    return out;
  }

  async batch(operations: readonly BatchOperation[]): Promise<void> {
    for (const op of operations) {
      this.#own.set(bytesToKeyString(op.key), op.type === "put" ? op.value.slice() : DELETED);
    }
  }

  async close(): Promise<void> {
    this.#own.clear();
  }

  async *entries(range: KeyRange = {}): AsyncIterable<readonly [Uint8Array, Uint8Array]> {
    const merged = new Map<string, Uint8Array | typeof DELETED>();
    if (this.#base.entries !== undefined) {
      for await (const [key, value] of this.#base.entries(range))
        merged.set(bytesToKeyString(key), value);
    }
    for (const [key, value] of this.#own) {
      const bytes = keyStringToBytes(key);
      if (range.gte !== undefined && compareBytes(bytes, range.gte) < 0) continue;
      if (range.lt !== undefined && compareBytes(bytes, range.lt) >= 0) continue;
      merged.set(key, value);
    }
    const keys = [...merged.keys()].sort();
    for (const key of keys) {
      const value = merged.get(key);
      if (value !== undefined && value !== DELETED) yield [keyStringToBytes(key), value] as const;
    }
  }
}
