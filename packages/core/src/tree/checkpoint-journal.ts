import type { Arena, OrphanPath } from "./arena.js";
import { INTERNAL_RECORD_WORDS } from "./internal-pool.js";
import type { NodeRef } from "./node-ref.js";
import { CHUNK_BITS, CHUNK_MASK, CHUNK_SIZE } from "./pool-chunks.js";
import type { HeapJournal, PoolJournal } from "./pool-journal.js";
import { STEM_RECORD_WORDS } from "./stem-pool.js";
import { TreeError } from "./tree-error.js";
import { U32Stack } from "./u32-stack.js";

/** Internal record entry: index + record. */
const INTERNAL_ENTRY = 1 + INTERNAL_RECORD_WORDS;
/** Stem record entry: index + record + offset of its saved values in the value log. */
const STEM_ENTRY = 1 + STEM_RECORD_WORDS + 1;

/** Where each log stood when a checkpoint level opened, and the tree's root and orphans then. */
interface Level {
  readonly epoch: number;
  readonly internalRecords: number;
  readonly stemRecords: number;
  readonly valueBytes: number;
  readonly allocs: readonly number[];
  readonly deferred: readonly number[];
  readonly root: NodeRef;
  readonly orphans: OrphanPath[];
}

/** Pool ids for the alloc and deferred-release logs. */
const INTERNAL = 0;
const STEM = 1;
const HASHED = 2;
/** Value heap log entries are (address, size class) pairs. */
const HEAP = 3;

/**
 * Nested checkpoints as an undo log over the arena's pools. The first change of a node inside a
 * level saves the node's record (a per-node epoch stamp makes later changes in the same level
 * free); allocations are logged so a revert frees them; frees are deferred while any level is
 * open so a revert can bring freed nodes back untouched. Reverting replays the saved records
 * newest first, so every node ends as it was when the level opened: links, depths, values,
 * cached hashes and flags (stale, persisted), and with them the next commit's node set.
 * Cost: O(nodes changed) per level, nothing per node of the tree.
 */
export class CheckpointJournal {
  readonly #arena: Arena;
  readonly #levels: Level[] = [];
  #epoch = 0;
  #nextEpoch = 1;
  readonly #internalStamps: Uint32Array[] = [];
  readonly #stemStamps: Uint32Array[] = [];
  readonly #internalRecords = new U32Stack(1024);
  readonly #stemRecords = new U32Stack(1024);
  #valueBytes = new Uint8Array(64 * 1024);
  #valueLength = 0;
  readonly #allocs = [new U32Stack(), new U32Stack(), new U32Stack(), new U32Stack()];
  readonly #deferred = [new U32Stack(), new U32Stack(), new U32Stack(), new U32Stack()];
  readonly #internalJournal: PoolJournal;
  readonly #stemJournal: PoolJournal;
  readonly #hashedJournal: PoolJournal;
  readonly #heapJournal: HeapJournal;

  constructor(arena: Arena) {
    this.#arena = arena;
    this.#internalJournal = {
      touch: (index) => this.#touchInternal(index),
      allocated: (index) => this.#allocated(INTERNAL, this.#internalStamps, index),
      deferRelease: (index) => this.#defer(INTERNAL, index),
    };
    this.#stemJournal = {
      touch: (index) => this.#touchStem(index),
      allocated: (index) => this.#allocated(STEM, this.#stemStamps, index),
      deferRelease: (index) => this.#defer(STEM, index),
    };
    this.#hashedJournal = {
      // Placeholders never change after alloc: nothing to save.
      touch: () => {},
      allocated: (index) => this.#allocs[HASHED]!.push(index),
      deferRelease: (index) => this.#defer(HASHED, index),
    };
    this.#heapJournal = {
      allocated: (address, sizeClass) => {
        const log = this.#allocs[HEAP]!;
        log.push(address);
        log.push(sizeClass);
      },
      deferRelease: (address, sizeClass) => {
        const log = this.#deferred[HEAP]!;
        log.push(address);
        log.push(sizeClass);
        return true;
      },
    };
  }

  /** Open checkpoint levels. */
  get depth(): number {
    return this.#levels.length;
  }

  open(): void {
    const arena = this.#arena;
    if (this.#levels.length === 0) this.#attach();
    this.#epoch = this.#nextEpoch++;
    this.#levels.push({
      epoch: this.#epoch,
      internalRecords: this.#internalRecords.length,
      stemRecords: this.#stemRecords.length,
      valueBytes: this.#valueLength,
      allocs: this.#allocs.map((log) => log.length),
      deferred: this.#deferred.map((log) => log.length),
      root: arena.root,
      // By value: commits consume orphans in place (O(orphans), and orphans wait for one commit).
      orphans: arena.orphans.slice(),
    });
  }

  /** Undoes every change since the matching `open()`. */
  revert(): void {
    const level = this.#pop("revertCheckpoint");
    const { internals, stems, hashed } = this.#arena;
    const heap = stems.values;
    const ir = this.#internalRecords;
    for (let at = ir.length - INTERNAL_ENTRY; at >= level.internalRecords; at -= INTERNAL_ENTRY) {
      internals.writeRecord(ir.data[at]!, ir.data, at + 1);
    }
    ir.length = level.internalRecords;
    const sr = this.#stemRecords;
    for (let at = sr.length - STEM_ENTRY; at >= level.stemRecords; at -= STEM_ENTRY) {
      const index = sr.data[at]!;
      stems.writeRecord(index, sr.data, at + 1);
      stems.restoreValues(index, this.#valueBytes, sr.data[at + 1 + STEM_RECORD_WORDS]!);
    }
    sr.length = level.stemRecords;
    this.#valueLength = level.valueBytes;
    // Nodes and blocks made since the level opened go back to the free lists as they are.
    const allocs = this.#allocs;
    drain(allocs[INTERNAL]!, level.allocs[INTERNAL]!, (index) => internals.freeSlot(index));
    drain(allocs[STEM]!, level.allocs[STEM]!, (index) => stems.freeSlot(index));
    drain(allocs[HASHED]!, level.allocs[HASHED]!, (index) => hashed.freeSlot(index));
    const heapAllocs = allocs[HEAP]!;
    for (let at = heapAllocs.length - 2; at >= level.allocs[HEAP]!; at -= 2) {
      heap.freeBlock(heapAllocs.data[at]!, heapAllocs.data[at + 1]!);
    }
    heapAllocs.length = level.allocs[HEAP]!;
    // Frees since the level opened never happened: those nodes are live again.
    for (let k = 0; k < this.#deferred.length; k++) this.#deferred[k]!.length = level.deferred[k]!;
    // Content changed: an in-flight persist must not take its snapshot for the tree.
    this.#arena.mutations++;
    this.#arena.staleLog.invalidate();
    this.#arena.root = level.root;
    this.#arena.orphans = level.orphans;
    this.#closeLevel();
  }

  /** Keeps the changes since the matching `open()`; they now belong to the enclosing level. */
  commit(): void {
    this.#pop("commitCheckpoint");
    this.#closeLevel();
  }

  /**
   * Frees, in `target` (a copy's arena, made while levels are open), the nodes and blocks whose
   * frees this journal is holding back: in the copy nothing can be reverted.
   */
  applyDeferredTo(target: Arena): void {
    forEach(this.#deferred[INTERNAL]!, (index) => target.internals.release(index));
    forEach(this.#deferred[STEM]!, (index) => target.stems.release(index));
    forEach(this.#deferred[HASHED]!, (index) => target.hashed.release(index));
    const heapLog = this.#deferred[HEAP]!;
    for (let at = 0; at < heapLog.length; at += 2) {
      target.stems.values.release(heapLog.data[at]!, heapLog.data[at + 1]!);
    }
  }

  #pop(operation: string): Level {
    const level = this.#levels.pop();
    if (level === undefined) {
      throw new TreeError(
        "NO_CHECKPOINT",
        `${operation}: no checkpoint is open (call checkpoint() first)`,
      );
    }
    return level;
  }

  #closeLevel(): void {
    const outer = this.#levels[this.#levels.length - 1];
    if (outer !== undefined) {
      this.#epoch = outer.epoch;
      return;
    }
    // The outermost level closed: nothing can be reverted any more.
    this.#detach();
    const { internals, stems, hashed } = this.#arena;
    forEach(this.#deferred[INTERNAL]!, (index) => internals.release(index));
    forEach(this.#deferred[STEM]!, (index) => stems.release(index));
    forEach(this.#deferred[HASHED]!, (index) => hashed.release(index));
    const heapLog = this.#deferred[HEAP]!;
    for (let at = 0; at < heapLog.length; at += 2) {
      stems.values.release(heapLog.data[at]!, heapLog.data[at + 1]!);
    }
    for (const log of this.#deferred) log.clear();
    for (const log of this.#allocs) log.clear();
    this.#internalRecords.clear();
    this.#stemRecords.clear();
    this.#valueLength = 0;
    this.#epoch = 0;
  }

  #attach(): void {
    const { internals, stems, hashed } = this.#arena;
    internals.journal = this.#internalJournal;
    stems.journal = this.#stemJournal;
    hashed.journal = this.#hashedJournal;
    stems.values.journal = this.#heapJournal;
  }

  #detach(): void {
    const { internals, stems, hashed } = this.#arena;
    internals.journal = undefined;
    stems.journal = undefined;
    hashed.journal = undefined;
    stems.values.journal = undefined;
  }

  /** True the first time `index` is seen in the current level (and stamps it). */
  #firstTouch(stamps: Uint32Array[], index: number): boolean {
    const c = index >>> CHUNK_BITS;
    let chunk = stamps[c];
    if (chunk === undefined) {
      while (stamps.length <= c) stamps.push(undefined as unknown as Uint32Array);
      chunk = new Uint32Array(CHUNK_SIZE);
      stamps[c] = chunk;
    }
    const i = index & CHUNK_MASK;
    if (chunk[i] === this.#epoch) return false;
    chunk[i] = this.#epoch;
    return true;
  }

  #touchInternal(index: number): void {
    if (!this.#firstTouch(this.#internalStamps, index)) return;
    const log = this.#internalRecords;
    log.ensureCapacity(log.length + INTERNAL_ENTRY);
    log.data[log.length] = index;
    this.#arena.internals.readRecord(index, log.data, log.length + 1);
    log.length += INTERNAL_ENTRY;
  }

  #touchStem(index: number): void {
    if (!this.#firstTouch(this.#stemStamps, index)) return;
    const stems = this.#arena.stems;
    const log = this.#stemRecords;
    log.ensureCapacity(log.length + STEM_ENTRY);
    log.data[log.length] = index;
    stems.readRecord(index, log.data, log.length + 1);
    log.data[log.length + 1 + STEM_RECORD_WORDS] = this.#valueLength;
    log.length += STEM_ENTRY;
    const need = this.#valueLength + stems.getCount(index) * 33;
    if (need > this.#valueBytes.length) {
      const grown = new Uint8Array(Math.max(need, this.#valueBytes.length * 2));
      grown.set(this.#valueBytes.subarray(0, this.#valueLength));
      this.#valueBytes = grown;
    }
    this.#valueLength += stems.saveValues(index, this.#valueBytes, this.#valueLength);
  }

  #allocated(pool: number, stamps: Uint32Array[], index: number): void {
    // A node made in this level needs no saved record: a revert frees it.
    this.#firstTouch(stamps, index);
    this.#allocs[pool]!.push(index);
  }

  #defer(pool: number, index: number): boolean {
    this.#deferred[pool]!.push(index);
    return true;
  }
}

function drain(log: U32Stack, keep: number, free: (index: number) => void): void {
  for (let at = log.length - 1; at >= keep; at--) free(log.data[at]!);
  log.length = keep;
}

function forEach(log: U32Stack, fn: (index: number) => void): void {
  for (let at = 0; at < log.length; at++) fn(log.data[at]!);
}
