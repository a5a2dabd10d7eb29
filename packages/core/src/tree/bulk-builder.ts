import type { Arena } from "./arena.js";
import { EMPTY_REF, FLAGS_STALE, KIND_INTERNAL, KIND_STEM, makeRef } from "./node-ref.js";
import { SlabRecycler, wordsOf } from "./slab-recycler.js";
import { LOG_CHUNK_BITS, LOG_CHUNK_MASK, type WriteLog } from "./write-log.js";

/** Scratch entries kept between builds; bigger buffers are dropped once a build is hashed. */
const KEPT = 1024;
/** At most this many internal nodes, the top levels of a bulk-built tree, go level by level. */
const TOP_NODES = 1 << 14;
/** Depths an internal node can have (0..247): two distinct stems differ within 248 bits. */
const LEVELS = 248;

/**
 * Builds the whole tree from a write log when the tree is empty, bottom-up from the keys in
 * stem order instead of one descent from the root per write. The tree of a set of stems is
 * fixed by the set (an internal node for every prefix at least two stems share; a stem sits one
 * below the longest prefix it shares with a neighbour), so the adjacent stems' common prefix
 * lengths give every node: the result is node for node the tree the writes one by one make,
 * with the same flags. The top internal levels are allocated level by level, the rest and the
 * stems in key order; the stems in key order and the internal nodes in the order their subtrees
 * complete are kept, so the next hash can go over them window by window instead of walking the
 * tree (`takeLayout`).
 */
export class BulkBuilder {
  readonly #arena: Arena;
  /** Stem indices in key order. */
  stems: Uint32Array = new Uint32Array(KEPT);
  stemCount = 0;
  /**
   * Internal node indices in the order their subtrees are complete (post-order: the stems in
   * key order, after each one the nodes its successor leaves, deepest first), with their depths.
   */
  closed: Uint32Array = new Uint32Array(KEPT);
  closedDepths: Uint8Array = new Uint8Array(KEPT);
  /** closedBy[s]: how many nodes are complete once stems 0..s-1 are; stemCount + 1 entries. */
  closedBy: Uint32Array = new Uint32Array(KEPT);
  /** Nodes per depth, then where each depth's nodes start in #top (build scratch). */
  readonly #levelStarts = new Uint32Array(LEVELS + 1);
  /** The top levels' nodes, allocated level by level before the stems place them. */
  #top = new Uint32Array(KEPT);
  readonly #cursor = new Uint32Array(LEVELS);
  readonly #open = new Uint32Array(LEVELS);
  readonly #recycler = new SlabRecycler();
  #pending = false;
  #stamp = 0;
  #root = EMPTY_REF;

  constructor(arena: Arena) {
    this.#arena = arena;
  }

  /**
   * Applies every write in `log` to the (empty) tree and clears the log; returns false, having
   * changed nothing, when the pools have no room for all the nodes (the one-by-one path then
   * applies what fits and keeps the rest, see applyWriteLog).
   */
  build(log: WriteLog): boolean {
    const arena = this.#arena;
    const { internals, stems } = arena;
    const n = log.count;
    // Entries in stem order, the stems recorded: every read below is sequential. The sort's
    // spare chunks, and then each log chunk once placed, become the pools' next slabs: memory
    // already touched instead of fresh pages (see SlabRecycler).
    const recycler = this.#recycler;
    recycler.donate(log.sortByStemInPlace());
    const { chunks, words } = log;
    const firsts = log.stemFirsts;
    const shared = log.stemShared;
    const count = log.stemCount;

    // Internal nodes per depth: a node at depth d starts wherever a run of neighbour pairs
    // sharing at least d bits starts.
    const starts = this.#levelStarts;
    starts.fill(0);
    let previous = -1;
    let total = 0;
    for (let s = 0; s + 1 < count; s++) {
      const bits = shared[s]!;
      for (let d = previous + 1; d <= bits; d++) starts[d + 1]!++;
      if (bits > previous) total += bits - previous;
      previous = bits;
    }
    if (stems.room < count || internals.room < total) {
      recycler.clear();
      return false;
    }
    stems.recycleFrom(recycler);
    internals.recycler = recycler;
    try {
      for (let d = 0; d < LEVELS; d++) starts[d + 1]! += starts[d]!;
      if (this.closed.length < total) {
        this.closed = words32(recycler, total);
        this.closedDepths = recycler.take((total + 3) & ~3, false) ?? new Uint8Array(total);
      }
      if (this.stems.length < count) this.stems = words32(recycler, count);
      if (this.closedBy.length < count + 1) this.closedBy = words32(recycler, count + 1);
      const { closed, closedDepths, closedBy } = this;
      const cursor = this.#cursor;
      // The top levels, level by level (a few thousand nodes every descent passes: they stay in
      // cache together); below them, in key order as the stems open them, so a subtree's nodes,
      // down to the chain above two close stems, sit together.
      let top = 0;
      while (top < LEVELS && starts[top + 1]! <= TOP_NODES) top++;
      if (this.#top.length < starts[top]!) this.#top = new Uint32Array(starts[top]!);
      const list = this.#top;
      for (let d = 0; d < top; d++) {
        for (let k = starts[d]!; k < starts[d + 1]!; k++) list[k] = internals.alloc(d, FLAGS_STALE);
        cursor[d] = starts[d]!;
      }

      // Stems in key order: open the nodes this stem starts, then place it below the deepest.
      const open = this.#open;
      previous = -1;
      let done = 0;
      closedBy[0] = 0;
      // Chunks of entries all placed go to the recycler: the pools' next slabs.
      let placed = 0;
      for (let s = 0; s < count; s++) {
        const first = firsts[s]!;
        while (placed < first >>> LOG_CHUNK_BITS) recycler.donateOne(log.giveAway(placed++));
        const bytes = chunks[first >>> LOG_CHUNK_BITS]!;
        const at = (first & LOG_CHUNK_MASK) << 6;
        const next = s + 1 < count ? shared[s]! : -1;
        for (let d = previous + 1; d <= next; d++) {
          const node = d < top ? list[cursor[d]!++]! : internals.alloc(d, FLAGS_STALE);
          open[d] = node;
          this.#link(bytes, at, d, makeRef(KIND_INTERNAL, node));
        }
        const depth = Math.max(previous, next) + 1;
        let stem: number;
        if (firsts[s + 1]! - first === 1) {
          const entryWords = words[first >>> LOG_CHUNK_BITS]!;
          stem = stems.allocWithValue(entryWords, at >>> 2, bytes[at + 31]!, depth, FLAGS_STALE);
        } else {
          stem = stems.alloc(bytes, at, depth, FLAGS_STALE);
          for (let e = first; e < firsts[s + 1]!; e++) {
            const entryBytes = chunks[e >>> LOG_CHUNK_BITS]!;
            const entry = (e & LOG_CHUNK_MASK) << 6;
            stems.setValue(stem, entryBytes[entry + 31]!, entryBytes, entry + 32);
          }
        }
        this.#link(bytes, at, depth, makeRef(KIND_STEM, stem));
        this.stems[s] = stem;
        // The next stem leaves every open node deeper than what it shares with this one.
        for (let d = depth - 1; d > next; d--) {
          closed[done] = open[d]!;
          closedDepths[done++] = d;
        }
        closedBy[s + 1] = done;
        previous = next;
      }
    } finally {
      stems.recycleFrom(undefined);
      internals.recycler = undefined;
      recycler.clear();
    }
    this.stemCount = count;
    arena.mutations += n;
    // The new nodes are not in the stale log: unless the next hash takes the layout, it walks.
    arena.staleLog.invalidate();
    log.clear();
    this.#pending = true;
    this.#stamp = arena.mutations;
    this.#root = arena.root;
    return true;
  }

  /**
   * True once after a build when the tree is still exactly what it made (nothing written,
   * split, removed or reverted since): the lists then name every stale node.
   */
  takeLayout(): boolean {
    if (!this.#pending) return false;
    this.#pending = false;
    if (this.#stamp === this.#arena.mutations && this.#root === this.#arena.root) return true;
    this.release();
    return false;
  }

  /** Drops the node lists of the last build (a tree is bulk-built once; they can be large). */
  release(): void {
    this.#pending = false;
    this.stemCount = 0;
    if (this.stems.length > KEPT) this.stems = new Uint32Array(KEPT);
    if (this.closed.length > KEPT) {
      this.closed = new Uint32Array(KEPT);
      this.closedDepths = new Uint8Array(KEPT);
    }
    if (this.closedBy.length > KEPT) this.closedBy = new Uint32Array(KEPT);
    if (this.#top.length > KEPT) this.#top = new Uint32Array(KEPT);
  }

  /** Links the node at `depth` on the path of the stem at bytes[at] to its parent (or the root). */
  #link(bytes: Uint8Array, at: number, depth: number, ref: number): void {
    if (depth === 0) {
      this.#arena.root = ref;
      return;
    }
    const d = depth - 1;
    const bit = (bytes[at + (d >>> 3)]! >>> (7 - (d & 7))) & 1;
    this.#arena.internals.setChild(this.#open[d]!, bit, ref);
  }
}

/** A Uint32Array of `length` words (written before read), recycled memory when there is some. */
function words32(recycler: SlabRecycler, length: number): Uint32Array {
  const bytes = recycler.take(length * 4, false);
  return bytes !== undefined ? wordsOf(bytes) : new Uint32Array(length);
}
