import type { Arena } from "./arena.js";
import {
  FLAG_PERSISTED,
  FLAGS_STALE,
  KIND_HASHED,
  KIND_INTERNAL,
  KIND_STEM,
  makeRef,
  type NodeRef,
  refIndex,
  refKind,
} from "./node-ref.js";

const MAX_TREE_DEPTH = 248;

/**
 * Keeps a tree within a node budget by turning clean, stored subtrees back into hashed
 * placeholders (they reload on demand). It keeps the top of the tree, which every path
 * shares, and drops everything below the deepest cut depth that fits the budget. Cuts happen
 * only where a blob is stored: at group roots (depth % g == 0; any depth for g = 0) and stems.
 */
export class Evictor {
  readonly #arena: Arena;
  readonly #hashScratch = new Uint8Array(32);

  constructor(arena: Arena) {
    this.#arena = arena;
  }

  /** Evicts until at most about `maxNodes` internal+stem nodes stay; returns nodes released. */
  evict(maxNodes: number, groupDepth: number): number {
    const { internals, stems } = this.#arena;
    const live = internals.live + stems.live;
    if (live <= maxNodes) return 0;
    const histogram = new Float64Array(MAX_TREE_DEPTH + 2);
    this.#countDepths(this.#arena.root, histogram);
    // Deepest cut whose kept part (nodes above the cut) fits the budget.
    let cut = 1;
    let kept = histogram[0]!;
    for (let depth = 1; depth <= MAX_TREE_DEPTH; depth++) {
      if (kept > maxNodes) break;
      if (groupDepth === 0 || depth % groupDepth === 0) cut = depth;
      kept += histogram[depth]!;
    }
    if (kept <= maxNodes) return 0;
    return this.#cutBelow(this.#arena.root, -1, 0, cut, groupDepth);
  }

  #countDepths(ref: NodeRef, histogram: Float64Array): void {
    const { internals, stems } = this.#arena;
    const kind = refKind(ref);
    const index = refIndex(ref);
    if (kind === KIND_STEM) {
      histogram[stems.getDepth(index)]!++;
    } else if (kind === KIND_INTERNAL) {
      histogram[internals.getDepth(index)]!++;
      this.#countDepths(internals.getLeft(index), histogram);
      this.#countDepths(internals.getRight(index), histogram);
    }
  }

  /** Walks internal node `index` (child `side` of `parent`) and evicts evictable nodes at the cut. */
  #cutBelow(ref: NodeRef, parent: number, side: number, cut: number, groupDepth: number): number {
    const { internals, stems } = this.#arena;
    const kind = refKind(ref);
    const index = refIndex(ref);
    if (kind === KIND_STEM) {
      if (parent < 0 || stems.getDepth(index) < cut) return 0;
      if ((stems.getFlags(index) & (FLAGS_STALE | FLAG_PERSISTED)) !== FLAG_PERSISTED) return 0;
      this.#replace(parent, side, ref);
      return 1;
    }
    if (kind !== KIND_INTERNAL) return 0;
    const depth = internals.getDepth(index);
    const boundary = groupDepth === 0 || depth % groupDepth === 0;
    if (parent >= 0 && depth >= cut && boundary) {
      if ((internals.getFlags(index) & (FLAGS_STALE | FLAG_PERSISTED)) === FLAG_PERSISTED) {
        this.#replace(parent, side, ref);
        return this.#release(ref);
      }
    }
    return (
      this.#cutBelow(internals.getLeft(index), index, 0, cut, groupDepth) +
      this.#cutBelow(internals.getRight(index), index, 1, cut, groupDepth)
    );
  }

  /** Puts a hashed placeholder carrying the node's hash in its parent's slot. */
  #replace(parent: number, side: number, ref: NodeRef): void {
    const arena = this.#arena;
    arena.writeHash(ref, this.#hashScratch, 0);
    if (refKind(ref) === KIND_STEM) arena.stems.release(refIndex(ref));
    const placeholder = makeRef(KIND_HASHED, arena.hashed.alloc(this.#hashScratch, 0));
    arena.internals.setChild(parent, side, placeholder);
  }

  /** Releases an internal subtree to the free lists; returns the nodes released. */
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
