import { MAX_POOL_INDEX } from "./node-ref.js";
import { assertPoolIndex, CHUNK_BITS, CHUNK_MASK, CHUNK_SIZE } from "./pool-chunks.js";
import type { PoolJournal } from "./pool-journal.js";
import { SharedChunks } from "./shared-chunks.js";
import { U32Stack } from "./u32-stack.js";

/** Placeholders for nodes that live only in the store: just their 32-byte hash. */
export class HashedPool {
  readonly hash: Uint8Array[] = [];
  /** Word views of `hash` (8 words per node), for copies without per-call view objects. */
  readonly hash32: Uint32Array[] = [];
  #next = 0;
  readonly #limit: number;
  #free = new U32Stack();
  /** Set while a checkpoint is open (see PoolJournal); placeholders never change once made. */
  journal: PoolJournal | undefined = undefined;
  /** Per chunk, 1 while the chunk is shared with a copy of the tree. */
  #shared: SharedChunks | undefined = undefined;

  /** `limit`: the largest index handed out (tests lower it to reach exhaustion). */
  constructor(limit: number = MAX_POOL_INDEX) {
    this.#limit = limit;
  }

  get live(): number {
    return this.#next - this.#free.length;
  }

  get bytes(): number {
    return this.hash.length * CHUNK_SIZE * 32;
  }

  /** Allocates a placeholder holding the 32 bytes at source[offset]. */
  alloc(source: Uint8Array, offset: number): number {
    let index: number;
    if (this.#free.length > 0) {
      index = this.#free.pop();
    } else {
      // Checked before the counter moves, so a full pool stays exactly as it was.
      assertPoolIndex("hashed", this.#next, this.#limit);
      index = this.#next++;
      if ((index & CHUNK_MASK) === 0) {
        const chunk = new Uint8Array(CHUNK_SIZE * 32);
        this.hash.push(chunk);
        this.hash32.push(new Uint32Array(chunk.buffer));
      }
    }
    if (this.#shared !== undefined) this.#own(index >>> CHUNK_BITS);
    if (this.journal !== undefined) this.journal.allocated(index);
    const chunk = this.hash[index >>> CHUNK_BITS]!;
    const at = (index & CHUNK_MASK) << 5;
    for (let i = 0; i < 32; i++) chunk[at + i] = source[offset + i]!;
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

  /** A pool with the same placeholders, sharing every chunk until either side writes to it. */
  twin(): HashedPool {
    const twin = new HashedPool(this.#limit);
    twin.hash.push(...this.hash);
    twin.hash32.push(...this.hash32);
    twin.#next = this.#next;
    twin.#free = this.#free.copy();
    [this.#shared, twin.#shared] = SharedChunks.pair(this.hash.length);
    return twin;
  }

  #own(c: number): void {
    if (!this.#shared!.claim(c)) return;
    const chunk = this.hash[c]!.slice();
    this.hash[c] = chunk;
    this.hash32[c] = new Uint32Array(chunk.buffer);
  }

  hashChunk(index: number): Uint8Array {
    return this.hash[index >>> CHUNK_BITS]!;
  }

  hashOffset(index: number): number {
    return (index & CHUNK_MASK) << 5;
  }
}
