import type { InternalPool } from "./internal-pool.js";
import { FLAG_GROUP_CACHED } from "./node-ref.js";
import { U32Stack } from "./u32-stack.js";

/**
 * Groups with at least this many entries are kept: a sparse group is cheap to gather, a full
 * one (2^g entries, 2^g - 1 inner nodes) is not.
 */
export const CACHED_GROUP_MIN_ENTRIES = 8;

/** Slots are carved from 256 KiB pages in 64-byte granules (never straddling a page). */
const PAGE_BYTES = 1 << 18;
const GRANULE_BITS = 6;
const GRANULES_PER_PAGE = PAGE_BYTES >>> GRANULE_BITS;
const PAGE_SHIFT = 12; // log2(GRANULES_PER_PAGE)
const GRANULE_MASK = GRANULES_PER_PAGE - 1;
/**
 * Slot: owner index (u32), entry count (u16), blob size (u16), slot granules (u16), group depth
 * g (u8), a pad byte; then `offsetOf` and `rankOf` (2^g bytes each: per bitmap position, the
 * entry's depth offset, 0 = no entry, and its index among the entries); then 0..3 bytes of
 * padding and the blob, placed so that it ends on a word: its hashes, which end it, are words
 * the collector patches with word copies.
 */
const HEADER_BYTES = 12;
/** Owner word of a released slot (internal indexes stay below 2^30). */
const NO_OWNER = 0xffffffff;

/**
 * The last group blob written for each group root with many entries, so the next commit of that
 * group copies it and patches only the hashes of the entries under written paths, instead of
 * walking all 2^g - 1 inner nodes and reading 2^g child hashes scattered over the arena (on a
 * large tree nearly every one of those reads is a cache miss).
 *
 * Filled by the commit collector (`reserve`, then it encodes the blob in place) and by the
 * node loader with stored blobs (`keep`); read through `slotFor`, whose ownership rule (a node
 * flag) makes an entry trustworthy.
 */
export class GroupBlobCache {
  readonly #pages: Uint8Array[] = [];
  readonly #pages32: Uint32Array[] = [];
  readonly #pages16: Uint16Array[] = [];
  /** Per internal node index: its slot's granule address + 1 (0 = none). */
  #slotOf = new Uint32Array(1024);
  /** Free slots per size in granules. */
  readonly #free: U32Stack[] = [];
  #bump = 0;
  #liveBytes = 0;

  /** Bytes held by the slots in use. */
  get bytes(): number {
    return this.#liveBytes;
  }

  /** Forgets every entry (the pages are kept for reuse). */
  clear(): void {
    this.#slotOf.fill(0);
    this.#free.length = 0;
    this.#bump = 0;
    this.#liveBytes = 0;
  }

  /**
   * The slot of node `index`'s blob, or -1: only a node carrying FLAG_GROUP_CACHED (set by
   * `keep`, absent on every freshly allocated node) owns an entry, so an entry left by an
   * earlier occupant of the index, or one of the tree a copy was made from, is never used.
   */
  slotFor(internals: InternalPool, index: number): number {
    if ((internals.getFlags(index) & FLAG_GROUP_CACHED) === 0) return -1;
    return this.#find(index);
  }

  /**
   * Keeps node `index`'s group blob, source[start, start+size) with its `count` entries
   * (positions and depth offsets), when it has at least CACHED_GROUP_MIN_ENTRIES, and marks the
   * node as its owner; a smaller group's entry is dropped. Not a change of the tree: the flag
   * only says whose entry it is. (The loader's way in: a blob read from the store.)
   */
  keep(
    internals: InternalPool,
    index: number,
    groupDepth: number,
    count: number,
    positions: ArrayLike<number>,
    depthOffsets: ArrayLike<number>,
    source: Uint8Array,
    start: number,
    size: number,
  ): void {
    if (count < CACHED_GROUP_MIN_ENTRIES) {
      this.forget(index);
      return;
    }
    const slot = this.reserve(internals, index, groupDepth, count, positions, depthOffsets, size);
    this.#pages[slot >>> PAGE_SHIFT]!.set(
      source.subarray(start, start + size),
      this.blobOffset(slot),
    );
  }

  /**
   * Makes node `index` the owner of a slot for a group of `count` (at least
   * CACHED_GROUP_MIN_ENTRIES) entries and a `size`-byte blob, with the entries' positions and
   * depth offsets; the caller writes the blob at `blobOffset` (the commit collector's way in: it
   * encodes the blob there, then patches the hashes of the entries it has to visit). Returns the
   * slot.
   */
  reserve(
    internals: InternalPool,
    index: number,
    groupDepth: number,
    count: number,
    positions: ArrayLike<number>,
    depthOffsets: ArrayLike<number>,
    size: number,
  ): number {
    const slot = this.#store(index, groupDepth, count, positions, depthOffsets, size);
    internals.addFlags(index, FLAG_GROUP_CACHED);
    return slot;
  }

  /** Node `index`'s slot word (a read that brings its line into cache ahead of `slotFor`). */
  slotWord(index: number): number {
    return index < this.#slotOf.length ? this.#slotOf[index]! : 0;
  }

  /** Drops the entry of node `index`, if any. */
  forget(index: number): void {
    const slot = this.#find(index);
    if (slot < 0) return;
    this.#release(slot, this.#granulesOf(slot));
    this.#slotOf[index] = 0;
  }

  #find(index: number): number {
    if (index >= this.#slotOf.length) return -1;
    const slot = this.#slotOf[index]! - 1;
    if (slot < 0) return -1;
    const owner =
      this.#pages32[slot >>> PAGE_SHIFT]![((slot & GRANULE_MASK) << GRANULE_BITS) >>> 2];
    return owner === index ? slot : -1;
  }

  /**
   * Gives node `index` a slot for its group: `count` entries (positions and depth offsets) and
   * room for a `size`-byte blob. Returns the slot.
   */
  #store(
    index: number,
    groupDepth: number,
    count: number,
    positions: ArrayLike<number>,
    depthOffsets: ArrayLike<number>,
    size: number,
  ): number {
    const width = 1 << groupDepth;
    const granules = (HEADER_BYTES + 2 * width + size + 3 + 63) >>> GRANULE_BITS;
    let slot = this.#find(index);
    if (slot >= 0 && this.#granulesOf(slot) !== granules) {
      this.#release(slot, this.#granulesOf(slot));
      slot = -1;
    }
    if (slot < 0) {
      slot = this.#alloc(granules);
      if (index >= this.#slotOf.length) {
        let length = this.#slotOf.length * 2;
        while (length <= index) length *= 2;
        const grown = new Uint32Array(length);
        grown.set(this.#slotOf);
        this.#slotOf = grown;
      }
      this.#slotOf[index] = slot + 1;
    }
    const page = this.#pages[slot >>> PAGE_SHIFT]!;
    const at = (slot & GRANULE_MASK) << GRANULE_BITS;
    this.#pages32[slot >>> PAGE_SHIFT]![at >>> 2] = index;
    const page16 = this.#pages16[slot >>> PAGE_SHIFT]!;
    page16[(at >>> 1) + 2] = count;
    page16[(at >>> 1) + 3] = size;
    page16[(at >>> 1) + 4] = granules;
    page[at + 10] = groupDepth;
    const table = at + HEADER_BYTES;
    page.fill(0, table, table + 2 * width);
    for (let k = 0; k < count; k++) {
      page[table + positions[k]!] = depthOffsets[k]!;
      page[table + width + positions[k]!] = k;
    }
    return slot;
  }

  /** The page holding `slot`. */
  page(slot: number): Uint8Array {
    return this.#pages[slot >>> PAGE_SHIFT]!;
  }

  /** Offset in its page of the slot's `offsetOf` table (one byte per bitmap position). */
  tableOffset(slot: number): number {
    return ((slot & GRANULE_MASK) << GRANULE_BITS) + HEADER_BYTES;
  }

  /** The page holding `slot`, as words. */
  page32(slot: number): Uint32Array {
    return this.#pages32[slot >>> PAGE_SHIFT]!;
  }

  /** Offset in its page of the slot's blob. */
  blobOffset(slot: number): number {
    const at = (slot & GRANULE_MASK) << GRANULE_BITS;
    const tables = 2 << this.#pages[slot >>> PAGE_SHIFT]![at + 10]!;
    return at + HEADER_BYTES + tables + (-this.blobSize(slot) & 3);
  }

  /** Offset in its page of the slot's `rankOf` table (one byte per bitmap position). */
  rankOffset(slot: number): number {
    const at = (slot & GRANULE_MASK) << GRANULE_BITS;
    return at + HEADER_BYTES + (1 << this.#pages[slot >>> PAGE_SHIFT]![at + 10]!);
  }

  /** Offset in its page of the blob's first hash: the K hashes end the blob, in entry order. */
  hashesOffset(slot: number): number {
    return this.blobOffset(slot) + this.blobSize(slot) - (this.count(slot) << 5);
  }

  /** Entry count of the stored group. */
  count(slot: number): number {
    return this.#pages16[slot >>> PAGE_SHIFT]![
      (((slot & GRANULE_MASK) << GRANULE_BITS) >>> 1) + 2
    ]!;
  }

  /** Blob size of the stored group. */
  blobSize(slot: number): number {
    return this.#pages16[slot >>> PAGE_SHIFT]![
      (((slot & GRANULE_MASK) << GRANULE_BITS) >>> 1) + 3
    ]!;
  }

  #granulesOf(slot: number): number {
    return this.#pages16[slot >>> PAGE_SHIFT]![
      (((slot & GRANULE_MASK) << GRANULE_BITS) >>> 1) + 4
    ]!;
  }

  #alloc(granules: number): number {
    const free = this.#free[granules];
    this.#liveBytes += granules << GRANULE_BITS;
    if (free !== undefined && free.length > 0) return free.pop();
    let slot = this.#bump;
    if ((slot & GRANULE_MASK) + granules > GRANULES_PER_PAGE) {
      slot = (slot + GRANULES_PER_PAGE - 1) & ~GRANULE_MASK;
    }
    while (this.#pages.length <= slot >>> PAGE_SHIFT) {
      const page = new Uint8Array(PAGE_BYTES);
      this.#pages.push(page);
      this.#pages32.push(new Uint32Array(page.buffer));
      this.#pages16.push(new Uint16Array(page.buffer));
    }
    this.#bump = slot + granules;
    return slot;
  }

  #release(slot: number, granules: number): void {
    this.#liveBytes -= granules << GRANULE_BITS;
    // The owner word goes: a stale slot id can never match a node again.
    this.#pages32[slot >>> PAGE_SHIFT]![((slot & GRANULE_MASK) << GRANULE_BITS) >>> 2] = NO_OWNER;
    let free = this.#free[granules];
    if (free === undefined) {
      free = new U32Stack(16);
      this.#free[granules] = free;
    }
    free.push(slot);
  }
}
