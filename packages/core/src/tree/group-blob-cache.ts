import { U32Stack } from "./u32-stack.js";

/** Slots are carved from 256 KiB pages in 64-byte granules (never straddling a page). */
const PAGE_BYTES = 1 << 18;
const GRANULE_BITS = 6;
const GRANULES_PER_PAGE = PAGE_BYTES >>> GRANULE_BITS;
const PAGE_SHIFT = 12; // log2(GRANULES_PER_PAGE)
const GRANULE_MASK = GRANULES_PER_PAGE - 1;
/** Slot header: owner index (u32), entry count (u16), blob size (u16), slot granules (u16). */
const HEADER_BYTES = 10;
/** Owner word of a slot that belongs to no node (internal indexes stay below 2^30). */
const NO_OWNER = 0xffffffff;

/**
 * The last group blob written for each group root with many entries, so the next commit of that
 * group copies it and patches only the hashes of the entries under written paths, instead of
 * walking all 2^g - 1 inner nodes and reading 2^g child hashes scattered over the arena (on a
 * large tree nearly every one of those reads is a cache miss).
 *
 * A slot holds `offsetOf` (one byte per bitmap position: the entry's depth offset, 0 = no entry)
 * and the blob itself. Whether an entry may be trusted is the collector's business (a node flag
 * set when the entry is stored; see CommitCollector): this class only keeps the bytes.
 */
export class GroupBlobCache {
  readonly #pages: Uint8Array[] = [];
  readonly #pages32: Uint32Array[] = [];
  readonly #pages16: Uint16Array[] = [];
  /** Per internal node index: its slot's granule address (0 = none: slot 0 is owned by no node). */
  #slotOf = new Uint32Array(1024);
  /** Free slots per size in granules. */
  readonly #free: U32Stack[] = [];
  #bump = 0;
  #liveBytes = 0;

  constructor() {
    this.#reserveNone();
  }

  /** Bytes held by the slots in use. */
  get bytes(): number {
    return this.#liveBytes;
  }

  /** Forgets every entry (the pages are kept for reuse). */
  clear(): void {
    this.#slotOf.fill(0);
    this.#free.length = 0;
    this.#bump = 0;
    this.#reserveNone();
  }

  /** The slot (granule address) stored for node `index`, or -1. */
  find(index: number): number {
    // No entry reads slot 0's owner word: the same path whatever the answer (a first hit
    // after many misses then finds the code optimized for it).
    const slot = index < this.#slotOf.length ? this.#slotOf[index]! : 0;
    return this.#pages32[slot >>> PAGE_SHIFT]![((slot & GRANULE_MASK) << GRANULE_BITS) >>> 2] ===
      index
      ? slot
      : -1;
  }

  /** Drops the entry of node `index`, if any. */
  forget(index: number): void {
    const slot = this.find(index);
    if (slot < 0) return;
    this.#release(slot, this.#granulesOf(slot));
    this.#slotOf[index] = 0;
  }

  /** Slot 0: one granule whose owner word matches no node. */
  #reserveNone(): void {
    this.#alloc(1);
    this.#pages32[0]![0] = NO_OWNER;
    this.#liveBytes = 0;
  }

  /**
   * Stores node `index`'s group: `count` entries (positions and depth offsets) and the blob
   * bytes source[start, start+size). Returns the slot.
   */
  store(
    index: number,
    groupDepth: number,
    count: number,
    positions: Uint16Array,
    depthOffsets: Uint8Array,
    source: Uint8Array,
    start: number,
    size: number,
  ): number {
    const width = 1 << groupDepth;
    const granules = (HEADER_BYTES + width + size + 63) >>> GRANULE_BITS;
    let slot = this.find(index);
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
      this.#slotOf[index] = slot;
    }
    const page = this.#pages[slot >>> PAGE_SHIFT]!;
    const at = (slot & GRANULE_MASK) << GRANULE_BITS;
    this.#pages32[slot >>> PAGE_SHIFT]![at >>> 2] = index;
    const page16 = this.#pages16[slot >>> PAGE_SHIFT]!;
    page16[(at >>> 1) + 2] = count;
    page16[(at >>> 1) + 3] = size;
    page16[(at >>> 1) + 4] = granules;
    const table = at + HEADER_BYTES;
    page.fill(0, table, table + width);
    for (let k = 0; k < count; k++) page[table + positions[k]!] = depthOffsets[k]!;
    page.set(source.subarray(start, start + size), table + width);
    return slot;
  }

  /** The page holding `slot`. */
  page(slot: number): Uint8Array {
    return this.#pages[slot >>> PAGE_SHIFT]!;
  }

  /** Offset in its page of the slot's `offsetOf` table (2^g bytes; the blob follows it). */
  tableOffset(slot: number): number {
    return ((slot & GRANULE_MASK) << GRANULE_BITS) + HEADER_BYTES;
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
