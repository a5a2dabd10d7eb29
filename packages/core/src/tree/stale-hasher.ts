import type { Hasher } from "../hash/hasher.js";
import { type OneValueStemHashes, oneValueStemHashes } from "../hash/one-value-stems.js";
import { StemSubtreeFold } from "../hash/stem-subtree-fold.js";
import { copy8 } from "../hash/word-copy.js";
import type { Arena } from "./arena.js";
import type { BulkBuilder, BulkWindowHasher } from "./bulk-builder.js";
import { NodeDepthList } from "./node-depth-list.js";
import { FLAG_HASH_STALE, KIND_INTERNAL, KIND_STEM, refIndex, refKind } from "./node-ref.js";
import { CHUNK_BITS, CHUNK_MASK } from "./pool-chunks.js";
import { U32Stack } from "./u32-stack.js";

/** Stems hashed per batch round: bounds scratch memory whatever the tree size. */
const STEM_BATCH = 4096;
/** Internal nodes hashed per batch call. */
const INTERNAL_BATCH = 8192;
const MAX_TREE_DEPTH = 248;

/**
 * Recomputes the hashes of stale nodes only. It gathers the stale nodes, hashes all stale
 * stems in batches (leaf values, then the 8 fold levels, then stem‖0‖root, each level one
 * batch call), then the stale internal nodes deepest level first, one batch call per level.
 * All scratch buffers are reused across calls, and copies go word by word through Uint32
 * views of the pools, so hashing allocates nothing per node.
 */
export class StaleHasher implements BulkWindowHasher {
  readonly #arena: Arena;
  readonly #hasher: Hasher;
  readonly #stack = new U32Stack(256);
  readonly #internals = new NodeDepthList(1024);
  readonly #sorted = new U32Stack(1024);
  readonly #stems = new U32Stack(1024);
  readonly #depthCounts = new Uint32Array(MAX_TREE_DEPTH + 1);
  readonly #depthStarts = new Uint32Array(MAX_TREE_DEPTH + 1);
  readonly #fold = new StemSubtreeFold();
  readonly #oneValue: OneValueStemHashes;
  /** Stems of a hashStems call that hold other than one value, and the one-value ones in record order. */
  #others = new Uint32Array(1024);
  #singles = new Uint32Array(1024);
  #msg = new Uint8Array(64 * 1024);
  /** Child refs of the nodes of one internal batch. */
  #refs = new Uint32Array(2048);
  #msg32 = new Uint32Array(this.#msg.buffer);

  readonly #bulk: BulkBuilder | undefined;

  /** `bulk`: the tree's bulk builder, whose node lists replace the walk right after a build. */
  constructor(arena: Arena, hasher: Hasher, bulk?: BulkBuilder) {
    this.#arena = arena;
    this.#hasher = hasher;
    this.#oneValue = oneValueStemHashes(hasher);
    this.#bulk = bulk;
  }

  get hasher(): Hasher {
    return this.#hasher;
  }

  /** Brings every cached hash in the tree up to date. */
  hashStale(): void {
    const arena = this.#arena;
    const log = arena.staleLog;
    if (this.#bulk?.takeLayout()) {
      this.#hashBulkLayout(this.#bulk);
      this.#bulk.release();
      log.restart();
      return;
    }
    this.#internals.clear();
    this.#stems.clear();
    if (log.valid) this.#gatherLogged();
    else this.#gatherByWalk();
    this.#hashGathered();
    log.restart();
  }

  /** The stale nodes as the writes recorded them (see StaleLog), without reading the nodes. */
  #gatherLogged(): void {
    const { staleLog } = this.#arena;
    const stems = staleLog.stems;
    const staleStems = this.#stems;
    staleStems.ensureCapacity(stems.length);
    staleStems.data.set(stems.data.subarray(0, stems.length));
    staleStems.length = stems.length;
    // Block copies, not a call per node: the first update after a bulk build runs this before
    // V8 has optimised it.
    const nodes = staleLog.internals;
    this.#internals.assign(nodes.data, staleLog.depths.data, nodes.length);
  }

  /** The stale nodes found by a walk from the root over stale internal nodes. */
  #gatherByWalk(): void {
    const arena = this.#arena;
    const { internals, stems } = arena;
    const stack = this.#stack;
    const staleStems = this.#stems;
    stack.clear();
    stack.push(arena.root);
    while (stack.length > 0) {
      const ref = stack.pop();
      const kind = refKind(ref);
      const index = refIndex(ref);
      if (kind === KIND_INTERNAL) {
        if ((internals.getFlags(index) & FLAG_HASH_STALE) === 0) continue;
        this.#internals.push(index, internals.getDepth(index));
        stack.push(internals.getRight(index));
        stack.push(internals.getLeft(index));
      } else if (kind === KIND_STEM) {
        if ((stems.getFlags(index) & FLAG_HASH_STALE) !== 0) staleStems.push(index);
      }
    }
  }

  #hashGathered(): void {
    const staleStems = this.#stems;
    // Pool order is allocation order: visiting stems by index turns random pool accesses into
    // nearly sequential ones (the stem records, their value blocks and hash slots).
    staleStems.data.subarray(0, staleStems.length).sort();
    for (let start = 0; start < staleStems.length; start += STEM_BATCH) {
      const end = Math.min(staleStems.length, start + STEM_BATCH);
      this.hashStems(staleStems.data, start, end);
    }
    const stale = this.#internals;
    this.#hashDeepestFirst(stale.nodes.data, stale.depths, 0, stale.length);
  }

  /**
   * Hashes the stems listed in list[start..end) and stores their hashes; clears their flag.
   * One-value stems (nearly all of a hashed-key tree) go as 64-byte records (stem ‖ subindex ‖
   * value) through one fused call; the others through the subtree fold.
   */
  hashStems(list: Uint32Array, start: number, end: number): void {
    const rest = this.#hashOneValueStems(list, start, end);
    if (rest > 0) this.#hashFolded(this.#others, 0, rest);
  }

  /** Hashes the one-value stems of list[start..end); the others go to #others, their count returned. */
  #hashOneValueStems(list: Uint32Array, start: number, end: number): number {
    const { stems } = this.#arena;
    const heap = stems.values;
    const n = end - start;
    this.#ensureScratch(n);
    if (this.#others.length < n) {
      this.#others = new Uint32Array(n);
      this.#singles = new Uint32Array(n);
    }
    const others = this.#others;
    const singles = this.#singles;
    const records = this.#msg;
    const records32 = this.#msg32;
    let m = 0;
    let rest = 0;
    for (let s = start; s < end; s++) {
      const index = list[s]!;
      if (stems.getCount(index) !== 1) {
        others[rest++] = index;
        continue;
      }
      const address = stems.blockAddress(index);
      const at = m << 4;
      copy8(stems.stem32[index >>> CHUNK_BITS]!, (index & CHUNK_MASK) << 3, records32, at);
      copy8(heap.page32(address), heap.offset(address) >>> 2, records32, at + 8);
      records[(m << 6) + 31] = heap.subsPage(address)[heap.slot(address)]!;
      singles[m++] = index;
    }
    if (m > 0) this.hashStemRecords(records, records32, singles, m);
    return rest;
  }

  /** Hashes the stems list[start..end) through the subtree fold. */
  #hashFolded(list: Uint32Array, start: number, end: number): void {
    const { stems } = this.#arena;
    const heap = stems.values;
    const n = end - start;
    let total = 0;
    for (let s = start; s < end; s++) total += stems.getCount(list[s]!);
    const fold = this.#fold;
    fold.reserve(n, total);
    const leaves = fold.leaves32;
    const starts = fold.starts;
    let v = 0;
    for (let s = 0; s < n; s++) {
      const index = list[start + s]!;
      starts[s] = v;
      const count = stems.getCount(index);
      if (count > 0) {
        const address = stems.blockAddress(index);
        const page = heap.page32(address);
        const at = heap.offset(address) >>> 2;
        for (let k = 0; k < count; k++) copy8(page, at + (k << 3), leaves, (v + k) << 3);
        stems.presentSubindices(index, fold.subindices, v);
      }
      v += count;
    }
    starts[n] = v;
    fold.fold(this.#hasher, n);

    // Stem hash = H(stem ‖ 0x00 ‖ subtree root); byte 31 of a stem slot is always 0.
    this.#ensureScratch(n);
    const msg32 = this.#msg32;
    for (let s = 0; s < n; s++) {
      const index = list[start + s]!;
      const stem = stems.stem32[index >>> CHUNK_BITS]!;
      const at = (index & CHUNK_MASK) << 3;
      const dst = s << 4;
      copy8(stem, at, msg32, dst);
      fold.writeRoot(s, msg32, dst + 8);
    }
    this.#hasher.hash64Batch(this.#msg, 0, n, this.#msg, 0);
    for (let s = 0; s < n; s++) {
      const index = list[start + s]!;
      copy8(msg32, s << 3, stems.hash32[index >>> CHUNK_BITS]!, (index & CHUNK_MASK) << 3);
      stems.clearFlags(index, FLAG_HASH_STALE);
    }
  }

  /**
   * Hashes `count` one-value stem records (stem ‖ subindex ‖ value) at src[srcOffset..] into the
   * hash slots of stems first..first + count - 1, which share a pool chunk (a bulk build's
   * window: the records are its sorted write-log entries). Their flags are the caller's.
   */
  hashRecordRun(src: Uint8Array, srcOffset: number, count: number, first: number): void {
    const { stems } = this.#arena;
    const slots = stems.hash[first >>> CHUNK_BITS]!;
    this.#oneValue.hashOneValueStems(src, srcOffset, count, slots, (first & CHUNK_MASK) << 5);
  }

  /**
   * Hashes `count` one-value stem records (stem ‖ subindex ‖ value, 64 bytes each) at records[0..]
   * (`records32`: their word view) into the hash slots of stems[0..count) and clears their flag;
   * overwrites the records.
   */
  hashStemRecords(
    records: Uint8Array,
    records32: Uint32Array,
    stems: Uint32Array,
    count: number,
  ): void {
    const pool = this.#arena.stems;
    this.#oneValue.hashOneValueStems(records, 0, count, records, 0);
    // The digests land in place, 32 bytes each: digest j at records[32 j].
    for (let j = 0; j < count; j++) {
      const index = stems[j]!;
      copy8(records32, j << 3, pool.hash32[index >>> CHUNK_BITS]!, (index & CHUNK_MASK) << 3);
    }
    pool.clearFlagsOf(stems, count, FLAG_HASH_STALE);
  }

  /**
   * Hashes the internal nodes nodes[from..to) (see #hashDeepestFirst): a bulk build's window, or
   * the nodes a flush's writes closed (see ClosingHasher).
   */
  hashInternals(nodes: Uint32Array, depths: Uint8Array, from: number, to: number): void {
    this.#hashDeepestFirst(nodes, depths, from, to);
  }

  /** Hashes one stem now (used to verify stems decoded from the store). */
  hashStem(index: number): void {
    const one = this.#stack;
    one.clear();
    one.push(index);
    this.hashStems(one.data, 0, 1);
  }

  /**
   * Hashes a tree just made by the bulk builder window by window in key order: a batch of stems,
   * then the internal nodes those stems complete (their children are all hashed by then),
   * deepest first, while the window's nodes and hashes are still in cache.
   */
  #hashBulkLayout(bulk: BulkBuilder): void {
    const { stems, closed, closedDepths, closedBy } = bulk;
    const count = bulk.stemCount;
    for (let start = 0; start < count; start += STEM_BATCH) {
      const end = Math.min(count, start + STEM_BATCH);
      this.hashStems(stems, start, end);
      this.#hashDeepestFirst(closed, closedDepths, closedBy[start]!, closedBy[end]!);
    }
  }

  /**
   * Hashes the internal nodes nodes[from..to) (depth of nodes[k] in depths[k]; each one's
   * children hashed already or listed too), deepest first: a counting sort by depth, then one
   * batch call per run of equal depth. A bulk build's windows and every incremental hash run
   * this one function, so the first update after a build runs optimised code here.
   */
  #hashDeepestFirst(nodes: Uint32Array, depths: Uint8Array, from: number, to: number): void {
    if (to === from) return;
    const counts = this.#depthCounts;
    const next = this.#depthStarts;
    counts.fill(0);
    let deepest = 0;
    for (let k = from; k < to; k++) {
      const d = depths[k]!;
      counts[d]!++;
      if (d > deepest) deepest = d;
    }
    let acc = 0;
    for (let d = deepest; d >= 0; d--) {
      next[d] = acc;
      acc += counts[d]!;
    }
    const sorted = this.#sorted;
    sorted.ensureCapacity(to - from);
    const list = sorted.data;
    for (let k = from; k < to; k++) list[next[depths[k]!]!++] = nodes[k]!;
    let k = 0;
    for (let d = deepest; d >= 0; d--) {
      const runEnd = k + counts[d]!;
      while (k < runEnd) {
        const batchEnd = Math.min(runEnd, k + INTERNAL_BATCH);
        this.#hashInternalRun(list, k, batchEnd);
        k = batchEnd;
      }
    }
  }

  #hashInternalRun(list: Uint32Array, start: number, end: number): void {
    const arena = this.#arena;
    const { internals } = arena;
    const n = end - start;
    this.#ensureScratch(n);
    const msg32 = this.#msg32;
    // Child refs first, in a loop of independent loads (each a likely cache miss on a large
    // tree) that overlap; then the children's hashes, again independent of each other.
    if (this.#refs.length < 2 * n)
      this.#refs = new Uint32Array(Math.max(2 * n, 2 * this.#refs.length));
    const refs = this.#refs;
    internals.readChildren(list, start, end, refs);
    // As int32s (`| 0`, which writeHashWords reads alike): a stem's ref is 2^31 or more, which
    // V8 boxes as a heap object when the call is not inlined (one per stem of a build).
    for (let k = 0; k < n; k++) {
      arena.writeHashWords(refs[2 * k]! | 0, msg32, k << 4);
      arena.writeHashWords(refs[2 * k + 1]! | 0, msg32, (k << 4) + 8);
    }
    this.#hasher.hash64Batch(this.#msg, 0, n, this.#msg, 0);
    const hashes = internals.hash32;
    for (let k = 0; k < n; k++) {
      const index = list[start + k]!;
      copy8(msg32, k << 3, hashes[index >>> CHUNK_BITS]!, (index & CHUNK_MASK) << 3);
    }
    internals.clearFlagsOf(list, start, end, FLAG_HASH_STALE);
  }

  #ensureScratch(messages: number): void {
    if (this.#msg.length < messages * 64) {
      this.#msg = new Uint8Array(Math.max(messages * 64, this.#msg.length * 2));
      this.#msg32 = new Uint32Array(this.#msg.buffer);
    }
  }
}
