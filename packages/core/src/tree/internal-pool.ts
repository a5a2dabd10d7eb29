import { FLAG_FREE, KIND_INTERNAL, MAX_POOL_INDEX } from "./node-ref.js";
import { assertPoolIndex, CHUNK_BITS, CHUNK_MASK, CHUNK_SIZE } from "./pool-chunks.js";
import { U32Stack } from "./u32-stack.js";

/** `getParent` of a node linked nowhere yet (or the root). */
export const NO_PARENT = 0xffffffff;

/** Words per node in a chunk: left ref, right ref, meta (depth | flags << 8). */
const WORDS = 3;
const LEFT = 0;
const RIGHT = 1;
const META = 2;

/**
 * Internal nodes in chunks: the two child refs and the depth/flags word sit side by side (one
 * cache line serves a whole step of a descent), the 32-byte cached hash in a separate slab
 * (only hashing reads it), and the slot that links it (parent * 2 + side, for eviction, which
 * must put a placeholder there). An internal node never changes parent while it lives: splits
 * insert new nodes above stems only, and collapses remove only nodes without internal children.
 * 48 bytes per node and no per-node object for the GC to trace.
 */
export class InternalPool {
  /** [left, right, depth | flags << 8] per node. */
  readonly nodes: Uint32Array[] = [];
  readonly hash: Uint8Array[] = [];
  /** Word views of `hash` (8 words per node). */
  readonly hash32: Uint32Array[] = [];
  /** parent * 2 + side of each node (NO_PARENT for the root). */
  readonly parent: Uint32Array[] = [];
  #next = 0;
  readonly #limit: number;
  readonly #free = new U32Stack();

  /** `limit`: the largest index handed out (tests lower it to reach exhaustion). */
  constructor(limit: number = MAX_POOL_INDEX) {
    this.#limit = limit;
  }

  /** Nodes currently allocated. */
  get live(): number {
    return this.#next - this.#free.length;
  }

  /** Bytes held by the typed arrays of this pool. */
  get bytes(): number {
    return this.nodes.length * CHUNK_SIZE * INTERNAL_NODE_BYTES;
  }

  /** Slots ever handed out (live or free): indexes below this exist. */
  get capacity(): number {
    return this.#next;
  }

  alloc(depth: number, flags: number): number {
    let index: number;
    if (this.#free.length > 0) {
      index = this.#free.pop();
    } else {
      // Checked before the counter moves, so a full pool stays exactly as it was.
      assertPoolIndex("internal", this.#next, this.#limit);
      index = this.#next++;
      if ((index & CHUNK_MASK) === 0) this.#addChunk();
    }
    const words = this.nodes[index >>> CHUNK_BITS]!;
    const at = (index & CHUNK_MASK) * WORDS;
    words[at + LEFT] = 0;
    words[at + RIGHT] = 0;
    words[at + META] = depth | (flags << 8);
    this.parent[index >>> CHUNK_BITS]![index & CHUNK_MASK] = NO_PARENT;
    return index;
  }

  release(index: number): void {
    this.nodes[index >>> CHUNK_BITS]![(index & CHUNK_MASK) * WORDS + META] = FLAG_FREE << 8;
    this.#free.push(index);
  }

  /** parent * 2 + side of the slot linking this node, or NO_PARENT. */
  getParent(index: number): number {
    return this.parent[index >>> CHUNK_BITS]![index & CHUNK_MASK]!;
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
    if (ref >>> 30 === KIND_INTERNAL) {
      const child = ref & MAX_POOL_INDEX;
      this.parent[child >>> CHUNK_BITS]![child & CHUNK_MASK] = index * 2 + bit;
    }
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
    this.parent.push(new Uint32Array(CHUNK_SIZE));
  }
}

/** Bytes per internal node: three words, the parent slot and the 32-byte hash. */
export const INTERNAL_NODE_BYTES = WORDS * 4 + 4 + 32;
