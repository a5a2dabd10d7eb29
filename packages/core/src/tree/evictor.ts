import type { Arena } from "./arena.js";
import { NO_PARENT } from "./internal-pool.js";
import {
  FLAG_FREE,
  FLAG_PERSISTED,
  FLAG_REFERENCED,
  FLAGS_STALE,
  KIND_HASHED,
  KIND_INTERNAL,
  KIND_STEM,
  makeRef,
  type NodeRef,
  refIndex,
  refKind,
} from "./node-ref.js";
import { U32Stack } from "./u32-stack.js";

/** A memory bound: either limit may be infinite. */
export interface MemoryLimits {
  /** Internal + stem nodes. */
  readonly maxNodes: number;
  /** Arena bytes of live nodes, placeholders and value blocks (Arena.liveBytes). */
  readonly maxBytes: number;
}

/** Eviction stops this far under a limit (1/32), so the next few loads do not evict again. */
const SLACK_SHIFT = 5;

/**
 * Keeps a tree within a memory bound by turning clean, stored group subtrees back into hashed
 * placeholders (they reload on demand), least recently used first, with the clock algorithm:
 * lookups of a bounded tree and loads set FLAG_REFERENCED on the internal nodes they pass; the
 * hand sweeps the internal pool's slots, gives a referenced group root a second chance (clears
 * the bit) and evicts an unreferenced one. Why a clock: it needs one flag bit and the parent
 * slot each node already keeps, no list to relink on every read, and no walk of the tree — the
 * hand resumes where it stopped, so the cost is proportional to what is evicted. Only group
 * roots (depth % g == 0; any depth for g = 0) below the root are cut, since only there is a
 * blob stored; a clean node has only clean descendants (every write marks its whole path). A
 * group is evicted only from the fringe (no loaded group below it), so eviction works bottom up
 * and the shared upper levels stay: evicting a high group would drop a whole subtree that the
 * next reads must load again level by level.
 */
export class Evictor {
  readonly #arena: Arena;
  readonly #hashScratch = new Uint8Array(32);
  readonly #stack = new U32Stack(64);
  #hand = 0;
  /** (commits, live internals) after a sweep that found nothing: nothing new to evict since. */
  #fruitlessCommits = -1;
  #fruitlessLive = -1;

  constructor(arena: Arena) {
    this.#arena = arena;
  }

  /** True when the arena is over either limit. */
  over(limits: MemoryLimits): boolean {
    const arena = this.#arena;
    return (
      arena.internals.live + arena.stems.live > limits.maxNodes ||
      arena.liveBytes() > limits.maxBytes
    );
  }

  /** When over a limit, evicts to 1/32 under it (or until nothing is evictable); returns nodes released. */
  evict(limits: MemoryLimits, groupDepth: number): number {
    const arena = this.#arena;
    const { internals } = arena;
    if (!this.over(limits)) return 0;
    if (arena.commits === this.#fruitlessCommits && internals.live === this.#fruitlessLive)
      return 0;
    const target: MemoryLimits = {
      maxNodes: limits.maxNodes - Math.floor(limits.maxNodes / 2 ** SLACK_SHIFT),
      maxBytes: limits.maxBytes - Math.floor(limits.maxBytes / 2 ** SLACK_SHIFT),
    };
    let released = 0;
    let evicted = false;
    // Turn by turn: each turn peels the current fringe (and clears reference bits); stop when
    // two turns in a row evicted nothing (nothing left that may go).
    let idleSteps = 0;
    while (idleSteps <= 2 * internals.capacity + 1 && this.over(target)) {
      idleSteps++;
      if (this.#hand >= internals.capacity) this.#hand = 0;
      const index = this.#hand++;
      const flags = internals.getFlags(index);
      if ((flags & FLAG_FREE) !== 0) continue;
      const depth = internals.getDepth(index);
      if (depth === 0 || (groupDepth !== 0 && depth % groupDepth !== 0)) continue;
      if ((flags & (FLAGS_STALE | FLAG_PERSISTED)) !== FLAG_PERSISTED) continue;
      if ((flags & FLAG_REFERENCED) !== 0) {
        internals.clearFlags(index, FLAG_REFERENCED);
        continue;
      }
      // Bottom up: a group with loaded groups below waits until they are gone, so the upper
      // levels every path shares stay while anything under them is in memory.
      if (!this.#isFringe(index, depth, groupDepth)) continue;
      const slot = internals.getParent(index);
      if (slot === NO_PARENT) continue;
      const parent = slot >>> 1;
      const side = slot & 1;
      const ref = makeRef(KIND_INTERNAL, index);
      if (internals.getChild(parent, side) !== ref) continue;
      released += this.#cut(parent, side, ref);
      evicted = true;
      idleSteps = 0;
    }
    if (!evicted) {
      this.#fruitlessCommits = arena.commits;
      this.#fruitlessLive = internals.live;
    }
    return released;
  }

  /** True when no internal node below the group rooted at `index` is itself a group root. */
  #isFringe(index: number, depth: number, groupDepth: number): boolean {
    const { internals } = this.#arena;
    const bottom = depth + Math.max(groupDepth, 1);
    const stack = this.#stack;
    stack.clear();
    stack.push(index);
    while (stack.length > 0) {
      const node = stack.pop();
      for (let side = 0; side < 2; side++) {
        const child = internals.getChild(node, side);
        if (refKind(child) !== KIND_INTERNAL) continue;
        const at = refIndex(child);
        if (internals.getDepth(at) >= bottom) return false;
        stack.push(at);
      }
    }
    return true;
  }

  /** Puts a hashed placeholder in the parent's slot, then frees the subtree; returns nodes freed. */
  #cut(parent: number, side: number, ref: NodeRef): number {
    const arena = this.#arena;
    arena.writeHash(ref, this.#hashScratch, 0);
    // Allocated before anything is freed: a full pool throws with the tree unchanged.
    const placeholder = makeRef(KIND_HASHED, arena.hashed.alloc(this.#hashScratch, 0));
    arena.internals.setChild(parent, side, placeholder);
    return this.#release(ref);
  }

  /** Releases a subtree to the free lists; returns the internal + stem nodes released. */
  #release(ref: NodeRef): number {
    const arena = this.#arena;
    const kind = refKind(ref);
    const index = refIndex(ref);
    if (kind === KIND_STEM) {
      arena.stems.release(index);
      return 1;
    }
    if (kind === KIND_HASHED) {
      arena.hashed.release(index);
      return 0;
    }
    if (kind !== KIND_INTERNAL) return 0;
    const n =
      1 +
      this.#release(arena.internals.getLeft(index)) +
      this.#release(arena.internals.getRight(index));
    arena.internals.release(index);
    return n;
  }
}
