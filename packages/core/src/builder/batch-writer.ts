import type { KVStore } from "../store/kv-store.js";
import { type PackedBatch, writePackedBatch } from "./packed-records.js";
import { RecordBatcher } from "./record-batcher.js";

/**
 * Writes a build's records as store batches (cut by a RecordBatcher: at most `maxBatchBytes`,
 * between depth-8 subtrees where possible) with one batch in flight: the store writes in the
 * background while the builder hashes the next batch. Records are copied into one buffer per
 * batch as they are added (from the builder's record callback), and the operation objects are
 * made only when the batch is handed to the store: nothing per record stays alive on the JS heap
 * while a batch fills (which would make every young-generation collection copy it). Full batches
 * wait until the caller, between inputs, awaits `writeReady()`. A failed write surfaces at the
 * next `writeReady()` or `finish()`; nothing after it is written, so the store holds some earlier
 * batches and no root record, and the build can simply be run again.
 */
export class BatchWriter {
  readonly #store: KVStore;
  readonly #batcher: RecordBatcher;
  #inFlight: Promise<void> | undefined;
  #batches = 0;

  constructor(store: KVStore, maxBatchBytes: number, keyPrefixLength: number) {
    this.#store = store;
    this.#batcher = new RecordBatcher(maxBatchBytes, keyPrefixLength);
  }

  /** Whether full batches wait to be written. */
  get ready(): boolean {
    return this.#batcher.full.length > 0;
  }

  /** Adds one node record (key = key prefix ‖ path key ‖ depth; the bytes are copied). */
  add(key: Uint8Array, value: Uint8Array): void {
    this.#batcher.add(key, value);
  }

  /** Starts the waiting batches, one at a time; resolves once the last of them is in flight. */
  async writeReady(): Promise<void> {
    const full = this.#batcher.full;
    while (full.length > 0) await this.#start(full.shift()!);
  }

  /**
   * Appends `key`/`value` to the open batch whatever its size (the root record joins the root
   * node, the last record, so both land in one atomic batch) after the records held above depth
   * 8, writes everything left, the open batch after every earlier batch resolved, and returns
   * the number of batches written.
   */
  async finish(key: Uint8Array, value: Uint8Array): Promise<number> {
    this.#batcher.releaseHeld();
    this.#batcher.appendToOpen(key, value);
    const last = this.#batcher.takeOpen();
    await this.writeReady();
    await this.#settle();
    this.#batches++;
    await this.#write(last);
    return this.#batches;
  }

  /** After a failed build: waits for the batch in flight, ignoring its outcome. */
  async abandon(): Promise<void> {
    await this.#inFlight?.catch(() => {});
    this.#inFlight = undefined;
  }

  async #start(batch: PackedBatch): Promise<void> {
    await this.#settle();
    this.#batches++;
    const pending = this.#write(batch);
    // Handled here so a rejection is not unhandled before the next #settle awaits it.
    pending.catch(() => {});
    this.#inFlight = pending;
  }

  #write(batch: PackedBatch): Promise<void> {
    return writePackedBatch(this.#store, batch);
  }

  async #settle(): Promise<void> {
    const inFlight = this.#inFlight;
    this.#inFlight = undefined;
    if (inFlight !== undefined) await inFlight;
  }
}
