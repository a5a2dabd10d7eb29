import type { Arena } from "./arena.js";
import { FLAG_BLOB_STALE, FLAG_PERSISTED, FLAGS_STALE_CHILDREN } from "./node-ref.js";
import { SIZED_WRITES_MAX } from "./packed-writes.js";
import { U32Stack } from "./u32-stack.js";

/** The flags a written stem loses (it also gains FLAG_PERSISTED). */
const STEM_WRITTEN = FLAG_BLOB_STALE;
/** The flags a written node with a blob of its own loses: everything below it is written too. */
const NODE_WRITTEN = FLAG_BLOB_STALE | FLAGS_STALE_CHILDREN;
/** The flags an inner node of a written group loses (its group's blob covers it). */
export const INNER_WRITTEN = FLAG_BLOB_STALE | FLAG_PERSISTED | FLAGS_STALE_CHILDREN;

/**
 * What a persist changes in the flags once its node set is durable, recorded during collection
 * instead of done there: the collection stays a pure read of the tree, and a persist whose
 * store batch rejects leaves every node exactly as dirty as before. (`commit()` hands its set
 * to the caller at once: it cleans each node as it is collected, with the functions at the end
 * of this file.)
 */
export class CommitMarks {
  /** Stems whose blob was written: blob clean, stored at their path. */
  readonly stems: U32Stack;
  /** Internal nodes with a blob of their own (group roots, or every node at g = 0). */
  readonly stored: U32Stack;
  /** Inner nodes of written groups: no blob of their own, so clean and not stored. */
  readonly inner: U32Stack;
  /** Orphan paths (at the front of the arena's list) the node set deletes. */
  orphans = 0;
  /** What `apply`'s touching loads read (see RUN). */
  loads = 0;

  /**
   * Lists sized like `like`'s (the last collection's: the next block's are much the same), so
   * they do not grow by doubling copies while the collection fills them.
   */
  constructor(like?: CommitMarks) {
    this.stems = new U32Stack(capacityLike(like?.stems));
    this.stored = new U32Stack(capacityLike(like?.stored));
    this.inner = new U32Stack(capacityLike(like?.inner));
  }

  /**
   * After a batch that may or may not have landed: the nodes it wrote stay dirty, but each may
   * have a blob at its path now, so a later move of one deletes that path (see FLAG_PERSISTED).
   */
  markMaybeStored(arena: Arena): void {
    const { stems, internals } = arena;
    for (let k = 0; k < this.stems.length; k++) stems.addFlags(this.stems.data[k]!, FLAG_PERSISTED);
    for (let k = 0; k < this.stored.length; k++) {
      internals.addFlags(this.stored.data[k]!, FLAG_PERSISTED);
    }
  }

  /** Applies the marks: the nodes written become clean, the orphans deleted are forgotten. */
  apply(arena: Arena): void {
    let loads = markStored(arena.stems, this.stems, STEM_WRITTEN);
    loads ^= markStored(arena.internals, this.stored, NODE_WRITTEN);
    loads ^= clearInner(arena.internals, this.inner);
    // Kept so the touching loads are not optimised away.
    this.loads = loads;
    arena.orphans.splice(0, this.orphans);
    arena.commits++;
  }
}

function capacityLike(list: U32Stack | undefined): number {
  const n = list === undefined ? 0 : list.length;
  // Capped as the packed set's entries are: a whole tree's collection is not the next block's.
  return Math.max(256, Math.min(n + (n >>> 2), SIZED_WRITES_MAX));
}

/** A pool's flag accessors, as both pools have them. */
interface FlagPool {
  getFlags(index: number): number;
  setFlags(index: number, flags: number): void;
  clearFlags(index: number, flags: number): void;
}

// One function per loop: a full commit runs each loop long enough to optimise it whole, so an
// update commit does not meet a loop V8 compiled before it had ever run (and deoptimise).

/**
 * Nodes per run of the loops below. On a large tree each node's flags are a cache (and TLB)
 * miss, and a loop that updates them one by one waits for each in turn: a run's flags are first
 * read in a loop of independent loads (their misses overlap), then updated in cache.
 */
const RUN = 64;

/** Reads the flags of list[from, to) (so the update loop finds them in cache); returns a sum. */
function touchFlags(pool: FlagPool, list: U32Stack, from: number, to: number): number {
  let loads = 0;
  for (let k = from; k < to; k++) loads ^= pool.getFlags(list.data[k]!);
  return loads;
}

/** The nodes' blobs are written: clean, and stored at their path. */
function markStored(pool: FlagPool, list: U32Stack, clear: number): number {
  let loads = 0;
  for (let from = 0; from < list.length; from += RUN) {
    const to = Math.min(list.length, from + RUN);
    loads ^= touchFlags(pool, list, from, to);
    for (let k = from; k < to; k++) {
      const index = list.data[k]!;
      pool.setFlags(index, (pool.getFlags(index) & ~clear) | FLAG_PERSISTED);
    }
  }
  return loads;
}

/** Inner nodes of written groups: covered by their group's blob, none of their own. */
function clearInner(pool: FlagPool, list: U32Stack): number {
  let loads = 0;
  for (let from = 0; from < list.length; from += RUN) {
    const to = Math.min(list.length, from + RUN);
    loads ^= touchFlags(pool, list, from, to);
    for (let k = from; k < to; k++) pool.clearFlags(list.data[k]!, INNER_WRITTEN);
  }
  return loads;
}

/** A stem just collected by a commit: what `apply` does to `stems`, for one. */
export function cleanWrittenStem(arena: Arena, index: number): void {
  const { stems } = arena;
  stems.setFlags(index, (stems.getFlags(index) & ~STEM_WRITTEN) | FLAG_PERSISTED);
}

/** A node with a blob of its own just collected by a commit: what `apply` does to `stored`. */
export function cleanWrittenNode(arena: Arena, index: number): void {
  const { internals } = arena;
  internals.setFlags(index, (internals.getFlags(index) & ~NODE_WRITTEN) | FLAG_PERSISTED);
}

/** The inner nodes list[from, length) of a group just collected by a commit; drops them from it. */
export function cleanWrittenInner(arena: Arena, list: U32Stack, from: number): void {
  const { internals } = arena;
  for (let k = from; k < list.length; k++) internals.clearFlags(list.data[k]!, INNER_WRITTEN);
  list.length = from;
}
