import type { HeapJournal } from "./pool-journal.js";
import { SharedChunks } from "./shared-chunks.js";
import { type SlabRecycler, wordsOf } from "./slab-recycler.js";
import { TreeError } from "./tree-error.js";
import { U32Stack } from "./u32-stack.js";

/**
 * Storage for stem values: blocks of 2^k 32-byte slots (k = 0..8) carved from 256 KiB pages.
 * A stem holds exactly its present values, packed in subindex order, so a one-value stem costs
 * 32 bytes here instead of 256 slots. Freed blocks go to per-size free lists.
 */
/** Slot address a sits in page a >>> PAGE_BITS at slot a & PAGE_MASK (StemPool's write path reads them inline). */
export const PAGE_BITS = 13;
const PAGE_SLOTS = 1 << PAGE_BITS;
export const PAGE_MASK = PAGE_SLOTS - 1;
export const MAX_BLOCK_CLASS = 8;
const MAX_SLOT_ADDRESS = 0xffffffff;

export class ValueHeap {
  readonly pages: Uint8Array[] = [];
  /** Word views of `pages` (8 words per slot). */
  readonly pages32: Uint32Array[] = [];
  /** One byte per slot: the subindex of the value stored in that slot. */
  readonly subs: Uint8Array[] = [];
  #bump = 0;
  #liveSlots = 0;
  #free: U32Stack[] = [];
  /** Blocks on all free lists: while 0 (a heap only growing, as in a bulk build) alloc bumps. */
  #freeBlocks = 0;
  /** Set while a checkpoint is open (see PoolJournal). */
  journal: HeapJournal | undefined = undefined;
  /** Per page, 1 while the page is shared with a copy of the tree (cloned on first write). */
  #shared: SharedChunks | undefined = undefined;
  /** Set during a bulk build: new pages come from there first. */
  #recycler: SlabRecycler | undefined = undefined;

  constructor() {
    for (let k = 0; k <= MAX_BLOCK_CLASS; k++) this.#free.push(new U32Stack(16));
  }

  get bytes(): number {
    return this.pages.length * PAGE_SLOTS * 33;
  }

  /** Slots in allocated blocks (33 bytes each: the value and its subindex byte). */
  get liveSlots(): number {
    return this.#liveSlots;
  }

  /**
   * Allocates a block of 2^sizeClass slots; returns its slot address. A free block of the size
   * is reused first, then a larger free block is split (so memory freed by evicting big stems
   * serves small ones instead of the heap growing), and only then the heap grows.
   */
  alloc(sizeClass: number): number {
    const address = this.#take(sizeClass);
    if (this.journal !== undefined) this.journal.allocated(address, sizeClass);
    return address;
  }

  #take(sizeClass: number): number {
    const size = 1 << sizeClass;
    for (let larger = sizeClass; this.#freeBlocks > 0 && larger <= MAX_BLOCK_CLASS; larger++) {
      const list = this.#free[larger]!;
      if (list.length === 0) continue;
      const address = list.pop();
      // Keep the first half-block at each level down; the tail halves go to the free lists.
      for (let k = larger - 1; k >= sizeClass; k--) this.#free[k]!.push(address + (1 << k));
      this.#freeBlocks += larger - sizeClass - 1;
      this.#liveSlots += size;
      return address;
    }
    let address = this.#bump;
    // Blocks never straddle pages: skip the page's tail when the block does not fit.
    if ((address & PAGE_MASK) + size > PAGE_SLOTS) address = (address + PAGE_MASK) & ~PAGE_MASK;
    address >>>= 0;
    if (address + size > MAX_SLOT_ADDRESS) {
      throw new TreeError("POOL_EXHAUSTED", "value heap is full (2^32 slots)");
    }
    const page = address >>> PAGE_BITS;
    while (this.pages.length <= page) {
      const recycler = this.#recycler;
      // A block's values and subindices are written when it is allocated.
      const bytes = recycler?.take(PAGE_SLOTS * 32, false) ?? new Uint8Array(PAGE_SLOTS * 32);
      this.pages.push(bytes);
      this.pages32.push(wordsOf(bytes));
      this.subs.push(recycler?.take(PAGE_SLOTS, false) ?? new Uint8Array(PAGE_SLOTS));
    }
    this.#bump = address + size;
    this.#liveSlots += size;
    return address;
  }

  /** Takes new pages from `recycler` while it lasts (undefined: stop). */
  recycleFrom(recycler: SlabRecycler | undefined): void {
    this.#recycler = recycler;
  }

  release(address: number, sizeClass: number): void {
    if (this.journal?.deferRelease(address, sizeClass)) return;
    this.freeBlock(address, sizeClass);
  }

  /** Returns a block to its free list as is (also: checkpoint journals). */
  freeBlock(address: number, sizeClass: number): void {
    this.#liveSlots -= 1 << sizeClass;
    this.#free[sizeClass]!.push(address);
    this.#freeBlocks++;
  }

  /** The page of slot `address`, made private to this heap first (for writing). */
  writablePage(address: number): Uint8Array {
    if (this.#shared !== undefined) this.#own(address >>> PAGE_BITS);
    return this.pages[address >>> PAGE_BITS]!;
  }

  /** The subindex page of slot `address`, made private to this heap first (for writing). */
  writableSubsPage(address: number): Uint8Array {
    if (this.#shared !== undefined) this.#own(address >>> PAGE_BITS);
    return this.subs[address >>> PAGE_BITS]!;
  }

  /** A heap with the same blocks, sharing every page until either side writes to it. */
  twin(): ValueHeap {
    const twin = new ValueHeap();
    twin.pages.push(...this.pages);
    twin.pages32.push(...this.pages32);
    twin.subs.push(...this.subs);
    twin.#bump = this.#bump;
    twin.#liveSlots = this.#liveSlots;
    twin.#free = this.#free.map((stack) => stack.copy());
    twin.#freeBlocks = this.#freeBlocks;
    [this.#shared, twin.#shared] = SharedChunks.pair(this.pages.length);
    return twin;
  }

  #own(p: number): void {
    if (!this.#shared!.claim(p)) return;
    const bytes = this.pages[p]!.slice();
    this.pages[p] = bytes;
    this.pages32[p] = new Uint32Array(bytes.buffer);
    this.subs[p] = this.subs[p]!.slice();
  }

  page(address: number): Uint8Array {
    return this.pages[address >>> PAGE_BITS]!;
  }

  /** The subindex page of slot `address`; its slot sits at `slot(address)`. */
  subsPage(address: number): Uint8Array {
    return this.subs[address >>> PAGE_BITS]!;
  }

  slot(address: number): number {
    return address & PAGE_MASK;
  }

  page32(address: number): Uint32Array {
    return this.pages32[address >>> PAGE_BITS]!;
  }

  /** Byte offset of slot `address` inside its page. */
  offset(address: number): number {
    return (address & PAGE_MASK) << 5;
  }
}
