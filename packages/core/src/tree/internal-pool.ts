import {
  FLAG_BLOB_STALE,
  FLAG_FREE,
  FLAG_HASH_STALE,
  FLAG_STALE_LEFT,
  FLAG_STALE_RIGHT,
  FLAGS_STALE,
  FLAGS_STALE_CHILDREN,
  KIND_INTERNAL,
  MAX_POOL_INDEX,
  makeRef,
} from "./node-ref.js";
import { assertPoolIndex, CHUNK_BITS, CHUNK_MASK, CHUNK_SIZE } from "./pool-chunks.js";
import type { PoolJournal } from "./pool-journal.js";
import { SharedChunks } from "./shared-chunks.js";
import { type SlabRecycler, wordsOf } from "./slab-recycler.js";
import type { StaleLog } from "./stale-log.js";
import { U32Stack } from "./u32-stack.js";

/** `getParent` of a node linked nowhere yet (or the root). */
export const NO_PARENT = 0xffffffff;

/** Words per node in a chunk: left ref, right ref, meta (depth | flags << 8). */
const WORDS = 3;
const LEFT = 0;
const RIGHT = 1;
const META = 2;
/** Internal nodes a descent can pass: depths 0..247. */
const MAX_PATH_NODES = 248;
/** Words of one node's record as a checkpoint journal saves it: 3 node words, parent, 8 hash words. */
export const INTERNAL_RECORD_WORDS = WORDS + 1 + 8;

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
  #free = new U32Stack();
  /** Set while a checkpoint is open: told about every slot change (see PoolJournal). */
  journal: PoolJournal | undefined = undefined;
  /** Per chunk, 1 while the chunk is shared with a copy of the tree (cloned on first write). */
  #shared: SharedChunks | undefined = undefined;

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

  /** How many more nodes `alloc` can hand out before the pool is full. */
  get room(): number {
    return this.#limit - this.#next + 1 + this.#free.length;
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
    if (this.#shared !== undefined) this.#own(index >>> CHUNK_BITS);
    if (this.journal !== undefined) this.journal.allocated(index);
    const words = this.nodes[index >>> CHUNK_BITS]!;
    const at = (index & CHUNK_MASK) * WORDS;
    words[at + LEFT] = 0;
    words[at + RIGHT] = 0;
    // A node made with a stale blob may have stale children on both sides (see FLAG_STALE_LEFT).
    const all = (flags & FLAG_BLOB_STALE) !== 0 ? flags | FLAGS_STALE_CHILDREN : flags;
    words[at + META] = depth | (all << 8);
    this.parent[index >>> CHUNK_BITS]![index & CHUNK_MASK] = NO_PARENT;
    return index;
  }

  release(index: number): void {
    if (this.journal !== undefined) {
      // Kept for a revert: saved as it is, marked free (slot scans skip it), not reusable yet.
      this.journal.touch(index);
      if (this.#shared !== undefined) this.#own(index >>> CHUNK_BITS);
      this.nodes[index >>> CHUNK_BITS]![(index & CHUNK_MASK) * WORDS + META]! |= FLAG_FREE << 8;
      if (this.journal.deferRelease(index)) return;
    }
    this.freeSlot(index);
  }

  /** Marks a slot free and returns it to the free list (also: checkpoint journals). */
  freeSlot(index: number): void {
    if (this.#shared !== undefined) this.#own(index >>> CHUNK_BITS);
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
    this.#prepare(index);
    this.nodes[index >>> CHUNK_BITS]![(index & CHUNK_MASK) * WORDS + bit] = ref;
    if (ref >>> 30 === KIND_INTERNAL) {
      const child = ref & MAX_POOL_INDEX;
      if (this.#shared !== undefined) this.#own(child >>> CHUNK_BITS);
      this.parent[child >>> CHUNK_BITS]![child & CHUNK_MASK] = index * 2 + bit;
    }
  }

  /**
   * Follows the bits of the stem at key[ko] down from internal node `index`, appending every
   * internal node it passes (`index` first) to `path`, and returns the first child that is not
   * an internal node. One call per descent instead of several per level: the first block after
   * a bulk build runs this before V8 has optimised it, and per-level calls dominate there.
   */
  descend(index: number, key: Uint8Array, ko: number, path: U32Stack): number {
    path.ensureCapacity(path.length + MAX_PATH_NODES);
    const out = path.data;
    const chunks = this.nodes;
    let length = path.length;
    let node = index;
    for (;;) {
      out[length++] = node;
      const words = chunks[node >>> CHUNK_BITS]!;
      const at = (node & CHUNK_MASK) * WORDS;
      const depth = words[at + META]! & 0xff;
      const child = words[at + ((key[ko + (depth >>> 3)]! >>> (7 - (depth & 7))) & 1)]!;
      if (child >>> 30 !== KIND_INTERNAL) {
        path.length = length;
        return child;
      }
      node = child & MAX_POOL_INDEX;
    }
  }

  /**
   * Walks, changing nothing, the descents from internal node `root` of the write-log keys at
   * bytes[(from + k) << 6] for k in [0, n): one level of every descent per round. A descent is a
   * chain of dependent loads, each a likely cache miss on a large tree; run side by side, the
   * chains' misses overlap. Descent k's internal nodes go to paths[k * room..], their count to
   * lengths[k], and the first child that is not an internal node to ends[k]: the writes then use
   * these paths instead of descending again.
   */
  descendLanes(
    root: number,
    bytes: Uint8Array,
    from: number,
    n: number,
    paths: Uint32Array,
    room: number,
    lengths: Uint32Array,
    ends: Uint32Array,
  ): void {
    const chunks = this.nodes;
    const rootRef = makeRef(KIND_INTERNAL, root);
    for (let k = 0; k < n; k++) {
      ends[k] = rootRef;
      lengths[k] = 0;
    }
    let active = n;
    while (active > 0) {
      active = 0;
      for (let k = 0; k < n; k++) {
        const ref = ends[k]!;
        if (ref >>> 30 !== KIND_INTERNAL) continue;
        const node = ref & MAX_POOL_INDEX;
        const words = chunks[node >>> CHUNK_BITS]!;
        const at = (node & CHUNK_MASK) * WORDS;
        const depth = words[at + META]! & 0xff;
        const ko = (from + k) << 6;
        const child = words[at + ((bytes[ko + (depth >>> 3)]! >>> (7 - (depth & 7))) & 1)]!;
        paths[k * room + lengths[k]!++] = node;
        ends[k] = child;
        if (child >>> 30 === KIND_INTERNAL) active++;
      }
    }
  }

  /**
   * Marks path[0..length) stale (FLAGS_STALE), bottom up, each node with the hint of the side
   * the path takes below it (FLAG_STALE_LEFT/RIGHT; `lastSide` for the last node, toward the
   * written stem), and tells `log` of each node whose hash was not stale yet; stops at the first
   * node already fully stale with that hint (a stale node's ancestors are stale with hints
   * toward it, as its path was marked the same way).
   */
  markPathStale(path: Uint32Array, length: number, lastSide: number, log: StaleLog): void {
    const direct = !this.#prepares;
    const chunks = this.nodes;
    const hashStale = FLAG_HASH_STALE << 8;
    let below = -1;
    for (let k = length - 1; k >= 0; k--) {
      const node = path[k]!;
      const words = chunks[node >>> CHUNK_BITS]!;
      const at = (node & CHUNK_MASK) * WORDS;
      // The side of the path below this node: the one whose child is the node below.
      const side =
        below < 0 ? lastSide : words[at + LEFT] === makeRef(KIND_INTERNAL, below) ? 0 : 1;
      const flags = FLAGS_STALE | (side === 0 ? FLAG_STALE_LEFT : FLAG_STALE_RIGHT);
      const all = flags << 8;
      const meta = words[at + META]!;
      if ((meta & all) === all) return;
      if ((meta & hashStale) === 0) log.internal(node, meta & 0xff);
      if (direct) words[at + META] = meta | all;
      else this.addFlags(node, flags);
      // Already stale: its ancestors are stale with hints toward it.
      if ((meta & (FLAGS_STALE << 8)) === FLAGS_STALE << 8) return;
      below = node;
    }
  }

  /**
   * Walking path[length - 1] up to path[0] while the node is deeper than `depth`: appends each
   * hash-stale one to nodes/depths from index `at` (room for `length` more is the caller's);
   * returns the new end. (A flush's closed nodes, see ClosingHasher.)
   */
  staleBelow(
    path: Uint32Array,
    length: number,
    depth: number,
    nodes: Uint32Array,
    depths: Uint8Array,
    at: number,
  ): number {
    const chunks = this.nodes;
    const hashStale = FLAG_HASH_STALE << 8;
    let end = at;
    for (let k = length - 1; k >= 0; k--) {
      const node = path[k]!;
      const meta = chunks[node >>> CHUNK_BITS]![(node & CHUNK_MASK) * WORDS + META]!;
      if ((meta & 0xff) <= depth) break;
      if ((meta & hashStale) !== 0) {
        nodes[end] = node;
        depths[end++] = meta & 0xff;
      }
    }
    return end;
  }

  /** The child refs (left, right) of nodes list[start..end) to out[0..2 * (end - start)). */
  readChildren(list: Uint32Array, start: number, end: number, out: Uint32Array): void {
    const chunks = this.nodes;
    for (let k = start, o = 0; k < end; k++, o += 2) {
      const index = list[k]!;
      const words = chunks[index >>> CHUNK_BITS]!;
      const at = (index & CHUNK_MASK) * WORDS;
      out[o] = words[at + LEFT]!;
      out[o + 1] = words[at + RIGHT]!;
    }
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
    this.#keepMetaBits(index, ~(flags << 8));
  }

  /** clearFlags of the nodes list[start..end), in one call (a hashing batch's nodes). */
  clearFlagsOf(list: Uint32Array, start: number, end: number, flags: number): void {
    const prepare = this.#prepares;
    const keep = ~(flags << 8);
    for (let k = start; k < end; k++) {
      const index = list[k]!;
      if (prepare) this.#prepare(index);
      this.#keepMetaBits(index, keep);
    }
  }

  #keepMetaBits(index: number, keep: number): void {
    this.nodes[index >>> CHUNK_BITS]![(index & CHUNK_MASK) * WORDS + META]! &= keep;
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
    out[at + 3] = this.parent[c]![index & CHUNK_MASK]!;
    const hash = this.hash32[c]!;
    const h = (index & CHUNK_MASK) << 3;
    for (let k = 0; k < 8; k++) out[at + 4 + k] = hash[h + k]!;
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
    this.parent[c]![index & CHUNK_MASK] = source[at + 3]!;
    const hash = this.hash32[c]!;
    const h = (index & CHUNK_MASK) << 3;
    for (let k = 0; k < 8; k++) hash[h + k] = source[at + 4 + k]!;
  }

  /**
   * A pool with the same nodes that shares every chunk with this one: O(chunks). Both sides
   * clone a shared chunk the first time they write to it.
   */
  twin(): InternalPool {
    const twin = new InternalPool(this.#limit);
    twin.nodes.push(...this.nodes);
    twin.hash.push(...this.hash);
    twin.hash32.push(...this.hash32);
    twin.parent.push(...this.parent);
    twin.#next = this.#next;
    twin.#free = this.#free.copy();
    [this.#shared, twin.#shared] = SharedChunks.pair(this.nodes.length);
    return twin;
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
    this.nodes[c] = this.nodes[c]!.slice();
    this.parent[c] = this.parent[c]!.slice();
    const hash = this.hash[c]!.slice();
    this.hash[c] = hash;
    this.hash32[c] = new Uint32Array(hash.buffer);
  }

  /** Set during a bulk build: new chunks come from there first (see SlabRecycler). */
  recycler: SlabRecycler | undefined = undefined;

  #addChunk(): void {
    const recycler = this.recycler;
    const nodes = recycler?.take(CHUNK_SIZE * WORDS * 4);
    this.nodes.push(nodes !== undefined ? wordsOf(nodes) : new Uint32Array(CHUNK_SIZE * WORDS));
    // A node's hash is written when it is hashed, before anything reads it.
    const hash = recycler?.take(CHUNK_SIZE * 32, false) ?? new Uint8Array(CHUNK_SIZE * 32);
    this.hash.push(hash);
    this.hash32.push(wordsOf(hash));
    const parent = recycler?.take(CHUNK_SIZE * 4);
    this.parent.push(parent !== undefined ? wordsOf(parent) : new Uint32Array(CHUNK_SIZE));
  }
}

/** Bytes per internal node: three words, the parent slot and the 32-byte hash. */
export const INTERNAL_NODE_BYTES = WORDS * 4 + 4 + 32;
