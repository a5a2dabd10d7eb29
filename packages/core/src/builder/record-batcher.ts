import { type PackedBatch, PackedRecords } from "./packed-records.js";

/** Records shallower than this wait for the final batch: their keys would overlap every range. */
export const HELD_DEPTH = 8;

/**
 * Cuts a build's node records into store batches of at most `maxBatchBytes` (key + value bytes),
 * between depth-8 subtrees where possible. Records come in post-order of sorted stems, so each
 * subtree's keys (one first path byte after the key prefix) arrive together, and batches of
 * whole subtrees cover disjoint, increasing key ranges: LevelDB's level-0 tables then never
 * overlap, and its compactions move files instead of rewriting them. The few records above
 * depth 8 are held apart for the final batch.
 *
 * Used by the single-threaded build (BatchWriter, which writes the batches as they fill) and by
 * each partition of a parallel build (which hands them back to the main thread).
 */
export class RecordBatcher {
  /** Batches cut so far, oldest first (the caller takes them with `shift`). */
  readonly full: PackedBatch[] = [];
  readonly #maxBatchBytes: number;
  readonly #prefixLength: number;
  readonly #open: PackedRecords;
  readonly #held = new PackedRecords(1 << 10, 16);
  /** The range being filled, and the open batch's record where it starts. */
  #range = -1;
  #rangeStart = 0;

  /** Sized for about `initialBytes` in `initialRecords` records per batch (it grows past). */
  constructor(
    maxBatchBytes: number,
    keyPrefixLength: number,
    initialBytes = Math.min(maxBatchBytes, 1 << 16),
    initialRecords?: number,
  ) {
    this.#maxBatchBytes = maxBatchBytes;
    this.#prefixLength = keyPrefixLength;
    this.#open = new PackedRecords(initialBytes, initialRecords);
  }

  /** Records in the open batch. */
  get openCount(): number {
    return this.#open.count;
  }

  /**
   * Adds one node record (key = key prefix ‖ path key ‖ depth; the bytes are copied). When it
   * does not fit the open batch, the batch is cut before the range being filled, which moves on
   * with the record (or, if that range is all the batch holds, after it).
   */
  add(key: Uint8Array, value: Uint8Array): void {
    const p = this.#prefixLength;
    const depth = key.length > p ? key[key.length - 1]! : 0;
    if (depth < HELD_DEPTH) {
      this.#held.append(key, value);
      return;
    }
    const open = this.#open;
    const range = key[p]!;
    if (range !== this.#range) {
      this.#range = range;
      this.#rangeStart = open.count;
    }
    const size = key.length + value.length;
    if (open.count > 0 && open.bytes + size > this.#maxBatchBytes) {
      this.full.push(this.#rangeStart > 0 ? open.takeFirst(this.#rangeStart) : open.take());
      this.#rangeStart = 0;
      // The range carried over may itself leave no room: then it goes alone.
      if (open.count > 0 && open.bytes + size > this.#maxBatchBytes) this.full.push(open.take());
    }
    open.append(key, value);
  }

  /** Appends a record to the open batch whatever its size (a build's root record). */
  appendToOpen(key: Uint8Array, value: Uint8Array): void {
    this.#open.append(key, value);
  }

  /** Moves the held records into the open batch (a single-store build's last batch). */
  releaseHeld(): void {
    this.#open.appendBatch(this.#held.take());
  }

  /** The open batch (its records move out; the next ones start a new batch). */
  takeOpen(): PackedBatch {
    this.#range = -1;
    this.#rangeStart = 0;
    return this.#open.take();
  }

  /** The held records (above depth 8), as one batch. */
  takeHeld(): PackedBatch {
    return this.#held.take();
  }
}
