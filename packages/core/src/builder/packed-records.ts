import type { BatchOperation, KVStore } from "../store/kv-store.js";

/** Records packed back to back, the layout of KVStore.batchPacked. */
export interface PackedBatch {
  readonly bytes: Uint8Array;
  /** keyEnd, valueEnd per record (a record starts where the previous one ended). */
  readonly ends: Uint32Array;
  readonly count: number;
}

/**
 * A growing buffer of store records (key ‖ value, back to back) and their ends: one buffer per
 * batch instead of two arrays per record, ready to be transferred to another thread or handed to
 * `KVStore.batchPacked`.
 */
export class PackedRecords {
  #bytes: Uint8Array;
  #ends: Uint32Array;
  #count = 0;
  #at = 0;

  readonly #initialBytes: number;
  readonly #initialRecords: number;
  /** What the next buffers are sized for: the initial sizes, or the last batch's if larger. */
  #sizedBytes: number;
  #sizedRecords: number;

  /** Sized for about `initialBytes` in `initialRecords` records (it grows past them). */
  constructor(initialBytes = 1 << 16, initialRecords = initialBytes >>> 6) {
    this.#initialBytes = Math.max(64, initialBytes);
    this.#initialRecords = Math.max(16, initialRecords);
    this.#sizedBytes = this.#initialBytes;
    this.#sizedRecords = this.#initialRecords;
    this.#bytes = new Uint8Array(this.#initialBytes);
    this.#ends = new Uint32Array(2 * this.#initialRecords);
  }

  /** Records appended since the last take. */
  get count(): number {
    return this.#count;
  }

  /** Key + value bytes appended since the last take. */
  get bytes(): number {
    return this.#at;
  }

  /** Appends one record (the bytes are copied). */
  append(key: Uint8Array, value: Uint8Array): void {
    const size = key.length + value.length;
    if (this.#at + size > this.#bytes.length) {
      const grown = new Uint8Array(
        Math.max(this.#bytes.length * 2, this.#at + size, this.#sizedBytes),
      );
      grown.set(this.#bytes.subarray(0, this.#at));
      this.#bytes = grown;
    }
    if (2 * this.#count + 2 > this.#ends.length) {
      const grown = new Uint32Array(Math.max(this.#ends.length * 2, 2 * this.#sizedRecords));
      grown.set(this.#ends);
      this.#ends = grown;
    }
    const bytes = this.#bytes;
    let at = this.#at;
    for (let i = 0; i < key.length; i++) bytes[at + i] = key[i]!;
    at += key.length;
    this.#ends[2 * this.#count] = at;
    if (value.length <= 64) for (let i = 0; i < value.length; i++) bytes[at + i] = value[i]!;
    else bytes.set(value, at);
    at += value.length;
    this.#ends[2 * this.#count + 1] = at;
    this.#at = at;
    this.#count++;
  }

  /** Appends every record of `batch`. */
  appendBatch({ bytes, ends, count }: PackedBatch): void {
    let start = 0;
    for (let i = 0; i < count; i++) {
      const keyEnd = ends[2 * i]!;
      const end = ends[2 * i + 1]!;
      this.append(bytes.subarray(start, keyEnd), bytes.subarray(keyEnd, end));
      start = end;
    }
  }

  /**
   * The first `count` records as a batch (views of the buffers, which it takes along); the
   * others move to the front of new buffers sized like that batch (a copy of the few records
   * after a cut, not of the batch before it).
   */
  takeFirst(count: number): PackedBatch {
    if (count >= this.#count) return this.take();
    const cut = count > 0 ? this.#ends[2 * count - 1]! : 0;
    const bytes = this.#bytes;
    const ends = this.#ends;
    const batch = { bytes: bytes.subarray(0, cut), ends: ends.subarray(0, 2 * count), count };
    const rest = this.#count - count;
    this.#sizedBytes = Math.max(this.#initialBytes, cut);
    this.#sizedRecords = Math.max(this.#initialRecords, count);
    this.#bytes = new Uint8Array(Math.max(this.#sizedBytes, this.#at - cut));
    this.#bytes.set(bytes.subarray(cut, this.#at));
    this.#ends = new Uint32Array(2 * Math.max(this.#sizedRecords, rest));
    for (let i = 0; i < 2 * rest; i++) this.#ends[i] = ends[2 * count + i]! - cut;
    this.#count = rest;
    this.#at -= cut;
    return batch;
  }

  /**
   * The records so far as a batch (views of the buffers, which it takes along: a batch may be
   * transferred to another thread); the next records go to new buffers.
   */
  take(): PackedBatch {
    const batch = {
      bytes: this.#bytes.subarray(0, this.#at),
      ends: this.#ends.subarray(0, 2 * this.#count),
      count: this.#count,
    };
    // The next buffers come with the next record (a builder's last batch is followed by none,
    // and zeroing a whole batch's buffer for nothing costs a page fault per 4 KiB), sized like
    // this batch: the next is much the same, and growing to it would copy it on the way.
    this.#sizedBytes = Math.max(this.#initialBytes, this.#at);
    this.#sizedRecords = Math.max(this.#initialRecords, this.#count);
    this.#bytes = new Uint8Array(0);
    this.#ends = new Uint32Array(0);
    this.#count = 0;
    this.#at = 0;
    return batch;
  }
}

/** Writes a packed batch: `batchPacked` where the store has it, else one put per record. */
export function writePackedBatch(store: KVStore, batch: PackedBatch): Promise<void> {
  return store.batchPacked === undefined
    ? store.batch(packedOperations(batch))
    : store.batchPacked(batch.bytes, batch.ends, batch.count);
}

/** The put operations of a packed batch, views of its buffer. */
function packedOperations({ bytes, ends, count }: PackedBatch): BatchOperation[] {
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
