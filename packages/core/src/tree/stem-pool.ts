import { assertPoolIndex, CHUNK_BITS, CHUNK_MASK, CHUNK_SIZE } from "./pool-chunks.js";
import { popcount32 } from "./popcount.js";
import { U32Stack } from "./u32-stack.js";
import { MAX_BLOCK_CLASS, ValueHeap } from "./value-heap.js";

const NO_BLOCK = 255;

/**
 * Stem nodes, struct-of-arrays in chunks: the 31-byte stem (in a 32-byte slot), the cached
 * hash, a 256-bit presence bitmap (8 words, bit i of word w = subindex 32w + i), depth, flags,
 * and the packed present values in the value heap (rank order = subindex order).
 */
export class StemPool {
  readonly stem: Uint8Array[] = [];
  readonly hash: Uint8Array[] = [];
  /** Word views of `stem` and `hash` (8 words per node; a stem slot's byte 31 is always 0). */
  readonly stem32: Uint32Array[] = [];
  readonly hash32: Uint32Array[] = [];
  readonly bitmap: Uint32Array[] = [];
  readonly depth: Uint8Array[] = [];
  readonly flags: Uint8Array[] = [];
  readonly block: Uint32Array[] = [];
  readonly blockClass: Uint8Array[] = [];
  readonly count: Uint16Array[] = [];
  readonly values = new ValueHeap();
  #next = 0;
  readonly #free = new U32Stack();

  get live(): number {
    return this.#next - this.#free.length;
  }

  get bytes(): number {
    return this.stem.length * CHUNK_SIZE * (32 + 32 + 32 + 1 + 1 + 4 + 1 + 2) + this.values.bytes;
  }

  /** Allocates an empty stem node for the 31 bytes at source[offset]. */
  alloc(source: Uint8Array, offset: number, depth: number, flags: number): number {
    let index: number;
    if (this.#free.length > 0) {
      index = this.#free.pop();
    } else {
      index = this.#next++;
      assertPoolIndex("stem", index);
      if ((index & CHUNK_MASK) === 0) this.#addChunk();
    }
    const c = index >>> CHUNK_BITS;
    const i = index & CHUNK_MASK;
    const stem = this.stem[c]!;
    const at = i << 5;
    for (let k = 0; k < 31; k++) stem[at + k] = source[offset + k]!;
    this.bitmap[c]!.fill(0, i << 3, (i << 3) + 8);
    this.depth[c]![i] = depth;
    this.flags[c]![i] = flags;
    this.block[c]![i] = 0;
    this.blockClass[c]![i] = NO_BLOCK;
    this.count[c]![i] = 0;
    return index;
  }

  release(index: number): void {
    const c = index >>> CHUNK_BITS;
    const i = index & CHUNK_MASK;
    const cls = this.blockClass[c]![i]!;
    if (cls !== NO_BLOCK) this.values.release(this.block[c]![i]!, cls);
    this.blockClass[c]![i] = NO_BLOCK;
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
    return this.depth[index >>> CHUNK_BITS]![index & CHUNK_MASK]!;
  }

  setDepth(index: number, depth: number): void {
    this.depth[index >>> CHUNK_BITS]![index & CHUNK_MASK] = depth;
  }

  getFlags(index: number): number {
    return this.flags[index >>> CHUNK_BITS]![index & CHUNK_MASK]!;
  }

  setFlags(index: number, flags: number): void {
    this.flags[index >>> CHUNK_BITS]![index & CHUNK_MASK] = flags;
  }

  addFlags(index: number, flags: number): void {
    this.flags[index >>> CHUNK_BITS]![index & CHUNK_MASK]! |= flags;
  }

  clearFlags(index: number, flags: number): void {
    this.flags[index >>> CHUNK_BITS]![index & CHUNK_MASK]! &= ~flags;
  }

  getCount(index: number): number {
    return this.count[index >>> CHUNK_BITS]![index & CHUNK_MASK]!;
  }

  /** True when the 31 bytes at key[offset] equal this node's stem. */
  matches(index: number, key: Uint8Array, offset: number): boolean {
    const s = this.stem[index >>> CHUNK_BITS]!;
    const o = (index & CHUNK_MASK) << 5;
    for (let i = 0; i < 31; i++) if (s[o + i] !== key[offset + i]) return false;
    return true;
  }

  has(index: number, subindex: number): boolean {
    const word =
      this.bitmap[index >>> CHUNK_BITS]![((index & CHUNK_MASK) << 3) + (subindex >>> 5)]!;
    return ((word >>> (subindex & 31)) & 1) === 1;
  }

  /** Number of present values with a subindex below `subindex` = the value's slot in the block. */
  rank(index: number, subindex: number): number {
    const bm = this.bitmap[index >>> CHUNK_BITS]!;
    const base = (index & CHUNK_MASK) << 3;
    const w = subindex >>> 5;
    let r = 0;
    for (let k = 0; k < w; k++) r += popcount32(bm[base + k]!);
    const bit = subindex & 31;
    if (bit !== 0) r += popcount32(bm[base + w]! & (((1 << bit) - 1) >>> 0));
    return r;
  }

  /** Byte offset, in `blockPage(index)`, of the value at `subindex` (which must be present). */
  valueOffset(index: number, subindex: number): number {
    const address = this.block[index >>> CHUNK_BITS]![index & CHUNK_MASK]!;
    return this.values.offset(address) + (this.rank(index, subindex) << 5);
  }

  /** The page holding this stem's values; they are contiguous there in subindex order. */
  blockPage(index: number): Uint8Array {
    return this.values.page(this.block[index >>> CHUNK_BITS]![index & CHUNK_MASK]!);
  }

  /** Value-heap slot address of this stem's value block (meaningful when count > 0). */
  blockAddress(index: number): number {
    return this.block[index >>> CHUNK_BITS]![index & CHUNK_MASK]!;
  }

  blockOffset(index: number): number {
    return this.values.offset(this.block[index >>> CHUNK_BITS]![index & CHUNK_MASK]!);
  }

  /**
   * Writes the 32 bytes at source[offset] as the value at `subindex`. Returns true when the
   * stored content changed (a new slot, or different bytes).
   */
  setValue(index: number, subindex: number, source: Uint8Array, offset: number): boolean {
    const c = index >>> CHUNK_BITS;
    const i = index & CHUNK_MASK;
    const r = this.rank(index, subindex);
    if (this.has(index, subindex)) {
      const page = this.values.page(this.block[c]![i]!);
      const at = this.values.offset(this.block[c]![i]!) + (r << 5);
      let same = true;
      for (let k = 0; k < 32; k++) {
        if (page[at + k] !== source[offset + k]) {
          same = false;
          break;
        }
      }
      if (!same) for (let k = 0; k < 32; k++) page[at + k] = source[offset + k]!;
      return !same;
    }
    const n = this.count[c]![i]!;
    const cls = this.blockClass[c]![i]!;
    const capacity = cls === NO_BLOCK ? 0 : 1 << cls;
    if (n < capacity) {
      const page = this.values.page(this.block[c]![i]!);
      const base = this.values.offset(this.block[c]![i]!);
      page.copyWithin(base + ((r + 1) << 5), base + (r << 5), base + (n << 5));
      for (let k = 0, at = base + (r << 5); k < 32; k++) page[at + k] = source[offset + k]!;
    } else {
      let nextClass = cls === NO_BLOCK ? 0 : cls + 1;
      if (nextClass > MAX_BLOCK_CLASS) nextClass = MAX_BLOCK_CLASS;
      const address = this.values.alloc(nextClass);
      const page = this.values.page(address);
      const base = this.values.offset(address);
      if (n > 0) {
        const oldAddress = this.block[c]![i]!;
        const oldPage = this.values.page(oldAddress);
        const oldBase = this.values.offset(oldAddress);
        page.set(oldPage.subarray(oldBase, oldBase + (r << 5)), base);
        page.set(oldPage.subarray(oldBase + (r << 5), oldBase + (n << 5)), base + ((r + 1) << 5));
        this.values.release(oldAddress, cls);
      }
      for (let k = 0, at = base + (r << 5); k < 32; k++) page[at + k] = source[offset + k]!;
      this.block[c]![i] = address;
      this.blockClass[c]![i] = nextClass;
    }
    this.bitmap[c]![(i << 3) + (subindex >>> 5)]! |= 1 << (subindex & 31);
    this.count[c]![i] = n + 1;
    return true;
  }

  /** Removes the value at `subindex`; returns false when it was not present. */
  removeValue(index: number, subindex: number): boolean {
    if (!this.has(index, subindex)) return false;
    const c = index >>> CHUNK_BITS;
    const i = index & CHUNK_MASK;
    const r = this.rank(index, subindex);
    const n = this.count[c]![i]!;
    const page = this.values.page(this.block[c]![i]!);
    const base = this.values.offset(this.block[c]![i]!);
    page.copyWithin(base + (r << 5), base + ((r + 1) << 5), base + (n << 5));
    this.bitmap[c]![(i << 3) + (subindex >>> 5)]! &= ~(1 << (subindex & 31));
    this.count[c]![i] = n - 1;
    if (n - 1 === 0) {
      this.values.release(this.block[c]![i]!, this.blockClass[c]![i]!);
      this.blockClass[c]![i] = NO_BLOCK;
    }
    return true;
  }

  /** Fills `out` (Uint16Array, ≥ count) with the present subindices in increasing order. */
  presentSubindices(index: number, out: Uint16Array, outOffset: number): number {
    const bm = this.bitmap[index >>> CHUNK_BITS]!;
    const base = (index & CHUNK_MASK) << 3;
    let n = 0;
    for (let w = 0; w < 8; w++) {
      let word = bm[base + w]!;
      while (word !== 0) {
        const low = word & -word;
        out[outOffset + n++] = (w << 5) + (31 - Math.clz32(low));
        word ^= low;
      }
    }
    return n;
  }

  /** The 32-byte MSB-first bitmap of the stem blob format. */
  writeBlobBitmap(index: number, out: Uint8Array, outOffset: number): void {
    const bm = this.bitmap[index >>> CHUNK_BITS]!;
    const base = (index & CHUNK_MASK) << 3;
    out.fill(0, outOffset, outOffset + 32);
    for (let w = 0; w < 8; w++) {
      let word = bm[base + w]!;
      while (word !== 0) {
        const low = word & -word;
        const sub = (w << 5) + (31 - Math.clz32(low));
        out[outOffset + (sub >>> 3)]! |= 0x80 >>> (sub & 7);
        word ^= low;
      }
    }
  }

  /**
   * Replaces this stem's values with `count` packed values (subindex order) and the MSB-first
   * blob bitmap they come with: the bulk path for nodes decoded from the store.
   */
  loadValues(index: number, blobBitmap: Uint8Array, values: Uint8Array, count: number): void {
    const c = index >>> CHUNK_BITS;
    const i = index & CHUNK_MASK;
    const cls = this.blockClass[c]![i]!;
    if (cls !== NO_BLOCK) this.values.release(this.block[c]![i]!, cls);
    const bm = this.bitmap[c]!;
    const base = i << 3;
    for (let w = 0; w < 8; w++) {
      let word = 0;
      for (let b = 0; b < 32; b++) {
        const sub = (w << 5) + b;
        if ((blobBitmap[sub >>> 3]! & (0x80 >>> (sub & 7))) !== 0) word |= 1 << b;
      }
      bm[base + w] = word;
    }
    this.count[c]![i] = count;
    if (count === 0) {
      this.blockClass[c]![i] = NO_BLOCK;
      return;
    }
    let sizeClass = 0;
    while (1 << sizeClass < count) sizeClass++;
    const address = this.values.alloc(sizeClass);
    this.values.page(address).set(values.subarray(0, count << 5), this.values.offset(address));
    this.block[c]![i] = address;
    this.blockClass[c]![i] = sizeClass;
  }

  #addChunk(): void {
    const stem = new Uint8Array(CHUNK_SIZE * 32);
    const hash = new Uint8Array(CHUNK_SIZE * 32);
    this.stem.push(stem);
    this.hash.push(hash);
    this.stem32.push(new Uint32Array(stem.buffer));
    this.hash32.push(new Uint32Array(hash.buffer));
    this.bitmap.push(new Uint32Array(CHUNK_SIZE * 8));
    this.depth.push(new Uint8Array(CHUNK_SIZE));
    this.flags.push(new Uint8Array(CHUNK_SIZE));
    this.block.push(new Uint32Array(CHUNK_SIZE));
    this.blockClass.push(new Uint8Array(CHUNK_SIZE));
    this.count.push(new Uint16Array(CHUNK_SIZE));
  }
}
