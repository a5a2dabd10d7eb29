import type { BatchOperation, KVStore } from "../store/kv-store.js";

/** A batch's records packed back to back (the layout of KVStore.batchPacked). */
interface PackedBatch {
  readonly bytes: Uint8Array;
  /** keyEnd, valueEnd per record (the record starts where the previous one ended). */
  readonly ends: Uint32Array;
  readonly count: number;
}

/**
 * Collects a build's records into store batches of at most `maxBatchBytes` (key + value bytes)
 * and writes them with one batch in flight: the store writes in the background while the builder
 * hashes the next batch. Records are copied into one buffer per batch as they are added (from
 * the builder's record callback), and the operation objects are made only when the batch is
 * handed to the store: nothing per record stays alive on the JS heap while a batch fills (which
 * would make every young-generation collection copy it). Full batches wait until the caller,
 * between inputs, awaits `writeReady()`. A failed write surfaces at the next `writeReady()` or
 * `finish()`; nothing after it is written, so the store holds some earlier batches and no root
 * record, and the build can simply be run again.
 */
export class BatchWriter {
  readonly #store: KVStore;
  readonly #maxBatchBytes: number;
  #bytes: Uint8Array;
  #ends: Uint32Array;
  #count = 0;
  #at = 0;
  readonly #ready: PackedBatch[] = [];
  #inFlight: Promise<void> | undefined;
  #batches = 0;

  constructor(store: KVStore, maxBatchBytes: number) {
    this.#store = store;
    this.#maxBatchBytes = maxBatchBytes;
    this.#bytes = new Uint8Array(Math.min(maxBatchBytes, 1 << 16));
    this.#ends = new Uint32Array(256);
  }

  /** Whether full batches wait to be written. */
  get ready(): boolean {
    return this.#ready.length > 0;
  }

  /** Adds one put (the bytes are copied); closes the open batch first when it would overflow. */
  add(key: Uint8Array, value: Uint8Array): void {
    const size = key.length + value.length;
    if (this.#count > 0 && this.#at + size > this.#maxBatchBytes) this.#close();
    this.#append(key, value);
  }

  /** Starts the waiting batches, one at a time; resolves once the last of them is in flight. */
  async writeReady(): Promise<void> {
    const ready = this.#ready;
    while (ready.length > 0) await this.#start(ready.shift()!);
  }

  /**
   * Appends `key`/`value` to the open batch whatever its size (the root record joins the root
   * node, the last record, so both land in one atomic batch), writes everything left, the open
   * batch after every earlier batch resolved, and returns the number of batches written.
   */
  async finish(key: Uint8Array, value: Uint8Array): Promise<number> {
    this.#append(key, value);
    const last = this.#take();
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

  #append(key: Uint8Array, value: Uint8Array): void {
    const size = key.length + value.length;
    if (this.#at + size > this.#bytes.length) {
      const grown = new Uint8Array(Math.max(this.#bytes.length * 2, this.#at + size));
      grown.set(this.#bytes.subarray(0, this.#at));
      this.#bytes = grown;
    }
    if (2 * this.#count + 2 > this.#ends.length) {
      const grown = new Uint32Array(this.#ends.length * 2);
      grown.set(this.#ends);
      this.#ends = grown;
    }
    const bytes = this.#bytes;
    let at = this.#at;
    for (let i = 0; i < key.length; i++) bytes[at + i] = key[i]!;
    at += key.length;
    this.#ends[2 * this.#count] = at;
    // Short values by a loop; long ones (group blobs) by set, a memcpy.
    if (value.length <= 128) for (let i = 0; i < value.length; i++) bytes[at + i] = value[i]!;
    else bytes.set(value, at);
    at += value.length;
    this.#ends[2 * this.#count + 1] = at;
    this.#at = at;
    this.#count++;
  }

  /** Moves the open batch to the ready list and starts a new one. */
  #close(): void {
    this.#ready.push(this.#take());
  }

  /** The open batch; a fresh buffer takes its place (the store may keep views of the old one). */
  #take(): PackedBatch {
    const batch = { bytes: this.#bytes, ends: this.#ends, count: this.#count };
    this.#bytes = new Uint8Array(Math.min(this.#maxBatchBytes, Math.max(this.#at, 1 << 16)));
    this.#ends = new Uint32Array(Math.max(256, 2 * this.#count));
    this.#count = 0;
    this.#at = 0;
    return batch;
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
    const store = this.#store;
    return store.batchPacked === undefined
      ? store.batch(operations(batch))
      : store.batchPacked(batch.bytes, batch.ends, batch.count);
  }

  async #settle(): Promise<void> {
    const inFlight = this.#inFlight;
    this.#inFlight = undefined;
    if (inFlight !== undefined) await inFlight;
  }
}

/** The put operations of a packed batch, views of its buffer. */
function operations({ bytes, ends, count }: PackedBatch): BatchOperation[] {
  const ops = new Array<BatchOperation>(count);
  let start = 0;
  for (let i = 0; i < count; i++) {
    const keyEnd = ends[2 * i]!;
    const end = ends[2 * i + 1]!;
    ops[i] = {
      type: "put",
      key: bytes.subarray(start, keyEnd),
      value: bytes.subarray(keyEnd, end),
    };
    start = end;
  }
  return ops;
}
