import type { KVStore } from "../store/kv-store.js";
import { type PackedBatch, writePackedBatch } from "./packed-records.js";

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
  readonly #prefixLength: number;
  /** The open batch's last range boundary (bytes, records), -1 for none; the range there. */
  #cutAt = -1;
  #cutCount = 0;
  #range = -1;
  /** Records above depth 8, written with the final batch. */
  readonly #held: [Uint8Array, Uint8Array][] = [];
  #bytes: Uint8Array;
  #ends: Uint32Array;
  #count = 0;
  #at = 0;
  readonly #ready: PackedBatch[] = [];
  #inFlight: Promise<void> | undefined;
  #batches = 0;

  constructor(store: KVStore, maxBatchBytes: number, keyPrefixLength: number) {
    this.#store = store;
    this.#maxBatchBytes = maxBatchBytes;
    this.#prefixLength = keyPrefixLength;
    this.#bytes = new Uint8Array(Math.min(maxBatchBytes, 1 << 16));
    this.#ends = new Uint32Array(256);
  }

  /** Whether full batches wait to be written. */
  get ready(): boolean {
    return this.#ready.length > 0;
  }

  /**
   * Adds one node record (key = key prefix ‖ path key; the bytes are copied). Batches are cut at
   * boundaries between depth-8 subtrees where possible: records come in post-order of sorted
   * stems, so each subtree's keys (one first path byte) arrive together, and batches of whole
   * subtrees cover disjoint, increasing key ranges. LevelDB's level-0 tables then never overlap
   * and its compactions only move files instead of rewriting them. The few records above depth
   * 8 (their keys would overlap every range) wait for the final batch.
   */
  add(key: Uint8Array, value: Uint8Array): void {
    const p = this.#prefixLength;
    const depth = key.length > p ? key[key.length - 1]! : 0;
    if (depth < 8) {
      this.#held.push([key, value]);
      return;
    }
    const range = key[p]!;
    if (range !== this.#range) {
      this.#range = range;
      this.#cutAt = this.#at;
      this.#cutCount = this.#count;
    }
    const size = key.length + value.length;
    // Twice at most: the range carried over may itself leave no room, then it goes alone.
    while (this.#count > 0 && this.#at + size > this.#maxBatchBytes) this.#close();
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
    for (const [k, v] of this.#held) this.#append(k, v);
    this.#held.length = 0;
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

  /**
   * Moves the open batch to the ready list and starts a new one; the records of the current
   * range (after its last boundary) move to the new batch, unless the range is all it holds.
   */
  #close(): void {
    const cut = this.#cutAt;
    if (cut <= 0 || cut === this.#at) {
      this.#ready.push(this.#take());
      this.#cutAt = 0;
      this.#cutCount = 0;
      return;
    }
    const bytes = this.#bytes;
    const ends = this.#ends;
    const tailRecords = this.#count - this.#cutCount;
    const tail = bytes.slice(cut, this.#at);
    const tailEnds = ends.slice(2 * this.#cutCount, 2 * this.#count);
    this.#at = cut;
    this.#count = this.#cutCount;
    this.#ready.push(this.#take());
    if (this.#bytes.length < tail.length) this.#bytes = new Uint8Array(2 * tail.length);
    if (this.#ends.length < tailEnds.length) this.#ends = new Uint32Array(2 * tailEnds.length);
    this.#bytes.set(tail, 0);
    for (let i = 0; i < tailEnds.length; i++) this.#ends[i] = tailEnds[i]! - cut;
    this.#at = tail.length;
    this.#count = tailRecords;
    this.#cutAt = 0;
    this.#cutCount = 0;
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
    return writePackedBatch(this.#store, batch);
  }

  async #settle(): Promise<void> {
    const inFlight = this.#inFlight;
    this.#inFlight = undefined;
    if (inFlight !== undefined) await inFlight;
  }
}
