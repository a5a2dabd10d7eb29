import type { BatchOperation, KeyRange, KVStore } from "../store/kv-store.js";
import { StoreError } from "../store/store-error.js";
import { sleep } from "./sleep.js";

/** How a FaultyStore misbehaves. */
export interface FaultyStoreOptions {
  /** Seed of the latency pseudo-random sequence (runs reproduce from it). Default 1. */
  readonly seed?: number;
  /**
   * Each call waits a pseudo-random 0..maxLatencyMs before it reaches the inner store, so
   * overlapping calls complete, and batches apply, in another order than they were issued.
   * Default 0 (no delay, calls pass straight through).
   */
  readonly maxLatencyMs?: number;
}

/**
 * A KVStore wrapper for fault tests: rejects chosen batches without applying them (as a full
 * IndexedDB quota, an aborted transaction or a disk error would) and adds random latency.
 * Only the `KVStore` contract is kept: nothing about the order overlapping calls land in.
 */
export class FaultyStore implements KVStore {
  readonly inner: KVStore;
  readonly #maxLatency: number;
  #seed: number;
  #failBatches = 0;
  /** Batches that reached the inner store. */
  batches = 0;
  /** Batches rejected on purpose. */
  rejected = 0;
  /** Present exactly when the inner store has it (ordered iteration passes straight through). */
  readonly entries?: (range?: KeyRange) => AsyncIterable<readonly [Uint8Array, Uint8Array]>;

  constructor(inner: KVStore, options: FaultyStoreOptions = {}) {
    this.inner = inner;
    if (inner.entries !== undefined) this.entries = (range) => inner.entries!(range);
    this.#maxLatency = options.maxLatencyMs ?? 0;
    this.#seed = (options.seed ?? 1) >>> 0 || 1;
  }

  /** The next `count` batches reject with StoreError('STORE_IO') and write nothing. */
  failNextBatches(count = 1): void {
    this.#failBatches += count;
  }

  async get(key: Uint8Array): Promise<Uint8Array | undefined> {
    await this.#delay();
    return this.inner.get(key);
  }

  async getMany(keys: readonly Uint8Array[]): Promise<(Uint8Array | undefined)[]> {
    await this.#delay();
    return this.inner.getMany(keys);
  }

  async batch(operations: readonly BatchOperation[]): Promise<void> {
    // Decided at call time, so "the next batch" is the next one issued, whatever the latency.
    const fail = this.#failBatches > 0;
    if (fail) this.#failBatches--;
    await this.#delay();
    if (fail) {
      this.rejected++;
      throw new StoreError(
        "STORE_IO",
        `FaultyStore: batch of ${operations.length} operations rejected on purpose`,
      );
    }
    this.batches++;
    await this.inner.batch(operations);
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  #delay(): Promise<void> {
    if (this.#maxLatency <= 0) return Promise.resolve();
    let x = this.#seed;
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    this.#seed = x;
    const ms = x % (this.#maxLatency + 1);
    return sleep(ms);
  }
}
