import type { Arena } from "./arena.js";
import { EMPTY_REF, FLAGS_STALE, KIND_INTERNAL, KIND_STEM, makeRef } from "./node-ref.js";
import { sharedPrefixBits } from "./tree-walker.js";
import type { WriteLog } from "./write-log.js";

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
 * stems in key order; the lists of every level's nodes are kept so the next hash can go level by
 * level over them instead of walking the tree (`takeLayout`).
 */
export class BulkBuilder {
  readonly #arena: Arena;
  /** Position (in the sorted order) of each stem's first write; stemCount + 1 entries. */
  #firsts = new Uint32Array(KEPT);
  /** Bits stem s shares with stem s + 1. */
  #shared = new Uint8Array(KEPT);
  /** Stem indices in key order. */
  stems = new Uint32Array(KEPT);
  stemCount = 0;
  /** Internal node indices, level by level from the root down; level d is levelStarts[d]..[d+1]. */
  internals = new Uint32Array(KEPT);
  readonly levelStarts = new Uint32Array(LEVELS + 1);
  readonly #cursor = new Uint32Array(LEVELS);
  readonly #open = new Uint32Array(LEVELS);
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
    const order = log.sortedByStem();
    const digits = log.sortedDigits;
    const bytes = log.bytes;
    if (this.#firsts.length < n + 1) {
      this.#firsts = new Uint32Array(n + 1);
      this.#shared = new Uint8Array(n);
    }
    const firsts = this.#firsts;
    const shared = this.#shared;
    let count = 1;
    firsts[0] = 0;
    for (let i = 1; i < n; i++) {
      // Neighbours that differ in their first 4 bytes (nearly all, for hashed keys) share what
      // their digits share: no need to read the entries.
      const x = digits[i - 1]! ^ digits[i]!;
      const bits =
        x !== 0 ? Math.clz32(x) : sharedPrefixBits(bytes, order[i - 1]! << 6, order[i]! << 6);
      if (bits === 248) continue;
      shared[count - 1] = bits;
      firsts[count++] = i;
    }
    firsts[count] = n;

    // Internal nodes per depth: a node at depth d starts wherever a run of neighbour pairs
    // sharing at least d bits starts.
    const starts = this.levelStarts;
    starts.fill(0);
    let previous = -1;
    let total = 0;
    for (let s = 0; s + 1 < count; s++) {
      const bits = shared[s]!;
      for (let d = previous + 1; d <= bits; d++) starts[d + 1]!++;
      if (bits > previous) total += bits - previous;
      previous = bits;
    }
    if (stems.room < count || internals.room < total) return false;
    for (let d = 0; d < LEVELS; d++) starts[d + 1]! += starts[d]!;
    if (this.internals.length < total) this.internals = new Uint32Array(total);
    if (this.stems.length < count) this.stems = new Uint32Array(count);
    const list = this.internals;
    const cursor = this.#cursor;
    // The top levels, level by level (a few thousand nodes every descent passes: they stay in
    // cache together); below them, in key order as the stems open them, so a subtree's nodes,
    // down to the chain above two close stems, sit together.
    let top = 0;
    while (top < LEVELS && starts[top + 1]! <= TOP_NODES) top++;
    for (let d = 0; d < LEVELS; d++) {
      if (d < top) {
        for (let k = starts[d]!; k < starts[d + 1]!; k++) list[k] = internals.alloc(d, FLAGS_STALE);
      }
      cursor[d] = starts[d]!;
    }

    // Stems in key order: open the nodes this stem starts, then place it below the deepest.
    const open = this.#open;
    previous = -1;
    for (let s = 0; s < count; s++) {
      const at = order[firsts[s]!]! << 6;
      const next = s + 1 < count ? shared[s]! : -1;
      for (let d = previous + 1; d <= next; d++) {
        const slot = cursor[d]!;
        cursor[d]!++;
        const node = d < top ? list[slot]! : internals.alloc(d, FLAGS_STALE);
        list[slot] = node;
        open[d] = node;
        this.#link(bytes, at, d, makeRef(KIND_INTERNAL, node));
      }
      const depth = Math.max(previous, next) + 1;
      const stem = stems.alloc(bytes, at, depth, FLAGS_STALE);
      this.#link(bytes, at, depth, makeRef(KIND_STEM, stem));
      for (let e = firsts[s]!; e < firsts[s + 1]!; e++) {
        const entry = order[e]! << 6;
        stems.setValue(stem, bytes[entry + 31]!, bytes, entry + 32);
      }
      this.stems[s] = stem;
      previous = next;
    }
    this.stemCount = count;
    if (firsts.length > KEPT) {
      this.#firsts = new Uint32Array(KEPT);
      this.#shared = new Uint8Array(KEPT);
    }
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
    this.levelStarts.fill(0);
    if (this.stems.length > KEPT) this.stems = new Uint32Array(KEPT);
    if (this.internals.length > KEPT) this.internals = new Uint32Array(KEPT);
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
