import type { Arena } from "./arena.js";
import {
  EMPTY_REF,
  FLAG_BLOB_STALE,
  FLAGS_STALE,
  KIND_INTERNAL,
  KIND_STEM,
  makeRef,
} from "./node-ref.js";
import { CHUNK_MASK } from "./pool-chunks.js";
import { SlabRecycler, wordsOf } from "./slab-recycler.js";
import { LOG_CHUNK_BITS, LOG_CHUNK_MASK, type WriteLog } from "./write-log.js";

/** Scratch entries kept between builds; bigger buffers are dropped once a build is hashed. */
const KEPT = 1024;
/**
 * Stems per window when a build hashes as it places (see BulkBuilder.hashNext). A window's
 * entries (64 B per stem), stem and node hashes (32 B each) and the kernel's buffers stay in
 * a 512 KiB L2 at 1024; at 4096 they spill (1M-key build 5–12 % slower in CPU, alternating A/B).
 */
const WINDOW = 1024;
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
/**
 * What hashes a build's nodes while it places them (the tree's StaleHasher), window by window:
 * the one-value stems straight from the sorted write-log entries (each is the 64-byte record
 * stem ‖ subindex ‖ value the fused stem kernel reads), the other stems, then the internal nodes
 * the window completes.
 */
export interface BulkWindowHasher {
  /**
   * Hashes `count` one-value stem records at src[srcOffset..] into the hash slots of the stems
   * first..first + count - 1 (one pool chunk).
   */
  hashRecordRun(src: Uint8Array, srcOffset: number, count: number, first: number): void;
  /** Hashes the stems list[start..end) and clears their flag. */
  hashStems(list: Uint32Array, start: number, end: number): void;
  /** Hashes the internal nodes nodes[from..to) (depths in depths[k]), deepest first. */
  hashInternals(nodes: Uint32Array, depths: Uint8Array, from: number, to: number): void;
}

export class BulkBuilder {
  readonly #arena: Arena;
  /** Set (by the tree) to hash during the build: see hashNext. */
  windows: BulkWindowHasher | undefined = undefined;
  /**
   * Set while the caller hashes right after the build (the tree's hash()): the build then hashes
   * every node window by window as it places them, while the entries and nodes are in cache,
   * and leaves no layout (nothing is stale). A build for anything else (a read, a full log)
   * leaves the hashing to the next hash(), which may never come or find the nodes rewritten.
   */
  hashNext = false;
  /** Stems per window when hashing, a window's stems (pool indices), and its other-than-one-value ones. */
  readonly #window: number;
  readonly #windowStems: Uint32Array;
  readonly #windowOthers: Uint32Array;
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
  /**
   * Nodes per depth d at [d + 1], then where each depth's nodes start in #top (build scratch;
   * one more entry for the range ends of the count).
   */
  readonly #levelStarts = new Int32Array(LEVELS + 2);
  /** The top levels' nodes, allocated level by level before the stems place them. */
  #top = new Uint32Array(KEPT);
  readonly #cursor = new Uint32Array(LEVELS);
  readonly #open = new Uint32Array(LEVELS);
  readonly #recycler = new SlabRecycler();
  #pending = false;
  #stamp = 0;
  #root = EMPTY_REF;
  // State of the build in progress between the #place calls of its windows.
  #placedRoot = EMPTY_REF;
  #topLevels = 0;
  #previous = -1;
  #done = 0;
  #placed = 0;

  /** `window`: stems per window when hashing (tests lower it to reach window and run edges). */
  constructor(arena: Arena, window: number = WINDOW) {
    this.#arena = arena;
    this.#window = window;
    this.#windowStems = new Uint32Array(window);
    this.#windowOthers = new Uint32Array(window);
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
    const shared = log.stemShared;
    const count = log.stemCount;

    // Internal nodes per depth: a node at depth d starts wherever a run of neighbour pairs
    // sharing at least d bits starts, so a pair sharing more than the one before starts one at
    // each depth in between: counted as a range (+1 where it starts, -1 past its end), summed
    // below, instead of once per node.
    const starts = this.#levelStarts;
    starts.fill(0);
    let total = 0;
    for (let from = 0; from + 1 < count; from += this.#window) {
      total += this.#countLevels(shared, from, Math.min(count - 1, from + this.#window));
    }
    for (let d = 1; d <= LEVELS; d++) starts[d]! += starts[d - 1]!;
    if (stems.room < count || internals.room < total) {
      recycler.clear();
      return false;
    }
    const windows = this.hashNext ? this.windows : undefined;
    stems.recycleFrom(recycler);
    internals.recycler = recycler;
    this.#placedRoot = EMPTY_REF;
    try {
      for (let d = 0; d < LEVELS; d++) starts[d + 1]! += starts[d]!;
      // Hashing as it goes, the lists hold one window (the nodes it completes: at most LEVELS
      // per stem, so they grow when a stem could overflow them); otherwise the whole build.
      const listLength = windows !== undefined ? Math.min(total, 2 * this.#window + LEVELS) : total;
      if (this.closed.length < listLength) {
        this.closed = words32(recycler, listLength);
        this.closedDepths =
          recycler.take((listLength + 3) & ~3, false) ?? new Uint8Array(listLength);
      }
      if (windows === undefined) {
        if (this.stems.length < count) this.stems = words32(recycler, count);
        if (this.closedBy.length < count + 1) this.closedBy = words32(recycler, count + 1);
        this.closedBy[0] = 0;
      }
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
      this.#topLevels = top;
      this.#previous = -1;
      this.#done = 0;
      this.#placed = 0;
      // A window at a time, each placed (and hashed) by a call of its own: the placement runs
      // optimised code from a build's first window on, where one loop over all the stems, run
      // once per build, would start over from the interpreter and wait for on-stack replacement.
      for (let from = 0; from < count; from += this.#window) {
        const to = Math.min(count, from + this.#window);
        this.#place(log, from, to, windows !== undefined);
        if (windows !== undefined) {
          this.#hashWindow(windows, log, from, to);
          windows.hashInternals(this.closed, this.closedDepths, 0, this.#done);
          this.#done = 0;
        }
      }
    } finally {
      arena.root = this.#placedRoot;
      stems.recycleFrom(undefined);
      internals.recycler = undefined;
      recycler.clear();
    }
    arena.mutations += n;
    // The new nodes are not in the stale log: unless the next hash takes the layout (or finds
    // the tree hashed), it walks.
    arena.staleLog.invalidate();
    log.clear();
    if (windows !== undefined) {
      this.release();
      return true;
    }
    this.stemCount = count;
    this.#pending = true;
    this.#stamp = arena.mutations;
    this.#root = arena.root;
    return true;
  }

  /**
   * Counts the internal nodes the neighbour pairs from..to-1 start (pair s: stems s and s + 1,
   * sharing shared[s] bits) into #levelStarts as ranges; returns how many. A call per window,
   * as #place.
   */
  #countLevels(shared: Uint8Array, from: number, to: number): number {
    const starts = this.#levelStarts;
    let previous = from === 0 ? -1 : shared[from - 1]!;
    let total = 0;
    for (let s = from; s < to; s++) {
      const bits = shared[s]!;
      if (bits > previous) {
        starts[previous + 2]!++;
        starts[bits + 2]!--;
        total += bits - previous;
      }
      previous = bits;
    }
    return total;
  }

  /**
   * Places the stems from..to-1 of the build in progress in key order: opens the internal
   * nodes each stem starts, places it below the deepest, and records the nodes its successor
   * leaves complete. With `hashing`, stems from..to-1 are one window: their indices go to
   * #windowStems and the log chunks before the window's first entry to the recycler.
   */
  #place(log: WriteLog, from: number, to: number, hashing: boolean): void {
    const { internals, stems } = this.#arena;
    const { chunks, words } = log;
    const firsts = log.stemFirsts;
    const shared = log.stemShared;
    const count = log.stemCount;
    const recycler = this.#recycler;
    const list = this.#top;
    const top = this.#topLevels;
    const cursor = this.#cursor;
    const open = this.#open;
    const windowStems = this.#windowStems;
    const keyOrder = this.stems;
    const { closedBy } = this;
    let { closed, closedDepths } = this;
    // A one-value stem hashed in its window is allocated with its hash up to date.
    const stemFlags = hashing ? FLAG_BLOB_STALE : FLAGS_STALE;
    let previous = this.#previous;
    let done = this.#done;
    // Chunks of entries all placed (and hashed, when hashing) go to the recycler: the pools'
    // next slabs.
    let placed = this.#placed;
    for (let s = from; s < to; s++) {
      const first = firsts[s]!;
      const read = hashing ? firsts[from]! : first;
      while (placed < read >>> LOG_CHUNK_BITS) recycler.donateOne(log.giveAway(placed++));
      if (hashing && done + LEVELS > closed.length) {
        closed = grow32(closed, done);
        closedDepths = grow8(closedDepths, done);
        this.closed = closed;
        this.closedDepths = closedDepths;
      }
      const bytes = chunks[first >>> LOG_CHUNK_BITS]!;
      const at = (first & LOG_CHUNK_MASK) << 6;
      const next = s + 1 < count ? shared[s]! : -1;
      for (let d = previous + 1; d <= next; d++) {
        const node = d < top ? list[cursor[d]!++]! : internals.alloc(d, FLAGS_STALE);
        open[d] = node;
        if (d === 0) this.#placedRoot = makeRef(KIND_INTERNAL, node);
        else this.#link(bytes, at, d, makeRef(KIND_INTERNAL, node) | 0);
      }
      const depth = Math.max(previous, next) + 1;
      let stem: number;
      if (firsts[s + 1]! - first === 1) {
        const entryWords = words[first >>> LOG_CHUNK_BITS]!;
        stem = stems.allocWithValue(entryWords, at >>> 2, bytes[at + 31]!, depth, stemFlags);
      } else {
        stem = stems.alloc(bytes, at, depth, FLAGS_STALE);
        for (let e = first; e < firsts[s + 1]!; e++) {
          const entryBytes = chunks[e >>> LOG_CHUNK_BITS]!;
          const entry = (e & LOG_CHUNK_MASK) << 6;
          stems.setValue(stem, entryBytes[entry + 31]!, entryBytes, entry + 32);
        }
      }
      if (depth === 0) this.#placedRoot = makeRef(KIND_STEM, stem);
      else this.#link(bytes, at, depth, makeRef(KIND_STEM, stem) | 0);
      // The next stem leaves every open node deeper than what it shares with this one.
      for (let d = depth - 1; d > next; d--) {
        closed[done] = open[d]!;
        closedDepths[done++] = d;
      }
      previous = next;
      if (hashing) {
        windowStems[s - from] = stem;
      } else {
        keyOrder[s] = stem;
        closedBy[s + 1] = done;
      }
    }
    this.#previous = previous;
    this.#done = done;
    this.#placed = placed;
  }

  /**
   * Hashes the stems from..to-1 of the build in progress (their pool indices in #windowStems):
   * runs of one-value stems whose entries sit together in one log chunk and whose slots follow
   * each other in one pool chunk go to the stem kernel straight from the entries; the others
   * through the window hasher's stem path.
   */
  #hashWindow(windows: BulkWindowHasher, log: WriteLog, from: number, to: number): void {
    const firsts = log.stemFirsts;
    const { chunks } = log;
    const list = this.#windowStems;
    const others = this.#windowOthers;
    let rest = 0;
    let s = from;
    while (s < to) {
      const entry = firsts[s]!;
      const index = list[s - from]!;
      if (firsts[s + 1]! - entry !== 1) {
        others[rest++] = index;
        s++;
        continue;
      }
      const chunk = entry >>> LOG_CHUNK_BITS;
      let end = s + 1;
      while (
        end < to &&
        firsts[end + 1]! - firsts[end]! === 1 &&
        firsts[end]! >>> LOG_CHUNK_BITS === chunk &&
        list[end - from]! === index + (end - s) &&
        ((index + (end - s)) & CHUNK_MASK) !== 0
      ) {
        end++;
      }
      windows.hashRecordRun(chunks[chunk]!, (entry & LOG_CHUNK_MASK) << 6, end - s, index);
      s = end;
    }
    if (rest > 0) windows.hashStems(others, 0, rest);
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

  /**
   * Links the node at `depth` (at least 1) on the path of the stem at bytes[at] to its parent.
   * `ref` comes as an int32 (`| 0`): a stem's ref is at least 2^31, which as a uint32 would be
   * boxed, a heap number per stem; the pools store the same 32 bits either way.
   */
  #link(bytes: Uint8Array, at: number, depth: number, ref: number): void {
    const d = depth - 1;
    const bit = (bytes[at + (d >>> 3)]! >>> (7 - (d & 7))) & 1;
    this.#arena.internals.setChild(this.#open[d]!, bit, ref);
  }
}

/** A copy of list[0..used) with room for LEVELS more at least (twice the room, or more). */
function grow32(list: Uint32Array, used: number): Uint32Array {
  const grown = new Uint32Array(Math.max(list.length * 2, used + LEVELS));
  grown.set(list.subarray(0, used));
  return grown;
}

function grow8(list: Uint8Array, used: number): Uint8Array {
  const grown = new Uint8Array(Math.max(list.length * 2, used + LEVELS));
  grown.set(list.subarray(0, used));
  return grown;
}

/** A Uint32Array of `length` words (written before read), recycled memory when there is some. */
function words32(recycler: SlabRecycler, length: number): Uint32Array {
  const bytes = recycler.take(length * 4, false);
  return bytes !== undefined ? wordsOf(bytes) : new Uint32Array(length);
}
