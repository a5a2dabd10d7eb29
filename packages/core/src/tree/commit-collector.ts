import { encodeGroupBlobInto, encodePathKey, groupBlobSize, MAX_GROUP_DEPTH } from "@bintrie/codec";
import { fnv1a } from "../bytes/fnv1a.js";
import { copy8 } from "../hash/word-copy.js";
import type { Arena } from "./arena.js";
import {
  CommitMarks,
  cleanWrittenInner,
  cleanWrittenNode,
  cleanWrittenStem,
  INNER_WRITTEN,
} from "./commit-marks.js";
import { CACHED_GROUP_MIN_ENTRIES, type GroupBlobCache } from "./group-blob-cache.js";
import {
  FLAG_BLOB_STALE,
  FLAG_STALE_LEFT,
  FLAG_STALE_RIGHT,
  KIND_EMPTY,
  KIND_INTERNAL,
  KIND_STEM,
  type NodeRef,
  refIndex,
  refKind,
} from "./node-ref.js";
import { PACKED_ENTRY_WORDS, PackedNodeSet } from "./node-set.js";
import { PackedWrites } from "./packed-writes.js";
import { CHUNK_BITS, CHUNK_MASK } from "./pool-chunks.js";
import { TreeError } from "./tree-error.js";

/** Scratch for one group blob; one per group level, since group collection nests. */
class GroupScratch {
  count = 0;
  readonly positions: Uint16Array;
  readonly depthOffsets: Uint8Array;
  readonly hashes: Uint8Array;
  readonly hashes32: Uint32Array;
  /** The entries whose own blob is stale (the only ones the commit descends into). */
  staleCount = 0;
  readonly children: Uint32Array;
  readonly childDepths: Uint8Array;
  readonly childPaths: Uint8Array;
  readonly childPaths32: Uint32Array;
  /** Cached groups: where each stale entry's hash sits in the slot's page (patched at emit). */
  readonly hashAt: Uint32Array;
  /** Views of `hashes` holding exactly n entries, made once each (see hashesOf). */
  readonly #hashViews: (Uint8Array | undefined)[] = [];
  /** The patch walk's slot: its page, and there its offsetOf and rankOf tables and hashes. */
  page: Uint8Array = new Uint8Array(0);
  table = 0;
  ranks = 0;
  hashes0 = 0;
  readonly walkPath = new Uint8Array(32);
  readonly walkPath32 = new Uint32Array(this.walkPath.buffer);
  /** The path of the child group being collected (a copy: no view object per child). */
  readonly childPath = new Uint8Array(32);
  readonly childPath32 = new Uint32Array(this.childPath.buffer);

  constructor(groupDepth: number) {
    const width = 1 << groupDepth;
    this.positions = new Uint16Array(width);
    this.depthOffsets = new Uint8Array(width);
    this.hashes = new Uint8Array(width * 32);
    this.hashes32 = new Uint32Array(this.hashes.buffer);
    this.children = new Uint32Array(width);
    this.childDepths = new Uint8Array(width);
    this.childPaths = new Uint8Array(width * 32);
    this.childPaths32 = new Uint32Array(this.childPaths.buffer);
    this.hashAt = new Uint32Array(width);
  }

  /**
   * The hashes of the first n entries as a view of exactly that length: the group encoder
   * otherwise takes a view of its own per blob (an allocation per group of every commit).
   */
  hashesOf(n: number): Uint8Array {
    let view = this.#hashViews[n];
    if (view === undefined) {
      view = this.hashes.subarray(0, n * 32);
      this.#hashViews[n] = view;
    }
    return view;
  }
}

/**
 * Serializes every blob-stale node into a packed node set, post-order and left first
 * (go-ethereum's order): stems at their natural path, internal nodes as flat 65-byte blobs
 * (group depth 0) or as one group blob per group root (depth % g == 0). Clean subtrees are
 * skipped whole, and inside a group only the entries with a stale blob are descended into.
 * Blobs are written straight into the set's chunks (no per-node arrays). Hashes must be up to
 * date. Collection changes nothing: the flag changes that make the tree clean are recorded in
 * CommitMarks, applied once the node set is durable (or at once by `commit()`).
 */
export class CommitCollector {
  readonly #arena: Arena;
  #groupDepth = 0;
  readonly #out = new PackedWrites();
  #marks = new CommitMarks();
  #prefix: Uint8Array = new Uint8Array(0);
  readonly #scratch: GroupScratch[] = [];
  readonly #path = new Uint8Array(32);
  /** #orphanDeletes' filter of orphan path hashes. */
  readonly #orphanFilter = new Uint32Array(1 << 11);
  /** #orphanDeletes' set of orphan depths (0..248). */
  readonly #orphanDepths = new Uint32Array(8);
  /** Undefined for trees with a memory bound: the cache holds memory the bound does not count. */
  readonly #cache: GroupBlobCache | undefined;
  /** What the touching reads read (kept so they are not optimised away). */
  #loads = 0;
  /** Collections so far (a checkpoint revert after one must drop the cache: see forgetGroups). */
  collections = 0;
  /** This collection makes each node clean as it is written (see `collect`). */
  #cleanNow = false;

  constructor(arena: Arena, cache?: GroupBlobCache) {
    this.#arena = arena;
    this.#cache = cache;
  }

  /** Bytes the group blob cache holds. */
  get cacheBytes(): number {
    return this.#cache?.bytes ?? 0;
  }

  /**
   * Drops every cached group blob. Needed when the tree goes back to a state older than the one
   * the cache was written for (a checkpoint revert after a commit inside the checkpoint): a
   * clean region of a group is then no longer what the cache holds for it.
   */
  forgetGroups(): void {
    this.#cache?.clear();
  }

  /**
   * Reuses the chunks of `set` for later collections: only for a set nothing refers to any more
   * (see PackedWrites.recycle).
   */
  recycle(set: PackedNodeSet): void {
    this.#out.recycle(set.chunks);
  }

  /**
   * `cleanNow`: make each node clean as soon as its write is in the set (its flags are in cache
   * then), for a caller that takes the set over at once (`commit()`): the marks returned then
   * hold only the orphans. Otherwise the tree is not changed and the marks say what to clean
   * once the set is durable.
   */
  collect(
    groupDepth: number,
    rootHash: Uint8Array,
    keyPrefix: Uint8Array,
    cleanNow = false,
  ): { set: PackedNodeSet; marks: CommitMarks } {
    if (!Number.isInteger(groupDepth) || groupDepth < 0 || groupDepth > MAX_GROUP_DEPTH) {
      throw new TreeError(
        "INVALID_OPTION",
        `commit: group depth must be an integer 0..8, got ${groupDepth}`,
      );
    }
    const marks = new CommitMarks(this.#marks);
    this.#marks = marks;
    // Group scratch is sized by the group depth: keep it across commits unless that changes.
    if (groupDepth !== this.#groupDepth) {
      this.#scratch.length = 0;
      // Entries made for another depth (entries seeded by the loader before the first
      // collection are made for the tree's own depth, the one it commits with).
      if (this.collections > 0) this.#cache?.clear();
    }
    this.collections++;
    this.#groupDepth = groupDepth;
    this.#prefix = keyPrefix;
    this.#cleanNow = cleanNow;
    const out = this.#out;
    out.reset();
    this.#path.fill(0);
    this.#collectNode(this.#arena.root | 0, 0, this.#path);
    const deletes = this.#orphanDeletes(out);
    marks.orphans = this.#arena.orphans.length;
    const set = new PackedNodeSet(
      rootHash,
      groupDepth,
      keyPrefix,
      out.chunks,
      out.entries,
      out.count,
      deletes,
    );
    out.reset();
    return { set, marks };
  }

  /**
   * `ref` as an int32 (`ref | 0`, which refKind and refIndex read alike), in this and the other
   * recursive walks: V8 boxes a number of 2^31 or more (a stem's ref) as a heap object when it
   * passes it to a call it does not inline, one allocation per stem of a full commit.
   */
  #collectNode(ref: NodeRef, depth: number, path: Uint8Array): void {
    const kind = refKind(ref);
    const index = refIndex(ref);
    if (kind === KIND_STEM) {
      const { stems } = this.#arena;
      if ((stems.getFlags(index) & FLAG_BLOB_STALE) === 0) return;
      this.#emitStem(index);
      if (this.#cleanNow) cleanWrittenStem(this.#arena, index);
      else this.#marks.stems.push(index);
      return;
    }
    if (kind !== KIND_INTERNAL) return;
    const { internals } = this.#arena;
    const flags = internals.getFlags(index);
    if ((flags & FLAG_BLOB_STALE) === 0) return;
    const g = this.#groupDepth;
    if (g === 0) {
      // Depth-first with one path buffer: bits below `depth` are not touched below this node.
      // A side without the hint is clean (see FLAG_STALE_LEFT): not even its flags are read.
      setBit(path, depth, 0);
      if ((flags & FLAG_STALE_LEFT) !== 0)
        this.#collectNode(internals.getLeft(index) | 0, depth + 1, path);
      setBit(path, depth, 1);
      if ((flags & FLAG_STALE_RIGHT) !== 0)
        this.#collectNode(internals.getRight(index) | 0, depth + 1, path);
      this.#emitInternal(index, path, depth);
      if (this.#cleanNow) cleanWrittenNode(this.#arena, index);
      else this.#marks.stored.push(index);
      return;
    }
    const level = Math.floor(depth / g);
    let scratch = this.#scratch[level];
    if (scratch === undefined) {
      scratch = new GroupScratch(g);
      this.#scratch[level] = scratch;
    }
    const inner = this.#marks.inner.length;
    const slot = this.#prepareGroup(scratch, ref, index, depth, path);
    if (this.#cleanNow) {
      // Nothing reads this group's own nodes again: its inner nodes and root are clean now.
      cleanWrittenInner(this.#arena, this.#marks.inner, inner);
      cleanWrittenNode(this.#arena, index);
    } else this.#marks.stored.push(index);
    // Children first (they were gathered left to right), then the group root itself.
    // The children's paths go through this level's childPath: the groups they root use the
    // next level's scratch, so the buffer holds until the child is done.
    const n = scratch.staleCount;
    const childPath = scratch.childPath;
    // Each child's first reads are cache misses on a large tree: issued for all of them here,
    // side by side, before the walk meets them one after the other.
    if (n > 1) this.#touchChildren(scratch, n);
    for (let k = 0; k < n; k++) {
      copy8(scratch.childPaths32, k << 3, scratch.childPath32, 0);
      this.#collectNode(scratch.children[k]! | 0, scratch.childDepths[k]!, childPath);
    }
    if (slot >= 0) this.#emitCachedGroup(index, path, depth, slot, scratch);
    else this.#emitGroup(index, path, depth, scratch);
  }

  /** Reads the records a collection of the first `n` stale children of `scratch` starts with. */
  #touchChildren(scratch: GroupScratch, n: number): void {
    const { internals, stems } = this.#arena;
    const cache = this.#cache;
    let loads = this.#loads;
    for (let k = 0; k < n; k++) {
      const child = scratch.children[k]!;
      const index = refIndex(child);
      const kind = refKind(child);
      if (kind === KIND_STEM) {
        loads ^= stems.getFlags(index) ^ stems.stemChunk(index)[stems.stemOffset(index)]!;
      } else if (kind === KIND_INTERNAL) {
        loads ^= internals.getFlags(index);
        if (cache !== undefined) loads ^= cache.slotWord(index);
      }
    }
    this.#loads = loads;
  }

  /**
   * Makes the blob of group root `index` current and lists its entries with a stale blob (the
   * ones the commit descends into). Returns the group's cache slot holding the blob, or -1 for a
   * group whose blob is to be encoded from its scratch.
   *
   * A cached blob is patched: only the group's stale nodes are walked. Otherwise the group is
   * gathered (its shape and its entries' hashes); a group with enough entries then gets a slot,
   * its blob is encoded there and the patch walk lists the stale entries (their hashes are
   * written again at emit). So a full commit and every later one run the same patch code: the first update
   * commit of a process does not run it for the first time (cold, it costs several times more).
   */
  #prepareGroup(
    scratch: GroupScratch,
    ref: NodeRef,
    index: number,
    depth: number,
    path: Uint8Array,
  ): number {
    const cache = this.#cache;
    if (cache === undefined) {
      this.#gatherInto(scratch, ref, depth, path);
      return -1;
    }
    const { internals } = this.#arena;
    const marked = this.#marks.inner;
    const start = marked.length;
    let slot = cache.slotFor(internals, index);
    // marks.inner's length after a gather (the walk's visits are among those it recorded).
    let gathered = -1;
    // Rounds of the loop, counted at its top: a full commit, whose loop runs once per group,
    // then trains the count (counted only on a retry, it deoptimised this at the first block
    // with new keys: no feedback for the increment).
    let rounds = 0;
    for (;;) {
      rounds++;
      if (slot < 0) {
        marked.length = start;
        this.#gatherInto(scratch, ref, depth, path);
        const n = scratch.count;
        // rounds > 2: a fresh slot the walk found not to fit, which cannot happen.
        if (n < CACHED_GROUP_MIN_ENTRIES || rounds > 2) {
          cache.forget(index);
          return -1;
        }
        const g = this.#groupDepth;
        cache.reserve(
          internals,
          index,
          g,
          n,
          scratch.positions,
          scratch.depthOffsets,
          groupBlobSize(g, n),
        );
        // Looked up rather than taken from `reserve`: a full commit then runs the lookup's
        // found path, which every later commit of the group takes (see above).
        slot = cache.slotFor(internals, index);
        const page = cache.page(slot);
        encodeGroupBlobInto(
          g,
          n,
          scratch.positions,
          scratch.depthOffsets,
          scratch.hashesOf(n),
          page,
          cache.blobOffset(slot),
        );
        gathered = marked.length;
      }
      scratch.staleCount = 0;
      scratch.walkPath.set(path);
      if (this.#patchGroup(scratch, index, depth, slot)) {
        if (gathered >= 0) marked.length = gathered;
        return slot;
      }
      // The walk met a change of the group's shape: gather it afresh.
      slot = -1;
    }
  }

  /** Resets the scratch and gathers the group below `ref` into it. */
  #gatherInto(scratch: GroupScratch, ref: NodeRef, depth: number, path: Uint8Array): void {
    scratch.count = 0;
    scratch.staleCount = 0;
    scratch.walkPath.set(path);
    this.#gatherGroup(scratch, ref, depth, this.#groupDepth, 0, true);
  }

  /**
   * Lists what the cached blob of group root `index` needs to be up to date by walking only the
   * group's nodes with a stale blob (every write marks its whole path, so the rest of the group
   * is as it was when the blob was stored): each stale entry is queued for the descent like
   * #gatherGroup does, with where its hash sits in the blob (#emitCachedGroup writes it, after
   * the descent). Returns false when the walk meets a change of the group's shape (an entry
   * where there was none, an inner node where there was an entry, an empty side where there
   * were entries): the caller gathers in full.
   */
  #patchGroup(scratch: GroupScratch, index: number, depth: number, slot: number): boolean {
    const inner = this.#marks.inner.length;
    const cache = this.#cache!;
    scratch.page = cache.page(slot);
    scratch.table = cache.tableOffset(slot);
    scratch.ranks = cache.rankOffset(slot);
    scratch.hashes0 = cache.hashesOffset(slot);
    const fits = this.#patchWalk(scratch, index, depth, this.#groupDepth, 0);
    // Cut back on both outcomes (to its own length when the walk fits): a store made only when
    // a group changes shape deoptimised this at the first block with new keys.
    const marked = this.#marks.inner;
    marked.length = fits ? marked.length : inner;
    return fits;
  }

  #patchWalk(
    scratch: GroupScratch,
    index: number,
    depth: number,
    remaining: number,
    position: number,
  ): boolean {
    const g = this.#groupDepth;
    const { internals } = this.#arena;
    const { page, table } = scratch;
    const flags = internals.getFlags(index);
    // An inner node that was an entry before (a split stem) needs no check of its own: the
    // first position of its range is then either an empty side or a deeper entry, both checked.
    if (remaining < g && (flags & INNER_WRITTEN) !== 0) this.#marks.inner.push(index);
    const path = scratch.walkPath;
    const below = remaining - 1;
    for (let bit = 0; bit < 2; bit++) {
      const child = internals.getChild(index, bit);
      setBit(path, depth, bit);
      const childPosition = position * 2 + bit;
      const first = childPosition << below;
      const kind = refKind(child);
      if (kind === KIND_EMPTY) {
        // An empty side must have held no entries.
        const end = first + (1 << below);
        for (let p = first; p < end; p++) if (page[table + p] !== 0) return false;
        continue;
      }
      // A side without the hint is clean (see FLAG_STALE_LEFT): its part of the blob is
      // unchanged, and its record is not read (on a large tree, a cache miss per sibling).
      if ((flags & (bit === 0 ? FLAG_STALE_LEFT : FLAG_STALE_RIGHT)) === 0) continue;
      const childIndex = refIndex(child);
      if (kind === KIND_INTERNAL && below > 0) {
        // Inside the group: a clean inner node's part of the blob is unchanged.
        if ((internals.getFlags(childIndex) & FLAG_BLOB_STALE) === 0) continue;
        if (!this.#patchWalk(scratch, childIndex, depth + 1, below, childPosition)) return false;
        continue;
      }
      // An entry: a clean one, or a placeholder, keeps its hash.
      if (!this.#blobStale(kind, childIndex)) continue;
      if (page[table + first] !== g - below) return false;
      const s = scratch.staleCount++;
      scratch.hashAt[s] = scratch.hashes0 + (page[scratch.ranks + first]! << 5);
      scratch.children[s] = child;
      scratch.childDepths[s] = depth + 1;
      copy8(scratch.walkPath32, 0, scratch.childPaths32, s << 3);
    }
    return true;
  }

  /**
   * Left-first walk of the group below a group root, recording one entry per non-empty node on
   * the bottom layer or per stem/hashed node that ends above it (position zero-extended): its
   * hash, and for an entry with a stale blob its place in the list the commit descends into.
   * `parentStale`: the nodes above it in the group have stale blobs and hints toward it (see
   * FLAG_STALE_LEFT). A node without them is clean: only entries under such hints have their
   * flags read (on a large tree each read is a cache miss, and most entries of a group are clean).
   */
  #gatherGroup(
    scratch: GroupScratch,
    ref: NodeRef,
    depth: number,
    remaining: number,
    position: number,
    parentStale: boolean,
  ): void {
    const kind = refKind(ref);
    if (kind === KIND_EMPTY) return;
    const { internals } = this.#arena;
    const index = refIndex(ref);
    if (kind === KIND_INTERNAL && remaining > 0) {
      // Inner nodes of a group have no blob of their own: the group blob covers them.
      const flags = internals.getFlags(index);
      // Recorded only where there is something to clear (not the group root itself).
      if (remaining < this.#groupDepth && (flags & INNER_WRITTEN) !== 0)
        this.#marks.inner.push(index);
      // One path buffer for the whole walk: bits below `depth` stay put while a subtree is
      // walked, so setting bit `depth` before each side is enough (no buffer per node).
      const path = scratch.walkPath;
      setBit(path, depth, 0);
      this.#gatherGroup(
        scratch,
        internals.getLeft(index) | 0,
        depth + 1,
        remaining - 1,
        position * 2,
        parentStale && (flags & FLAG_STALE_LEFT) !== 0,
      );
      setBit(path, depth, 1);
      this.#gatherGroup(
        scratch,
        internals.getRight(index) | 0,
        depth + 1,
        remaining - 1,
        position * 2 + 1,
        parentStale && (flags & FLAG_STALE_RIGHT) !== 0,
      );
      return;
    }
    const k = scratch.count++;
    scratch.positions[k] = position << remaining;
    scratch.depthOffsets[k] = this.#groupDepth - remaining;
    // Every entry's hash (hashes are current at a commit), with no branch on staleness: a full
    // commit, where every entry is stale, then trains all of this for the update commits.
    this.#arena.writeHashWords(ref, scratch.hashes32, k << 3);
    // Only entries whose stored blob is stale need a visit; clean ones are skipped whole.
    if (parentStale && this.#blobStale(kind, index)) {
      const s = scratch.staleCount++;
      scratch.children[s] = ref;
      scratch.childDepths[s] = depth;
      copy8(scratch.walkPath32, 0, scratch.childPaths32, s << 3);
    }
  }

  /** Whether a group entry (an internal node, stem or placeholder) has a stale blob of its own. */
  #blobStale(kind: number, index: number): boolean {
    const { internals, stems } = this.#arena;
    if (kind === KIND_INTERNAL) return (internals.getFlags(index) & FLAG_BLOB_STALE) !== 0;
    if (kind === KIND_STEM) return (stems.getFlags(index) & FLAG_BLOB_STALE) !== 0;
    return false;
  }

  #emitGroup(index: number, path: Uint8Array, depth: number, scratch: GroupScratch): void {
    const g = this.#groupDepth;
    const n = scratch.count;
    const blobSize = groupBlobSize(g, n);
    const hashStart = this.#beginWrite(path, 0, depth, 32 + blobSize);
    const chunk = this.#out.chunk;
    this.#copyInternalHash(index, this.#out.chunk32, hashStart);
    encodeGroupBlobInto(
      g,
      n,
      scratch.positions,
      scratch.depthOffsets,
      scratch.hashesOf(n),
      chunk,
      hashStart + 32,
    );
    this.#out.end(hashStart, hashStart + 32 + blobSize);
  }

  /**
   * The group root's write from its cached blob, patched first with the new hashes of its stale
   * entries (emitted just before: their hashes are in cache).
   */
  #emitCachedGroup(
    index: number,
    path: Uint8Array,
    depth: number,
    slot: number,
    scratch: GroupScratch,
  ): void {
    const cache = this.#cache!;
    const arena = this.#arena;
    const blobSize = cache.blobSize(slot);
    const blob = cache.blobOffset(slot);
    const page = cache.page(slot);
    // The root's hash and the blob's first line, side by side (two misses, not one after the other).
    this.#loads ^=
      arena.internals.hash[index >>> CHUNK_BITS]![(index & CHUNK_MASK) << 5]! ^ page[blob]!;
    const hashStart = this.#beginWrite(path, 0, depth, 32 + blobSize);
    const chunk = this.#out.chunk;
    this.#copyInternalHash(index, this.#out.chunk32, hashStart);
    const { children, hashAt } = scratch;
    // The blob's hashes sit on words (see GroupBlobCache).
    const page32 = cache.page32(slot);
    for (let k = 0; k < scratch.staleCount; k++) {
      arena.writeHashWords(children[k]!, page32, hashAt[k]! >>> 2);
    }
    chunk.set(page.subarray(blob, blob + blobSize), hashStart + 32);
    this.#out.end(hashStart, hashStart + 32 + blobSize);
  }

  /** A flat internal blob (group depth 0): 02 | left hash | right hash. */
  #emitInternal(index: number, path: Uint8Array, depth: number): void {
    const hashStart = this.#beginWrite(path, 0, depth, 32 + 65);
    const chunk = this.#out.chunk;
    this.#copyInternalHash(index, this.#out.chunk32, hashStart);
    const { internals } = this.#arena;
    chunk[hashStart + 32] = 2;
    this.#arena.writeHash(internals.getLeft(index), chunk, hashStart + 33);
    this.#arena.writeHash(internals.getRight(index), chunk, hashStart + 65);
    this.#out.end(hashStart, hashStart + 97);
  }

  /** A stem blob: 01 | stem (31) | bitmap (32) | present values in subindex order. */
  #emitStem(index: number): void {
    const { stems } = this.#arena;
    const count = stems.getCount(index);
    const blobSize = 64 + count * 32;
    const c = index >>> CHUNK_BITS;
    const w = (index & CHUNK_MASK) << 3;
    const stem32 = stems.stem32[c]!;
    const hash32 = stems.hash32[c]!;
    // The stem, its hash and its values are apart (each a cache miss on a large tree): all are
    // read here, side by side, before the copies, which would otherwise wait for them in turn.
    let loads = stem32[w]! ^ hash32[w]!;
    let values = stem32;
    let at = 0;
    if (count > 0) {
      const address = stems.blockAddress(index);
      values = stems.values.page32(address);
      at = stems.values.offset(address) >>> 2;
      loads ^= values[at]!;
    }
    this.#loads ^= loads;
    const depth = stems.getDepth(index);
    const hashStart = this.#beginWrite(stems.stem[c]!, w << 2, depth, 32 + blobSize);
    const out = this.#out.chunk32;
    const h = hashStart >>> 2;
    copy8(hash32, w, out, h);
    // 01 ‖ stem: the stem's words moved one byte on (byte 31 of a stem slot is 0).
    copyTypeAndStem(stem32, w, out, h + 8);
    stems.writeBlobBitmap(index, this.#out.chunk, hashStart + 64);
    for (let k = 0; k < count; k++) copy8(values, at + (k << 3), out, h + 24 + (k << 3));
    this.#out.end(hashStart, hashStart + 32 + blobSize);
  }

  /**
   * Writes `prefix ‖ path key` of the next write (the first `depth` bits of bits[from..]) and
   * returns where its hash goes (word-aligned). The path key as codec's writePathKey lays it
   * out, without its argument checks (depths here are a node's, 0..248).
   */
  #beginWrite(bits: Uint8Array, from: number, depth: number, rest: number): number {
    const out = this.#out;
    const prefix = this.#prefix;
    const bytes = depth === 0 ? 0 : (depth + 7) >>> 3;
    const keyBytes = prefix.length + (depth === 0 ? 0 : bytes + 1);
    const hashStart = out.begin(keyBytes, rest);
    const chunk = out.chunk;
    let at = out.at;
    for (let i = 0; i < prefix.length; i++) chunk[at++] = prefix[i]!;
    if (depth === 0) return hashStart;
    for (let i = 0; i < bytes - 1; i++) chunk[at++] = bits[from + i]!;
    const used = depth & 7;
    const last = bits[from + bytes - 1]!;
    chunk[at++] = used === 0 ? last : last & (0xff00 >>> used);
    chunk[at] = depth;
    return hashStart;
  }

  /** The 32-byte hash of internal node `index` at out[offset] (a word boundary). */
  #copyInternalHash(index: number, out: Uint32Array, offset: number): void {
    const { internals } = this.#arena;
    copy8(internals.hash32[index >>> CHUNK_BITS]!, (index & CHUNK_MASK) << 3, out, offset >>> 2);
  }

  /** Old paths of stored stems that splits pushed deeper, unless this commit rewrote them. */
  #orphanDeletes(out: PackedWrites): Uint8Array[] {
    const arena = this.#arena;
    if (arena.orphans.length === 0) return [];
    // Candidate paths by a cheap numeric hash of their bytes; a write's path is compared
    // byte by byte only when its hash matches one (no string per write).
    const candidates = new Map<number, Uint8Array[]>();
    // A bit per hash value mod 2^16: most writes are ruled out by one typed-array load, before
    // any Map lookup (hashes above 2^31 are heap numbers there).
    const filter = this.#orphanFilter;
    filter.fill(0);
    // A bit per orphan depth: a write at another depth (most group writes) is not hashed at all.
    const depths = this.#orphanDepths;
    depths.fill(0);
    const paths: Uint8Array[] = [];
    for (const orphan of arena.orphans) {
      depths[orphan.depth >>> 5]! |= 1 << (orphan.depth & 31);
      const path = encodePathKey(orphan.bits, orphan.depth);
      const h = fnv1a(path, 0, path.length);
      filter[(h & 0xffff) >>> 5]! |= 1 << (h & 31);
      const list = candidates.get(h);
      if (list === undefined) candidates.set(h, [path]);
      else if (list.some((p) => equalBytes(p, path, 0, path.length))) continue;
      else list.push(path);
      paths.push(path);
    }
    const written = new Set<Uint8Array>();
    const skip = this.#prefix.length;
    const { entries, chunks, count } = out;
    for (let i = 0; i < count; i++) {
      const e = i * PACKED_ENTRY_WORDS;
      const chunk = chunks[entries[e]!]!;
      const start = entries[e + 1]! + skip;
      const end = entries[e + 2]!;
      // A path key ends with its length (the root's is empty).
      const depth = end > start ? chunk[end - 1]! : 0;
      if ((depths[depth >>> 5]! & (1 << (depth & 31))) === 0) continue;
      const h = fnv1a(chunk, start, end);
      if ((filter[(h & 0xffff) >>> 5]! & (1 << (h & 31))) === 0) continue;
      const list = candidates.get(h);
      if (list === undefined) continue;
      for (const p of list) if (equalBytes(p, chunk, start, end)) written.add(p);
    }
    // First-seen order of the orphan list.
    return paths.filter((p) => !written.has(p));
  }
}

/** Whether word views see bytes little-endian first (every platform this runs on; checked). */
const LITTLE_ENDIAN = new Uint8Array(Uint32Array.of(1).buffer)[0] === 1;

/** to[t..t+8) = the bytes 01 ‖ stem[0..31), from the stem slot's words stem[s..s+8). */
function copyTypeAndStem(stem: Uint32Array, s: number, to: Uint32Array, t: number): void {
  if (!LITTLE_ENDIAN) {
    const from = new Uint8Array(stem.buffer, stem.byteOffset);
    const out = new Uint8Array(to.buffer, to.byteOffset);
    out[t << 2] = 1;
    for (let i = 0; i < 31; i++) out[(t << 2) + 1 + i] = from[(s << 2) + i]!;
    return;
  }
  let previous = 1 << 24;
  for (let i = 0; i < 8; i++) {
    const word = stem[s + i]!;
    to[t + i] = (previous >>> 24) | (word << 8);
    previous = word;
  }
}

function equalBytes(a: Uint8Array, b: Uint8Array, start: number, end: number): boolean {
  if (a.length !== end - start) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[start + i]) return false;
  return true;
}

function setBit(bits: Uint8Array, position: number, bit: number): void {
  const mask = 0x80 >>> (position & 7);
  if (bit === 0) bits[position >>> 3]! &= ~mask;
  else bits[position >>> 3]! |= mask;
}
