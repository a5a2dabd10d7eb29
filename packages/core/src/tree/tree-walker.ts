import type { Arena } from "./arena.js";
import { describePath } from "./node-loader.js";
import {
  EMPTY_REF,
  FLAG_BLOB_STALE,
  FLAG_PERSISTED,
  FLAG_REFERENCED,
  FLAGS_STALE,
  FLAGS_STALE_CHILDREN,
  KIND_EMPTY,
  KIND_HASHED,
  KIND_INTERNAL,
  KIND_STEM,
  MAX_POOL_INDEX,
  makeRef,
  type NodeRef,
  refIndex,
  refKind,
} from "./node-ref.js";
import { TreeError } from "./tree-error.js";
import { U32Stack } from "./u32-stack.js";
import type { WalkRecorder } from "./walk-recorder.js";

/** Writes whose descents descendLanes walks side by side. */
export const LANES = 16;
/** Room per lane: a path holds at most 248 internal nodes, and `descend` reserves 248 more. */
const LANE_ROOM = 512;

/** `lookup` result: the stem is not in the tree. */
export const LOOKUP_ABSENT = -1;
/** `lookup`/`removeKey` result: a node on the way is still in the store (see `miss*`). */
export const LOOKUP_UNRESOLVED = -2;

/**
 * Walks and reshapes the arena for one key at a time: lookups, the insert descent with splits,
 * removal with collapse, and the stale marking of written paths. It keeps the path of the last
 * walk (so sorted writes can resume below a shared prefix) and, when a walk stops at a node still
 * in the store, which node that is (`missParent`, `missSide`, `missDepth`).
 */
export class TreeWalker {
  readonly #arena: Arena;
  /** The path of single writes and removals. */
  readonly #ownPath = new U32Stack(64);
  /** The path of the last walk: #ownPath, or the lane of the last write of writeLanes. */
  #path: U32Stack = this.#ownPath;
  /** descendLanes' paths (lane k at k * LANE_ROOM), as stacks viewing that buffer. */
  readonly #laneBuffer = new Uint32Array(LANES * LANE_ROOM);
  readonly #lanes: U32Stack[] = [];
  readonly #laneLengths = new Uint32Array(LANES);
  /** Where each lane's descent ended (the first child that is not an internal node). */
  readonly #laneEnds = new Uint32Array(LANES);
  /** After writeLanes: the stem each lane wrote to, and how many lanes it applied. */
  readonly laneStems = new Uint32Array(LANES);
  lanesWritten = 0;
  readonly #sides = new U32Stack(64);
  readonly #splitNodes = new U32Stack(64);
  /** Internal nodes the last stemForWrite's split created (0: it split nothing). */
  #splitLength = 0;
  /** Loads descendLanes made to prefetch stems (kept so they are not optimised away). */
  #touchLoads = 0;
  /** The side taken below the last node of #path toward the stem of the last walk. */
  #lastSide = 0;
  /** Mark the internal nodes lookups pass as recently used (trees with a memory bound). */
  touching = false;
  missParent = 0;
  missSide = 0;
  missDepth = 0;
  /** Set while a witness is being recorded (see WalkRecorder). */
  recorder: WalkRecorder | undefined = undefined;

  constructor(arena: Arena) {
    this.#arena = arena;
    for (let k = 0; k < LANES; k++) {
      const lane = new U32Stack(1);
      lane.data = this.#laneBuffer.subarray(k * LANE_ROOM, (k + 1) * LANE_ROOM);
      this.#lanes.push(lane);
    }
  }

  /** Internal nodes of the last walk, root first. */
  get path(): U32Stack {
    return this.#path;
  }

  /** writeLanes' paths: lane k's, root first, down to the parent of the stem it wrote. */
  get lanePaths(): readonly U32Stack[] {
    return this.#lanes;
  }

  /**
   * Walks to the stem of `key` (its first 31 bytes). Returns the stem index, LOOKUP_ABSENT, or
   * LOOKUP_UNRESOLVED with the blocking hashed child recorded in #miss*.
   */
  lookup(key: Uint8Array): number {
    if (this.recorder !== undefined) this.recorder.read(key, 0);
    const { internals, stems } = this.#arena;
    const touch = this.touching;
    let ref = this.#arena.root;
    let parent = -1;
    let side = 0;
    for (;;) {
      const kind = refKind(ref);
      const index = refIndex(ref);
      if (kind === KIND_INTERNAL) {
        const depth = internals.getDepth(index);
        const bit = (key[depth >>> 3]! >>> (7 - (depth & 7))) & 1;
        if (touch) internals.addFlags(index, FLAG_REFERENCED);
        parent = index;
        side = bit;
        ref = internals.getChild(index, bit);
      } else if (kind === KIND_STEM) {
        return stems.matches(index, key, 0) ? index : LOOKUP_ABSENT;
      } else if (kind === KIND_EMPTY) {
        return LOOKUP_ABSENT;
      } else {
        this.missParent = parent;
        this.missSide = side;
        this.missDepth = parent < 0 ? 0 : internals.getDepth(parent) + 1;
        return LOOKUP_UNRESOLVED;
      }
    }
  }

  /**
   * Finds or creates the stem node for key[ko..ko+31), splitting as needed; records the path.
   */
  stemForWrite(key: Uint8Array, ko = 0): number {
    if (this.recorder !== undefined) this.recorder.write(key, ko);
    const path = this.#ownPath;
    this.#path = path;
    path.clear();
    let ref = this.#arena.root;
    if (refKind(ref) === KIND_INTERNAL)
      ref = this.#arena.internals.descend(refIndex(ref), key, ko, path);
    return this.#stemBelowPath(ref, key, ko, undefined);
  }

  /**
   * Walks, side by side and changing nothing, the descents of the write-log keys at
   * bytes[(from + k) << 6] for k in [0, n) (at most LANES; see InternalPool.descendLanes),
   * keeping each one's path as lane k for writeLanes, and reads the records and value blocks of
   * the stems they end at: the writes applied next then find their nodes in cache.
   */
  descendLanes(bytes: Uint8Array, from: number, n: number): void {
    const { internals, stems, root } = this.#arena;
    const lanes = this.#lanes;
    const ends = this.#laneEnds;
    if (refKind(root) !== KIND_INTERNAL) {
      for (let k = 0; k < n; k++) lanes[k]!.length = 0;
      return;
    }
    const lengths = this.#laneLengths;
    internals.descendLanes(
      refIndex(root),
      bytes,
      from,
      n,
      this.#laneBuffer,
      LANE_ROOM,
      lengths,
      ends,
    );
    for (let k = 0; k < n; k++) lanes[k]!.length = lengths[k]!;
    this.#touchLoads += stems.touch(ends, n);
  }

  /**
   * Applies, in order, the writes at entries from..from + n of a stem-ordered write log
   * (`bytes`: key ‖ value, 64 bytes each; `words`: its word view) whose descents descendLanes
   * walked as lanes 0..n-1: each takes its lane's path, finds its stem below it, sets the value
   * and marks what changed stale. An earlier write of the batch may have changed the node a path
   * ended at (a new stem there, a split), never a node above it (internal nodes are never
   * unlinked by a write), so only the end is read again. Leaves lane k's stem in laneStems[k]
   * and its path, down to the stem's parent with split nodes included, in lanePaths[k] (see
   * ClosingHasher.closeLanes); after a throw, lanesWritten lanes are applied. One loop per batch
   * with the common case (an existing stem) inline: the first block after a bulk build runs
   * this before V8 has compiled it, where each call per write costs.
   */
  writeLanes(bytes: Uint8Array, words: Uint32Array, from: number, n: number): void {
    const arena = this.#arena;
    const { internals, stems, staleLog } = arena;
    const lanes = this.#lanes;
    const laneStems = this.laneStems;
    const recorder = this.recorder;
    this.lanesWritten = 0;
    for (let k = 0; k < n; k++) {
      const at = (from + k) << 6;
      if (recorder !== undefined) recorder.write(bytes, at);
      const path = lanes[k]!;
      this.#path = path;
      let ref: NodeRef = arena.root;
      let side = 0;
      if (path.length > 0) {
        const last = path.data[path.length - 1]!;
        const depth = internals.getDepth(last);
        side = (bytes[at + (depth >>> 3)]! >>> (7 - (depth & 7))) & 1;
        ref = internals.getChild(last, side);
      }
      let stem: number;
      if (ref >>> 30 === KIND_STEM && stems.matchesWords(ref & MAX_POOL_INDEX, bytes, words, at)) {
        stem = ref & MAX_POOL_INDEX;
        this.#lastSide = side;
        this.#splitLength = 0;
      } else {
        if (refKind(ref) === KIND_INTERNAL) ref = internals.descend(refIndex(ref), bytes, at, path);
        stem = this.#stemBelowPath(ref, bytes, at, words);
      }
      if (stems.setValue(stem, bytes[at + 31]!, bytes, at + 32, words)) {
        arena.mutations++;
        if (stems.markStale(stem)) staleLog.stem(stem);
        internals.markPathStale(path.data, path.length, this.#lastSide, staleLog);
      }
      if (this.#splitLength > 0) this.#joinSplitToPath();
      laneStems[k] = stem;
      this.lanesWritten = k + 1;
    }
  }

  /** The write's stem below the walked #path, whose next child is `ref`: found, made or split off. */
  #stemBelowPath(
    ref: NodeRef,
    key: Uint8Array,
    ko: number,
    words: Uint32Array | undefined,
  ): number {
    const arena = this.#arena;
    const { internals, stems } = arena;
    const path = this.#path;
    let parent = -1;
    let side = 0;
    let depth = 0;
    this.#splitLength = 0;
    if (path.length > 0) {
      parent = path.data[path.length - 1]!;
      depth = internals.getDepth(parent);
      side = (key[ko + (depth >>> 3)]! >>> (7 - (depth & 7))) & 1;
      depth += 1;
    }
    this.#lastSide = side;
    const kind = refKind(ref);
    const index = refIndex(ref);
    if (kind === KIND_EMPTY) {
      const created = stems.alloc(key, ko, depth, FLAGS_STALE);
      arena.staleLog.stem(created);
      this.#link(parent, side, makeRef(KIND_STEM, created));
      return created;
    }
    if (kind === KIND_HASHED) {
      this.missParent = parent;
      this.missSide = side;
      this.missDepth = depth;
      throw this.missingError(key.subarray(ko, ko + 32));
    }
    if (
      words !== undefined
        ? stems.matchesWords(index, key, words, ko)
        : stems.matches(index, key, ko)
    )
      return index;
    return this.#split(index, key, ko, parent, side);
  }

  /** Pushes an existing stem down until it diverges from key's stem; returns the new stem. */
  #split(existing: number, key: Uint8Array, ko: number, parent: number, side: number): number {
    const arena = this.#arena;
    const { internals, stems } = arena;
    const start = stems.getDepth(existing);
    const sc = stems.stemChunk(existing);
    const so = stems.stemOffset(existing);
    let diverge = start;
    while (diverge < 248) {
      const a = (sc[so + (diverge >>> 3)]! >>> (7 - (diverge & 7))) & 1;
      const b = (key[ko + (diverge >>> 3)]! >>> (7 - (diverge & 7))) & 1;
      if (a !== b) break;
      diverge++;
    }
    if (diverge >= 248) {
      throw new TreeError("TREE_TOO_DEEP", "split: stems are equal (internal inconsistency)");
    }
    // Allocate every node first: a full pool then throws with the tree exactly as it was.
    const nodes = this.#splitNodes;
    nodes.clear();
    let created = -1;
    try {
      for (let d = start; d <= diverge; d++) nodes.push(internals.alloc(d, FLAGS_STALE));
      created = stems.alloc(key, ko, diverge + 1, FLAGS_STALE);
    } catch (error) {
      for (let k = 0; k < nodes.length; k++) internals.release(nodes.data[k]!);
      throw error;
    }
    arena.mutations++;
    const log = arena.staleLog;
    for (let k = 0, d = start; k < nodes.length; k++, d++) log.internal(nodes.data[k]!, d);
    log.stem(created);
    if ((stems.getFlags(existing) & FLAG_PERSISTED) !== 0) {
      // Its blob is stored at its current path (even if the stem changed since): that path
      // needs a delete at commit unless the new internal node there rewrites it.
      arena.orphans.push({ bits: sc.slice(so, so + 31), depth: start });
      stems.clearFlags(existing, FLAG_PERSISTED);
    }
    let link = parent;
    let linkSide = side;
    for (let k = 0, d = start; d <= diverge; k++, d++) {
      const node = nodes.data[k]!;
      this.#link(link, linkSide, makeRef(KIND_INTERNAL, node));
      link = node;
      linkSide = (key[ko + (d >>> 3)]! >>> (7 - (d & 7))) & 1;
    }
    const existingSide = linkSide ^ 1;
    stems.setDepth(existing, diverge + 1);
    stems.addFlags(existing, FLAG_BLOB_STALE);
    internals.setChild(link, existingSide, makeRef(KIND_STEM, existing));
    internals.setChild(link, linkSide, makeRef(KIND_STEM, created));
    this.#splitLength = nodes.length;
    return created;
  }

  /**
   * 'remove' mode: removes the value at key; an emptied stem goes away and every internal node
   * left with a single stem below it collapses, the stem moving up. Returns 0 when done (or
   * nothing to do), LOOKUP_UNRESOLVED (nothing changed) when a needed node is not loaded.
   */
  // One function: the walk down and the collapse up share one path stack and its indices.
  removeKey(key: Uint8Array): number {
    if (this.recorder !== undefined) this.recorder.remove(key);
    const arena = this.#arena;
    // Removals free and move nodes: the next hash walks the tree instead of using the log.
    arena.staleLog.invalidate();
    const { internals, stems } = arena;
    const path = this.#ownPath;
    this.#path = path;
    const sides = this.#sides;
    path.clear();
    sides.clear();
    let ref = arena.root;
    let parent = -1;
    for (;;) {
      const kind = refKind(ref);
      const index = refIndex(ref);
      if (kind === KIND_INTERNAL) {
        const depth = internals.getDepth(index);
        const bit = (key[depth >>> 3]! >>> (7 - (depth & 7))) & 1;
        path.push(index);
        sides.push(bit);
        parent = index;
        ref = internals.getChild(index, bit);
        continue;
      }
      if (kind === KIND_HASHED) {
        this.missParent = parent;
        this.missSide = sides.length > 0 ? sides.data[sides.length - 1]! : 0;
        this.missDepth = parent < 0 ? 0 : internals.getDepth(parent) + 1;
        return LOOKUP_UNRESOLVED;
      }
      if (kind === KIND_EMPTY) return 0;
      break;
    }
    const stem = refIndex(ref);
    const sub = key[31]!;
    if (!stems.matches(stem, key, 0) || !stems.has(stem, sub)) return 0;
    if (stems.getCount(stem) > 1) {
      stems.removeValue(stem, sub);
      this.#lastSide = sides.length > 0 ? sides.data[sides.length - 1]! : 0;
      this.finishWrite(stem, true);
      return 0;
    }
    // The stem empties. Dry run of the collapse first: it must not meet an unloaded sibling.
    let carrying = false;
    for (let j = path.length - 1; j >= 0; j--) {
      const node = path.data[j]!;
      const otherSide = sides.data[j]! ^ 1;
      const kind = refKind(internals.getChild(node, otherSide));
      if (kind === KIND_EMPTY) continue;
      if (carrying || kind === KIND_INTERNAL) break;
      if (kind === KIND_HASHED) {
        this.missParent = node;
        this.missSide = otherSide;
        this.missDepth = internals.getDepth(node) + 1;
        return LOOKUP_UNRESOLVED;
      }
      carrying = true;
    }
    arena.mutations++;
    this.#orphanIfPersisted(
      KIND_STEM,
      stem,
      stems.stemChunk(stem),
      stems.stemOffset(stem),
      stems.getDepth(stem),
    );
    stems.release(stem);
    let replacement: NodeRef = EMPTY_REF;
    for (let j = path.length - 1; j >= 0; j--) {
      const node = path.data[j]!;
      const side = sides.data[j]!;
      const other = internals.getChild(node, side ^ 1);
      const kind = refKind(other);
      if (kind === KIND_EMPTY || (replacement === EMPTY_REF && kind === KIND_STEM)) {
        // This node would keep at most one stem below it: it goes, the stem moves up.
        if (replacement === EMPTY_REF && kind === KIND_STEM) replacement = other;
        this.#orphanIfPersisted(KIND_INTERNAL, node, key, 0, internals.getDepth(node));
        internals.release(node);
        continue;
      }
      internals.setChild(node, side, replacement);
      if (replacement !== EMPTY_REF)
        this.#moveStem(refIndex(replacement), internals.getDepth(node) + 1);
      // Hints on both sides: a collapse is rare, and a hint too many costs only a read.
      for (let k = 0; k <= j; k++)
        internals.addFlags(path.data[k]!, FLAGS_STALE | FLAGS_STALE_CHILDREN);
      return 0;
    }
    arena.root = replacement;
    if (replacement !== EMPTY_REF) this.#moveStem(refIndex(replacement), 0);
    return 0;
  }

  /** A stem placed at a new depth: its blob goes to a new path, the old one is orphaned. */
  #moveStem(stem: number, depth: number): void {
    const { stems } = this.#arena;
    this.#orphanIfPersisted(
      KIND_STEM,
      stem,
      stems.stemChunk(stem),
      stems.stemOffset(stem),
      stems.getDepth(stem),
    );
    stems.setDepth(stem, depth);
    stems.addFlags(stem, FLAG_BLOB_STALE);
  }

  /** Records the node's stored path (first `depth` bits at bits[offset]) for deletion at commit. */
  #orphanIfPersisted(
    kind: number,
    index: number,
    bits: Uint8Array,
    offset: number,
    depth: number,
  ): void {
    const { internals, stems } = this.#arena;
    const flags = kind === KIND_STEM ? stems.getFlags(index) : internals.getFlags(index);
    if ((flags & FLAG_PERSISTED) === 0) return;
    this.#arena.orphans.push({ bits: bits.slice(offset, offset + 32), depth });
    if (kind === KIND_STEM) stems.clearFlags(index, FLAG_PERSISTED);
    else internals.clearFlags(index, FLAG_PERSISTED);
  }

  #link(parent: number, side: number, ref: NodeRef): void {
    if (parent < 0) this.#arena.root = ref;
    else this.#arena.internals.setChild(parent, side, ref);
  }

  applyWrite(key: Uint8Array, ko: number, value: Uint8Array, vo: number): void {
    const index = this.stemForWrite(key, ko);
    const changed = this.#arena.stems.setValue(index, key[ko + 31]!, value, vo);
    this.finishWrite(index, changed);
  }

  /** Marks the written stem and the internal nodes above it stale (only if anything changed). */
  finishWrite(stem: number, changed: boolean): void {
    if (!changed) return;
    const { internals, stems, staleLog } = this.#arena;
    this.#arena.mutations++;
    if (stems.markStale(stem)) staleLog.stem(stem);
    internals.markPathStale(this.#path.data, this.#path.length, this.#lastSide, staleLog);
  }

  /**
   * Appends the internal nodes the last write's split created to the path, once it is marked:
   * the path then reaches the written stem's parent, as a descent after the split would have
   * found it (a sorted flush resumes below them and closes them, see ClosingHasher).
   */
  #joinSplitToPath(): void {
    const m = this.#splitLength;
    const path = this.#path;
    const split = this.#splitNodes.data;
    for (let k = 0; k < m; k++) path.push(split[k]!);
    this.#splitLength = 0;
  }

  /**
   * A key whose path leads to the node the last walk of `key` stopped at (the path itself, or
   * the sibling a collapse wanted): `key` with the bit above that node set to its side.
   */
  routeToMiss(key: Uint8Array): Uint8Array {
    const route = key.slice();
    const depth = this.missDepth - 1;
    if (depth >= 0) {
      const mask = 0x80 >>> (depth & 7);
      const at = depth >>> 3;
      route[at] = this.missSide === 1 ? route[at]! | mask : route[at]! & ~mask;
    }
    return route;
  }

  missingError(key: Uint8Array): TreeError {
    const depth = this.missDepth;
    return new TreeError(
      "MISSING_NODE",
      `node at path ${describePath(key, depth)} is not loaded; use load()/getMany()/putMany() to read it from the store`,
    );
  }
}

/** Number of leading bits the two 31-byte stems at bytes[a] and bytes[b] share. */
export function sharedPrefixBits(bytes: Uint8Array, a: number, b: number): number {
  for (let i = 0; i < 31; i++) {
    const x = bytes[a + i]! ^ bytes[b + i]!;
    if (x !== 0) return i * 8 + Math.clz32(x) - 24;
  }
  return 248;
}
