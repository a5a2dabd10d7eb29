import { copy8 } from "../hash/word-copy.js";
import { FLAG_HASH_STALE, FLAGS_STALE, KIND_STEM, MAX_POOL_INDEX } from "./node-ref.js";
import { assertPoolIndex, CHUNK_BITS, CHUNK_MASK, CHUNK_SIZE } from "./pool-chunks.js";
import type { PoolJournal } from "./pool-journal.js";
import { SharedChunks } from "./shared-chunks.js";
import { type SlabRecycler, wordsOf } from "./slab-recycler.js";
import { U32Stack } from "./u32-stack.js";
import { MAX_BLOCK_CLASS, PAGE_BITS, PAGE_MASK, ValueHeap } from "./value-heap.js";

/** Block class of a stem without values (classes are 0..8; 4 bits in the meta word). */
const NO_BLOCK = 15;
/** Words of one stem's record as a checkpoint journal saves it (values are saved apart). */
export const STEM_RECORD_WORDS = 8 + 8 + 5;

/** Bytes per stem node outside the value heap: stem, hash, and two words (block; depth, flags, class, count). */
export const STEM_NODE_BYTES = 32 + 32 + 8;

/**
 * Stem nodes in chunks: the 31-byte stem (in a 32-byte slot), the cached hash, and two words
 * side by side (one cache line for a write's bookkeeping) holding depth, flags, and a block in
 * the value heap holding exactly the present values in
 * subindex order, each with its subindex byte beside it (a sorted list, searched by bisection):
 * a one-value stem costs 32 + 1 bytes of values instead of a 32-byte bitmap plus 256 slots.
 */
export class StemPool {
  readonly stem: Uint8Array[] = [];
  readonly hash: Uint8Array[] = [];
  /** Word views of `stem` and `hash` (8 words per node; a stem slot's byte 31 is always 0). */
  readonly stem32: Uint32Array[] = [];
  readonly hash32: Uint32Array[] = [];
  /**
   * Two words per stem, side by side so one cache line serves a write: the value block's slot
   * address, then depth | flags << 8 | block class << 16 | value count << 20.
   */
  readonly meta: Uint32Array[] = [];
  values = new ValueHeap();
  #next = 0;
  readonly #limit: number;
  #free = new U32Stack();
  /** Set while a checkpoint is open: told about every slot change (see PoolJournal). */
  journal: PoolJournal | undefined = undefined;
  /** Per chunk, 1 while the chunk is shared with a copy of the tree (cloned on first write). */
  #shared: SharedChunks | undefined = undefined;
  /** Set during a bulk build: new chunks (and value pages) come from there first. */
  #recycler: SlabRecycler | undefined = undefined;

  /** `limit`: the largest index handed out (tests lower it to reach exhaustion). */
  constructor(limit: number = MAX_POOL_INDEX) {
    this.#limit = limit;
  }

  get live(): number {
    return this.#next - this.#free.length;
  }

  get bytes(): number {
    return this.stem.length * CHUNK_SIZE * STEM_NODE_BYTES + this.values.bytes;
  }

  /** How many more nodes `alloc` can hand out before the pool is full. */
  get room(): number {
    return this.#limit - this.#next + 1 + this.#free.length;
  }

  /** Allocates an empty stem node for the 31 bytes at source[offset]. */
  alloc(source: Uint8Array, offset: number, depth: number, flags: number): number {
    const index = this.#take();
    const c = index >>> CHUNK_BITS;
    const i = index & CHUNK_MASK;
    const stem = this.stem[c]!;
    const at = i << 5;
    for (let k = 0; k < 31; k++) stem[at + k] = source[offset + k]!;
    stem[at + 31] = 0;
    const meta = this.meta[c]!;
    meta[i << 1] = 0;
    meta[(i << 1) + 1] = depth | (flags << 8) | (NO_BLOCK << 16);
    return index;
  }

  /**
   * The bulk builder's step for a stem written once: allocates the stem of the 64-byte entry
   * key ‖ value at words[at..at + 16) (a Uint32 view of the entries) holding that one value at
   * `subindex` (the key's last byte). Word copies: what `alloc` then `setValue` do, in one go.
   */
  allocWithValue(
    words: Uint32Array,
    at: number,
    subindex: number,
    depth: number,
    flags: number,
  ): number {
    const index = this.#take();
    const c = index >>> CHUNK_BITS;
    const i = index & CHUNK_MASK;
    const stem = this.stem32[c]!;
    const to = i << 3;
    copy8(words, at, stem, to);
    // Byte 31 of a stem slot is always 0 (the word copy brought the subindex along).
    this.stem[c]![(i << 5) + 31] = 0;
    const heap = this.values;
    const address = heap.alloc(0);
    heap.writablePage(address);
    const page = heap.page32(address);
    const value = heap.offset(address) >>> 2;
    copy8(words, at + 8, page, value);
    heap.writableSubsPage(address)[heap.slot(address)] = subindex;
    const meta = this.meta[c]!;
    meta[i << 1] = address;
    meta[(i << 1) + 1] = depth | (flags << 8) | (0 << 16) | (1 << 20);
    return index;
  }

  /** A free slot (or a new one), owned by this pool and journaled. */
  #take(): number {
    let index: number;
    if (this.#free.length > 0) {
      index = this.#free.pop();
    } else {
      // Checked before the counter moves, so a full pool stays exactly as it was.
      assertPoolIndex("stem", this.#next, this.#limit);
      index = this.#next++;
      if ((index & CHUNK_MASK) === 0) this.#addChunk();
    }
    if (this.#shared !== undefined) this.#own(index >>> CHUNK_BITS);
    if (this.journal !== undefined) this.journal.allocated(index);
    return index;
  }

  release(index: number): void {
    if (this.journal?.deferRelease(index)) return;
    if (this.#shared !== undefined) this.#own(index >>> CHUNK_BITS);
    const c = index >>> CHUNK_BITS;
    const i = index & CHUNK_MASK;
    const cls = (this.#info(c, i) >>> 16) & 0xf;
    if (cls !== NO_BLOCK) this.values.release(this.#block(c, i), cls);
    this.#setField(c, i, 0xf0000, 16, NO_BLOCK);
    this.#free.push(index);
  }

  stemChunk(index: number): Uint8Array {
    return this.stem[index >>> CHUNK_BITS]!;
  }

  stemOffset(index: number): number {
    return (index & CHUNK_MASK) << 5;
  }

  hashChunk(index: number): Uint8Array {
    return this.hash[index >>> CHUNK_BITS]!;
  }

  hashOffset(index: number): number {
    return (index & CHUNK_MASK) << 5;
  }

  getDepth(index: number): number {
    return this.#info(index >>> CHUNK_BITS, index & CHUNK_MASK) & 0xff;
  }

  setDepth(index: number, depth: number): void {
    this.#prepare(index);
    this.#setField(index >>> CHUNK_BITS, index & CHUNK_MASK, 0xff, 0, depth);
  }

  getFlags(index: number): number {
    return (this.#info(index >>> CHUNK_BITS, index & CHUNK_MASK) >>> 8) & 0xff;
  }

  setFlags(index: number, flags: number): void {
    this.#prepare(index);
    this.#setField(index >>> CHUNK_BITS, index & CHUNK_MASK, 0xff00, 8, flags);
  }

  addFlags(index: number, flags: number): void {
    this.#prepare(index);
    this.#setInfo(
      index >>> CHUNK_BITS,
      index & CHUNK_MASK,
      this.#info(index >>> CHUNK_BITS, index & CHUNK_MASK) | (flags << 8),
    );
  }

  clearFlags(index: number, flags: number): void {
    this.#prepare(index);
    this.#keepInfoBits(index, ~(flags << 8));
  }

  /** clearFlags of the stems list[0..count), in one call (a hashing window's stems). */
  clearFlagsOf(list: Uint32Array, count: number, flags: number): void {
    const prepare = this.#prepares;
    const keep = ~(flags << 8);
    for (let k = 0; k < count; k++) {
      const index = list[k]!;
      if (prepare) this.#prepare(index);
      this.#keepInfoBits(index, keep);
    }
  }

  #keepInfoBits(index: number, keep: number): void {
    const c = index >>> CHUNK_BITS;
    const i = index & CHUNK_MASK;
    this.#setInfo(c, i, this.#info(c, i) & keep);
  }

  getCount(index: number): number {
    return (this.#info(index >>> CHUNK_BITS, index & CHUNK_MASK) >>> 20) & 0x1ff;
  }

  /**
   * `matches` for a key at byte `offset` (a multiple of 4) of the buffer `words` views: seven
   * word compares and three byte compares instead of 31 byte compares.
   */
  matchesWords(index: number, key: Uint8Array, words: Uint32Array, offset: number): boolean {
    const s = this.stem32[index >>> CHUNK_BITS]!;
    const o = (index & CHUNK_MASK) << 3;
    const w = offset >>> 2;
    for (let i = 0; i < 7; i++) if (s[o + i] !== words[w + i]) return false;
    const b = this.stem[index >>> CHUNK_BITS]!;
    const ob = (o << 2) + 28;
    return (
      b[ob] === key[offset + 28] && b[ob + 1] === key[offset + 29] && b[ob + 2] === key[offset + 30]
    );
  }

  /** True when the 31 bytes at key[offset] equal this node's stem. */
  matches(index: number, key: Uint8Array, offset: number): boolean {
    const s = this.stem[index >>> CHUNK_BITS]!;
    const o = (index & CHUNK_MASK) << 5;
    for (let i = 0; i < 31; i++) if (s[o + i] !== key[offset + i]) return false;
    return true;
  }

  has(index: number, subindex: number): boolean {
    const n = (this.#info(index >>> CHUNK_BITS, index & CHUNK_MASK) >>> 20) & 0x1ff;
    if (n === 0) return false;
    const address = this.#block(index >>> CHUNK_BITS, index & CHUNK_MASK);
    const subs = this.values.subsPage(address);
    const base = this.values.slot(address);
    const r = lowerBound(subs, base, n, subindex);
    return r < n && subs[base + r] === subindex;
  }

  /** Number of present values with a subindex below `subindex` = the value's slot in the block. */
  rank(index: number, subindex: number): number {
    const n = (this.#info(index >>> CHUNK_BITS, index & CHUNK_MASK) >>> 20) & 0x1ff;
    if (n === 0) return 0;
    const address = this.#block(index >>> CHUNK_BITS, index & CHUNK_MASK);
    return lowerBound(this.values.subsPage(address), this.values.slot(address), n, subindex);
  }

  /** Byte offset, in `blockPage(index)`, of the value at `subindex` (which must be present). */
  valueOffset(index: number, subindex: number): number {
    const address = this.#block(index >>> CHUNK_BITS, index & CHUNK_MASK);
    return this.values.offset(address) + (this.rank(index, subindex) << 5);
  }

  /** The page holding this stem's values; they are contiguous there in subindex order. */
  blockPage(index: number): Uint8Array {
    return this.values.page(this.#block(index >>> CHUNK_BITS, index & CHUNK_MASK));
  }

  /** Value-heap slot address of this stem's value block (meaningful when count > 0). */
  blockAddress(index: number): number {
    return this.#block(index >>> CHUNK_BITS, index & CHUNK_MASK);
  }

  blockOffset(index: number): number {
    return this.values.offset(this.#block(index >>> CHUNK_BITS, index & CHUNK_MASK));
  }

  /**
   * Writes the 32 bytes at source[offset] as the value at `subindex`. Returns true when the
   * stored content changed (a new slot, or different bytes). `words`, a word view of source's
   * buffer (offset then a multiple of 4), lets an existing value be compared and replaced word
   * by word. Replacing a present value (a block's common write) reads the stem's two meta words
   * and the value heap's arrays inline: the first block after a bulk build runs this before V8
   * has compiled it, where every call costs; adding a value goes out of line.
   */
  setValue(
    index: number,
    subindex: number,
    source: Uint8Array,
    offset: number,
    words?: Uint32Array,
  ): boolean {
    const c = index >>> CHUNK_BITS;
    const i = index & CHUNK_MASK;
    const meta = this.meta[c]!;
    const n = (meta[(i << 1) + 1]! >>> 20) & 0x1ff;
    if (n === 0) return this.#insertValue(index, subindex, source, offset, 0, 0);
    const heap = this.values;
    const address = meta[i << 1]!;
    const slot = address & PAGE_MASK;
    const subs = heap.subs[address >>> PAGE_BITS]!;
    const r = n === 1 ? (subs[slot]! < subindex ? 1 : 0) : lowerBound(subs, slot, n, subindex);
    if (r === n || subs[slot + r] !== subindex) {
      return this.#insertValue(index, subindex, source, offset, n, r);
    }
    if (words !== undefined) {
      const page = heap.pages32[address >>> PAGE_BITS]!;
      const at = (slot + r) << 3;
      const w = offset >>> 2;
      let k = 0;
      while (k < 8 && page[at + k] === words[w + k]) k++;
      if (k === 8) return false;
      if (this.#prepares) this.#prepare(index);
      // Made private first when shared with a copy (the page array may be replaced).
      heap.writablePage(address);
      copy8(words, w, heap.pages32[address >>> PAGE_BITS]!, at);
      return true;
    }
    const page = heap.page(address);
    const at = heap.offset(address) + (r << 5);
    let same = true;
    for (let k = 0; k < 32; k++) {
      if (page[at + k] !== source[offset + k]) {
        same = false;
        break;
      }
    }
    if (same) return false;
    this.#prepare(index);
    const target = heap.writablePage(address);
    for (let k = 0; k < 32; k++) target[at + k] = source[offset + k]!;
    return true;
  }

  /** setValue of an absent subindex: its rank r among the stem's n values; the block grows when full. */
  #insertValue(
    index: number,
    subindex: number,
    source: Uint8Array,
    offset: number,
    n: number,
    r: number,
  ): boolean {
    const c = index >>> CHUNK_BITS;
    const i = index & CHUNK_MASK;
    const heap = this.values;
    const cls = (this.#info(c, i) >>> 16) & 0xf;
    this.#prepare(index);
    const capacity = cls === NO_BLOCK ? 0 : 1 << cls;
    if (n < capacity) {
      const address = this.#block(c, i);
      const page = heap.writablePage(address);
      const base = heap.offset(address);
      page.copyWithin(base + ((r + 1) << 5), base + (r << 5), base + (n << 5));
      for (let k = 0, at = base + (r << 5); k < 32; k++) page[at + k] = source[offset + k]!;
      const subs = heap.writableSubsPage(address);
      const slot = heap.slot(address);
      subs.copyWithin(slot + r + 1, slot + r, slot + n);
      subs[slot + r] = subindex;
    } else {
      let nextClass = cls === NO_BLOCK ? 0 : cls + 1;
      if (nextClass > MAX_BLOCK_CLASS) nextClass = MAX_BLOCK_CLASS;
      const address = heap.alloc(nextClass);
      const page = heap.writablePage(address);
      const base = heap.offset(address);
      const subs = heap.writableSubsPage(address);
      const slot = heap.slot(address);
      if (n > 0) {
        const oldAddress = this.#block(c, i);
        const oldPage = heap.page(oldAddress);
        const oldBase = heap.offset(oldAddress);
        const oldSubs = heap.subsPage(oldAddress);
        const oldSlot = heap.slot(oldAddress);
        for (let k = 0; k < r << 5; k++) page[base + k] = oldPage[oldBase + k]!;
        for (let k = r << 5; k < n << 5; k++) page[base + 32 + k] = oldPage[oldBase + k]!;
        for (let k = 0; k < r; k++) subs[slot + k] = oldSubs[oldSlot + k]!;
        for (let k = r; k < n; k++) subs[slot + k + 1] = oldSubs[oldSlot + k]!;
        heap.release(oldAddress, cls);
      }
      for (let k = 0, at = base + (r << 5); k < 32; k++) page[at + k] = source[offset + k]!;
      subs[slot + r] = subindex;
      this.#setBlock(c, i, address);
      this.#setField(c, i, 0xf0000, 16, nextClass);
    }
    this.#setField(c, i, 0x1ff00000, 20, n + 1);
    return true;
  }

  /**
   * Marks the stem hash- and blob-stale (FLAGS_STALE); true when its hash was not stale before
   * (a write's bookkeeping in one call: the stale log records it then).
   */
  markStale(index: number): boolean {
    if (this.#prepares) this.#prepare(index);
    const meta = this.meta[index >>> CHUNK_BITS]!;
    const at = ((index & CHUNK_MASK) << 1) + 1;
    const info = meta[at]!;
    meta[at] = info | (FLAGS_STALE << 8);
    return ((info >>> 8) & FLAG_HASH_STALE) === 0;
  }

  /**
   * Reads the records and the first value word of the stems among refs[0..n) (node refs; other
   * kinds are skipped), side by side so their cache misses overlap: the writes applied next find
   * them in cache. Returns a sum of bits of what it read (the caller keeps it, so the loads stay).
   */
  touch(refs: Uint32Array, n: number): number {
    const heap = this.values;
    let loads = 0;
    for (let k = 0; k < n; k++) {
      const ref = refs[k]!;
      if (ref >>> 30 !== KIND_STEM) continue;
      const index = ref & MAX_POOL_INDEX;
      loads += this.stem32[index >>> CHUNK_BITS]![(index & CHUNK_MASK) << 3]! & 1;
      loads += this.meta[index >>> CHUNK_BITS]![(index & CHUNK_MASK) << 1]! & 1;
    }
    // Then the value blocks, where the records loaded above say they are.
    for (let k = 0; k < n; k++) {
      const ref = refs[k]!;
      if (ref >>> 30 !== KIND_STEM) continue;
      const index = ref & MAX_POOL_INDEX;
      const meta = this.meta[index >>> CHUNK_BITS]!;
      const i = (index & CHUNK_MASK) << 1;
      if (((meta[i + 1]! >>> 20) & 0x1ff) === 0) continue;
      const address = meta[i]!;
      loads += heap.subs[address >>> PAGE_BITS]![address & PAGE_MASK]! & 1;
      loads += heap.pages32[address >>> PAGE_BITS]![(address & PAGE_MASK) << 3]! & 1;
    }
    return loads;
  }

  /** Removes the value at `subindex`; returns false when it was not present. */
  removeValue(index: number, subindex: number): boolean {
    if (!this.has(index, subindex)) return false;
    this.#prepare(index);
    const c = index >>> CHUNK_BITS;
    const i = index & CHUNK_MASK;
    const heap = this.values;
    const address = this.#block(c, i);
    const r = this.rank(index, subindex);
    const n = (this.#info(c, i) >>> 20) & 0x1ff;
    const page = heap.writablePage(address);
    const base = heap.offset(address);
    page.copyWithin(base + (r << 5), base + ((r + 1) << 5), base + (n << 5));
    const subs = heap.writableSubsPage(address);
    const slot = heap.slot(address);
    subs.copyWithin(slot + r, slot + r + 1, slot + n);
    this.#setField(c, i, 0x1ff00000, 20, n - 1);
    if (n - 1 === 0) {
      heap.release(address, (this.#info(c, i) >>> 16) & 0xf);
      this.#setField(c, i, 0xf0000, 16, NO_BLOCK);
    }
    return true;
  }

  /** Fills `out` (Uint16Array, ≥ count) with the present subindices in increasing order. */
  presentSubindices(index: number, out: Uint16Array, outOffset: number): number {
    const n = (this.#info(index >>> CHUNK_BITS, index & CHUNK_MASK) >>> 20) & 0x1ff;
    if (n === 0) return 0;
    const address = this.#block(index >>> CHUNK_BITS, index & CHUNK_MASK);
    const subs = this.values.subsPage(address);
    const slot = this.values.slot(address);
    for (let k = 0; k < n; k++) out[outOffset + k] = subs[slot + k]!;
    return n;
  }

  /** The 32-byte MSB-first bitmap of the stem blob format. */
  writeBlobBitmap(index: number, out: Uint8Array, outOffset: number): void {
    out.fill(0, outOffset, outOffset + 32);
    const n = (this.#info(index >>> CHUNK_BITS, index & CHUNK_MASK) >>> 20) & 0x1ff;
    if (n === 0) return;
    const address = this.#block(index >>> CHUNK_BITS, index & CHUNK_MASK);
    const subs = this.values.subsPage(address);
    const slot = this.values.slot(address);
    for (let k = 0; k < n; k++) {
      const sub = subs[slot + k]!;
      out[outOffset + (sub >>> 3)]! |= 0x80 >>> (sub & 7);
    }
  }

  /**
   * Replaces this stem's values with `count` packed values (subindex order) and the MSB-first
   * blob bitmap they come with: the bulk path for nodes decoded from the store.
   */
  loadValues(index: number, blobBitmap: Uint8Array, values: Uint8Array, count: number): void {
    this.#prepare(index);
    const c = index >>> CHUNK_BITS;
    const i = index & CHUNK_MASK;
    const heap = this.values;
    const cls = (this.#info(c, i) >>> 16) & 0xf;
    if (cls !== NO_BLOCK) heap.release(this.#block(c, i), cls);
    this.#setField(c, i, 0x1ff00000, 20, count);
    if (count === 0) {
      this.#setField(c, i, 0xf0000, 16, NO_BLOCK);
      return;
    }
    let sizeClass = 0;
    while (1 << sizeClass < count) sizeClass++;
    const address = heap.alloc(sizeClass);
    heap.writablePage(address).set(values.subarray(0, count << 5), heap.offset(address));
    const subs = heap.writableSubsPage(address);
    const slot = heap.slot(address);
    let k = 0;
    for (let sub = 0; sub < 256 && k < count; sub++) {
      if ((blobBitmap[sub >>> 3]! & (0x80 >>> (sub & 7))) !== 0) subs[slot + k++] = sub;
    }
    this.#setBlock(c, i, address);
    this.#setField(c, i, 0xf0000, 16, sizeClass);
  }

  /** Copies stem `index`'s record (STEM_RECORD_WORDS words; not its values) to out[at]. */
  readRecord(index: number, out: Uint32Array, at: number): void {
    const c = index >>> CHUNK_BITS;
    const i = index & CHUNK_MASK;
    const stem = this.stem32[c]!;
    const hash = this.hash32[c]!;
    for (let k = 0; k < 8; k++) out[at + k] = stem[(i << 3) + k]!;
    for (let k = 0; k < 8; k++) out[at + 8 + k] = hash[(i << 3) + k]!;
    out[at + 16] = this.#info(c, i) & 0xff;
    out[at + 17] = (this.#info(c, i) >>> 8) & 0xff;
    out[at + 18] = this.#block(c, i);
    out[at + 19] = (this.#info(c, i) >>> 16) & 0xf;
    out[at + 20] = (this.#info(c, i) >>> 20) & 0x1ff;
  }

  /** Puts back a record saved by `readRecord` (the value block it names must still be held). */
  writeRecord(index: number, source: Uint32Array, at: number): void {
    const c = index >>> CHUNK_BITS;
    const i = index & CHUNK_MASK;
    if (this.#shared !== undefined) this.#own(c);
    const stem = this.stem32[c]!;
    const hash = this.hash32[c]!;
    for (let k = 0; k < 8; k++) stem[(i << 3) + k] = source[at + k]!;
    for (let k = 0; k < 8; k++) hash[(i << 3) + k] = source[at + 8 + k]!;
    const meta = this.meta[c]!;
    meta[i << 1] = source[at + 18]!;
    meta[(i << 1) + 1] =
      source[at + 16]! |
      (source[at + 17]! << 8) |
      (source[at + 19]! << 16) |
      (source[at + 20]! << 20);
  }

  /** Copies the stem's values (count × 32 bytes) and then their subindices (count bytes) to out[at]. */
  saveValues(index: number, out: Uint8Array, at: number): number {
    const n = this.getCount(index);
    if (n === 0) return 0;
    const address = this.blockAddress(index);
    const heap = this.values;
    const base = heap.offset(address);
    out.set(heap.page(address).subarray(base, base + (n << 5)), at);
    const slot = heap.slot(address);
    out.set(heap.subsPage(address).subarray(slot, slot + n), at + (n << 5));
    return n * 33;
  }

  /** Writes values saved by `saveValues` back into the stem's current block. */
  restoreValues(index: number, source: Uint8Array, at: number): void {
    const n = this.getCount(index);
    if (n === 0) return;
    const address = this.blockAddress(index);
    const heap = this.values;
    heap.writablePage(address).set(source.subarray(at, at + (n << 5)), heap.offset(address));
    heap
      .writableSubsPage(address)
      .set(source.subarray(at + (n << 5), at + n * 33), heap.slot(address));
  }

  /** Returns a slot to the free list as is, keeping its value block (checkpoint journals only). */
  freeSlot(index: number): void {
    this.#free.push(index);
  }

  /**
   * A pool with the same stems that shares every chunk (and value page) with this one: O(chunks).
   * Both sides clone a shared chunk the first time they write to it.
   */
  twin(): StemPool {
    const twin = new StemPool(this.#limit);
    twin.stem.push(...this.stem);
    twin.hash.push(...this.hash);
    twin.stem32.push(...this.stem32);
    twin.hash32.push(...this.hash32);
    twin.meta.push(...this.meta);
    twin.values = this.values.twin();
    twin.#next = this.#next;
    twin.#free = this.#free.copy();
    [this.#shared, twin.#shared] = SharedChunks.pair(this.stem.length);
    return twin;
  }

  /** depth | flags << 8 | block class << 16 | value count << 20 of stem (c, i). */
  #info(c: number, i: number): number {
    return this.meta[c]![(i << 1) + 1]!;
  }

  #setInfo(c: number, i: number, info: number): void {
    this.meta[c]![(i << 1) + 1] = info;
  }

  /** Replaces the bits `mask` of stem (c, i)'s info word with value << shift. */
  #setField(c: number, i: number, mask: number, shift: number, value: number): void {
    const meta = this.meta[c]!;
    const at = (i << 1) + 1;
    meta[at] = (meta[at]! & ~mask) | (value << shift);
  }

  #block(c: number, i: number): number {
    return this.meta[c]![i << 1]!;
  }

  #setBlock(c: number, i: number, address: number): void {
    this.meta[c]![i << 1] = address;
  }

  #prepare(index: number): void {
    if (this.#shared !== undefined) this.#own(index >>> CHUNK_BITS);
    if (this.journal !== undefined) this.journal.touch(index);
  }

  /** Whether #prepare has work to do (a copy shares chunks, or a journal records): loops skip it. */
  get #prepares(): boolean {
    return this.#shared !== undefined || this.journal !== undefined;
  }

  #own(c: number): void {
    if (!this.#shared!.claim(c)) return;
    const stem = this.stem[c]!.slice();
    const hash = this.hash[c]!.slice();
    this.stem[c] = stem;
    this.hash[c] = hash;
    this.stem32[c] = new Uint32Array(stem.buffer);
    this.hash32[c] = new Uint32Array(hash.buffer);
    this.meta[c] = this.meta[c]!.slice();
  }

  /** Takes new chunks and value pages from `recycler` while it lasts (undefined: stop). */
  recycleFrom(recycler: SlabRecycler | undefined): void {
    this.#recycler = recycler;
    this.values.recycleFrom(recycler);
  }

  #addChunk(): void {
    const recycler = this.#recycler;
    // Every slot's stem bytes are written when it is allocated, its hash when it is hashed.
    const stem = recycler?.take(CHUNK_SIZE * 32, false) ?? new Uint8Array(CHUNK_SIZE * 32);
    const hash = recycler?.take(CHUNK_SIZE * 32, false) ?? new Uint8Array(CHUNK_SIZE * 32);
    const meta = recycler?.take(CHUNK_SIZE * 8);
    this.stem.push(stem);
    this.hash.push(hash);
    this.stem32.push(wordsOf(stem));
    this.hash32.push(wordsOf(hash));
    this.meta.push(meta !== undefined ? wordsOf(meta) : new Uint32Array(CHUNK_SIZE * 2));
  }
}

/** Index of the first of the n sorted subindices at subs[base..] that is ≥ subindex. */
function lowerBound(subs: Uint8Array, base: number, n: number, subindex: number): number {
  let lo = 0;
  let hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (subs[base + mid]! < subindex) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
