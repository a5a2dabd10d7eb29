import { assertPoolIndex, CHUNK_BITS, CHUNK_MASK, CHUNK_SIZE } from "./pool-chunks.js";
import { U32Stack } from "./u32-stack.js";

/** Words per node in a chunk: left ref, right ref, meta (depth | flags << 8). */
const WORDS = 3;
const LEFT = 0;
const RIGHT = 1;
const META = 2;

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
  readonly #free = new U32Stack();

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
    const words = this.nodes[index >>> CHUNK_BITS]!;
    const at = (index & CHUNK_MASK) * WORDS;
    words[at + LEFT] = 0;
    words[at + RIGHT] = 0;
    words[at + META] = depth | (flags << 8);
    return index;
  }

  release(index: number): void {
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
    this.nodes[index >>> CHUNK_BITS]![(index & CHUNK_MASK) * WORDS + bit] = ref;
  }

  getDepth(index: number): number {
    return this.nodes[index >>> CHUNK_BITS]![(index & CHUNK_MASK) * WORDS + META]! & 0xff;
  }

  getFlags(index: number): number {
    return this.nodes[index >>> CHUNK_BITS]![(index & CHUNK_MASK) * WORDS + META]! >>> 8;
  }

  setFlags(index: number, flags: number): void {
    const words = this.nodes[index >>> CHUNK_BITS]!;
    const at = (index & CHUNK_MASK) * WORDS + META;
    words[at] = (words[at]! & 0xff) | (flags << 8);
  }

  addFlags(index: number, flags: number): void {
    this.nodes[index >>> CHUNK_BITS]![(index & CHUNK_MASK) * WORDS + META]! |= flags << 8;
  }

  clearFlags(index: number, flags: number): void {
    this.nodes[index >>> CHUNK_BITS]![(index & CHUNK_MASK) * WORDS + META]! &= ~(flags << 8);
  }

  /** The chunk holding this node's hash; the hash sits at `hashOffset(index)`. */
  hashChunk(index: number): Uint8Array {
    return this.hash[index >>> CHUNK_BITS]!;
  }

  hashOffset(index: number): number {
    return (index & CHUNK_MASK) << 5;
  }

  #addChunk(): void {
    this.nodes.push(new Uint32Array(CHUNK_SIZE * WORDS));
    const hash = new Uint8Array(CHUNK_SIZE * 32);
    this.hash.push(hash);
    this.hash32.push(new Uint32Array(hash.buffer));
  }
}
