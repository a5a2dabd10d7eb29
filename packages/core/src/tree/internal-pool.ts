import { assertPoolIndex, CHUNK_BITS, CHUNK_MASK, CHUNK_SIZE } from "./pool-chunks.js";
import type { PoolJournal } from "./pool-journal.js";
import { U32Stack } from "./u32-stack.js";

/** Words per node in a chunk: left ref, right ref, meta (depth | flags << 8). */
const WORDS = 3;
const LEFT = 0;
const RIGHT = 1;
const META = 2;
/** Words of one node's record as a checkpoint journal saves it: the 3 node words + 8 hash words. */
export const INTERNAL_RECORD_WORDS = WORDS + 8;

/**
 * Internal nodes in chunks: the two child refs and the depth/flags word sit side by side (one
 * cache line serves a whole step of a descent), the 32-byte cached hash in a separate slab
 * (only hashing reads it). 44 bytes per node and no per-node object for the GC to trace.
 */
export class InternalPool {
  /** [left, right, depth | flags << 8] per node. */
  readonly nodes: Uint32Array[] = [];
  readonly hash: Uint8Array[] = [];
  /** Word views of `hash` (8 words per node). */
  readonly hash32: Uint32Array[] = [];
  #next = 0;
  #free = new U32Stack();
  /** Set while a checkpoint is open: told about every slot change (see PoolJournal). */
  journal: PoolJournal | undefined = undefined;
  /** Per chunk, 1 while the chunk is shared with a copy of the tree (cloned on first write). */
  #shared: Uint8Array | undefined = undefined;

  /** Nodes currently allocated. */
  get live(): number {
    return this.#next - this.#free.length;
  }

  /** Bytes held by the typed arrays of this pool. */
  get bytes(): number {
    return this.nodes.length * CHUNK_SIZE * (WORDS * 4 + 32);
  }

  alloc(depth: number, flags: number): number {
    let index: number;
    if (this.#free.length > 0) {
      index = this.#free.pop();
    } else {
      index = this.#next++;
      assertPoolIndex("internal", index);
      if ((index & CHUNK_MASK) === 0) this.#addChunk();
    }
    if (this.#shared !== undefined) this.#own(index >>> CHUNK_BITS);
    if (this.journal !== undefined) this.journal.allocated(index);
    const words = this.nodes[index >>> CHUNK_BITS]!;
    const at = (index & CHUNK_MASK) * WORDS;
    words[at + LEFT] = 0;
    words[at + RIGHT] = 0;
    words[at + META] = depth | (flags << 8);
    return index;
  }

  release(index: number): void {
    if (this.journal?.deferRelease(index)) return;
    this.#free.push(index);
  }

  /** Returns a slot to the free list as is (checkpoint journals only). */
  freeSlot(index: number): void {
    this.#free.push(index);
  }

  getLeft(index: number): number {
    return this.nodes[index >>> CHUNK_BITS]![(index & CHUNK_MASK) * WORDS + LEFT]!;
  }

  getRight(index: number): number {
    return this.nodes[index >>> CHUNK_BITS]![(index & CHUNK_MASK) * WORDS + RIGHT]!;
  }

  /** Child on side `bit` (0 = left, 1 = right). */
  getChild(index: number, bit: number): number {
    return this.nodes[index >>> CHUNK_BITS]![(index & CHUNK_MASK) * WORDS + bit]!;
  }

  setChild(index: number, bit: number, ref: number): void {
    this.#prepare(index);
    this.nodes[index >>> CHUNK_BITS]![(index & CHUNK_MASK) * WORDS + bit] = ref;
  }

  getDepth(index: number): number {
    return this.nodes[index >>> CHUNK_BITS]![(index & CHUNK_MASK) * WORDS + META]! & 0xff;
  }

  getFlags(index: number): number {
    return this.nodes[index >>> CHUNK_BITS]![(index & CHUNK_MASK) * WORDS + META]! >>> 8;
  }

  setFlags(index: number, flags: number): void {
    this.#prepare(index);
    const words = this.nodes[index >>> CHUNK_BITS]!;
    const at = (index & CHUNK_MASK) * WORDS + META;
    words[at] = (words[at]! & 0xff) | (flags << 8);
  }

  addFlags(index: number, flags: number): void {
    this.#prepare(index);
    this.nodes[index >>> CHUNK_BITS]![(index & CHUNK_MASK) * WORDS + META]! |= flags << 8;
  }

  clearFlags(index: number, flags: number): void {
    this.#prepare(index);
    this.nodes[index >>> CHUNK_BITS]![(index & CHUNK_MASK) * WORDS + META]! &= ~(flags << 8);
  }

  /** The chunk holding this node's hash; the hash sits at `hashOffset(index)`. */
  hashChunk(index: number): Uint8Array {
    return this.hash[index >>> CHUNK_BITS]!;
  }

  hashOffset(index: number): number {
    return (index & CHUNK_MASK) << 5;
  }

  /** Copies node `index`'s record (INTERNAL_RECORD_WORDS words) to out[at]. */
  readRecord(index: number, out: Uint32Array, at: number): void {
    const c = index >>> CHUNK_BITS;
    const words = this.nodes[c]!;
    const w = (index & CHUNK_MASK) * WORDS;
    out[at] = words[w]!;
    out[at + 1] = words[w + 1]!;
    out[at + 2] = words[w + 2]!;
    const hash = this.hash32[c]!;
    const h = (index & CHUNK_MASK) << 3;
    for (let k = 0; k < 8; k++) out[at + 3 + k] = hash[h + k]!;
  }

  /** Puts back a record saved by `readRecord`. */
  writeRecord(index: number, source: Uint32Array, at: number): void {
    const c = index >>> CHUNK_BITS;
    if (this.#shared !== undefined) this.#own(c);
    const words = this.nodes[c]!;
    const w = (index & CHUNK_MASK) * WORDS;
    words[w] = source[at]!;
    words[w + 1] = source[at + 1]!;
    words[w + 2] = source[at + 2]!;
    const hash = this.hash32[c]!;
    const h = (index & CHUNK_MASK) << 3;
    for (let k = 0; k < 8; k++) hash[h + k] = source[at + 3 + k]!;
  }

  /**
   * A pool with the same nodes that shares every chunk with this one: O(chunks). Both sides
   * clone a shared chunk the first time they write to it.
   */
  twin(): InternalPool {
    const twin = new InternalPool();
    twin.nodes.push(...this.nodes);
    twin.hash.push(...this.hash);
    twin.hash32.push(...this.hash32);
    twin.#next = this.#next;
    twin.#free = this.#free.copy();
    const shared = new Uint8Array(this.nodes.length).fill(1);
    this.#shared = shared;
    twin.#shared = shared.slice();
    return twin;
  }

  #prepare(index: number): void {
    if (this.#shared !== undefined) this.#own(index >>> CHUNK_BITS);
    if (this.journal !== undefined) this.journal.touch(index);
  }

  #own(c: number): void {
    const shared = this.#shared!;
    if (c >= shared.length || shared[c] === 0) return;
    shared[c] = 0;
    this.nodes[c] = this.nodes[c]!.slice();
    const hash = this.hash[c]!.slice();
    this.hash[c] = hash;
    this.hash32[c] = new Uint32Array(hash.buffer);
  }

  #addChunk(): void {
    this.nodes.push(new Uint32Array(CHUNK_SIZE * WORDS));
    const hash = new Uint8Array(CHUNK_SIZE * 32);
    this.hash.push(hash);
    this.hash32.push(new Uint32Array(hash.buffer));
  }
}
