import type { BatchOperation, KVStore } from "../store/kv-store.js";

/**
 * Collects a build's records into store batches of at most `maxBatchBytes` (key + value bytes)
 * and writes them with one batch in flight: the store writes in the background while the builder
 * hashes the next batch. Records are added synchronously (from the builder's record callback);
 * full batches wait in `ready` until the caller, between inputs, awaits `writeReady()`. A failed
 * write surfaces at the next `writeReady()` or `finish()`; nothing after it is written, so the
 * store holds some earlier batches and no root record, and the build can simply be run again.
 */
export class BatchWriter {
  readonly #store: KVStore;
  readonly #maxBatchBytes: number;
  #ops: BatchOperation[] = [];
  #bytes = 0;
  readonly #ready: BatchOperation[][] = [];
  #inFlight: Promise<void> | undefined;
  #batches = 0;

  constructor(store: KVStore, maxBatchBytes: number) {
    this.#store = store;
    this.#maxBatchBytes = maxBatchBytes;
  }

  /** Whether full batches wait to be written. */
  get ready(): boolean {
    return this.#ready.length > 0;
  }

  /** Adds one put; closes the open batch first when the put would overflow it. */
  add(key: Uint8Array, value: Uint8Array): void {
    const size = key.length + value.length;
    if (this.#ops.length > 0 && this.#bytes + size > this.#maxBatchBytes) {
      this.#ready.push(this.#ops);
      this.#ops = [];
      this.#bytes = 0;
    }
    this.#ops.push({ type: "put", key, value });
    this.#bytes += size;
  }

  /** Starts the waiting batches, one at a time; resolves once the last of them is in flight. */
  async writeReady(): Promise<void> {
    const ready = this.#ready;
    for (let i = 0; i < ready.length; i++) {
      const batch = ready[i]!;
      ready[i] = [];
      await this.#start(batch);
    }
    ready.length = 0;
  }

  /**
   * Appends `key`/`value` to the open batch whatever its size (the root record joins the root
   * node, the last record, so both land in one atomic batch), writes everything left, the open
   * batch after every earlier batch resolved, and returns the number of batches written.
   */
  async finish(key: Uint8Array, value: Uint8Array): Promise<number> {
    this.#ops.push({ type: "put", key, value });
    await this.writeReady();
    await this.#settle();
    const last = this.#ops;
    this.#ops = [];
    this.#batches++;
    await this.#store.batch(last);
    return this.#batches;
  }

  /** After a failed build: waits for the batch in flight, ignoring its outcome. */
  async abandon(): Promise<void> {
    await this.#inFlight?.catch(() => {});
    this.#inFlight = undefined;
  }

  async #start(batch: BatchOperation[]): Promise<void> {
    await this.#settle();
    this.#batches++;
    const pending = this.#store.batch(batch);
    // Handled here so a rejection is not unhandled before the next #settle awaits it.
    pending.catch(() => {});
    this.#inFlight = pending;
  }

  async #settle(): Promise<void> {
    const inFlight = this.#inFlight;
    this.#inFlight = undefined;
    if (inFlight !== undefined) await inFlight;
  }
}
