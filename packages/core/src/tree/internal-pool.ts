import { assertPoolIndex, CHUNK_BITS, CHUNK_MASK, CHUNK_SIZE } from "./pool-chunks.js";
import { U32Stack } from "./u32-stack.js";

/**
 * Internal nodes, struct-of-arrays in chunks: two child refs, depth, flags and a 32-byte
 * cached hash. About 42 bytes per node and no per-node object for the GC to trace.
 */
export class InternalPool {
  readonly left: Uint32Array[] = [];
  readonly right: Uint32Array[] = [];
  readonly depth: Uint8Array[] = [];
  readonly flags: Uint8Array[] = [];
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
    return this.left.length * CHUNK_SIZE * (4 + 4 + 1 + 1 + 32);
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
    const c = index >>> CHUNK_BITS;
    const i = index & CHUNK_MASK;
    this.left[c]![i] = 0;
    this.right[c]![i] = 0;
    this.depth[c]![i] = depth;
    this.flags[c]![i] = flags;
    return index;
  }

  release(index: number): void {
    this.#free.push(index);
  }

  getLeft(index: number): number {
    return this.left[index >>> CHUNK_BITS]![index & CHUNK_MASK]!;
  }

  getRight(index: number): number {
    return this.right[index >>> CHUNK_BITS]![index & CHUNK_MASK]!;
  }

  /** Child on side `bit` (0 = left, 1 = right). */
  getChild(index: number, bit: number): number {
    const chunks = bit === 0 ? this.left : this.right;
    return chunks[index >>> CHUNK_BITS]![index & CHUNK_MASK]!;
  }

  setChild(index: number, bit: number, ref: number): void {
    const chunks = bit === 0 ? this.left : this.right;
    chunks[index >>> CHUNK_BITS]![index & CHUNK_MASK] = ref;
  }

  getDepth(index: number): number {
    return this.depth[index >>> CHUNK_BITS]![index & CHUNK_MASK]!;
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

  /** The chunk holding this node's hash; the hash sits at `hashOffset(index)`. */
  hashChunk(index: number): Uint8Array {
    return this.hash[index >>> CHUNK_BITS]!;
  }

  hashOffset(index: number): number {
    return (index & CHUNK_MASK) << 5;
  }

  #addChunk(): void {
    this.left.push(new Uint32Array(CHUNK_SIZE));
    this.right.push(new Uint32Array(CHUNK_SIZE));
    this.depth.push(new Uint8Array(CHUNK_SIZE));
    this.flags.push(new Uint8Array(CHUNK_SIZE));
    const hash = new Uint8Array(CHUNK_SIZE * 32);
    this.hash.push(hash);
    this.hash32.push(new Uint32Array(hash.buffer));
  }
}
