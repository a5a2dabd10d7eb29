import { U32Stack } from "./u32-stack.js";

/** Recorded nodes beyond which recording stops (the walk then finds them as cheaply). */
const MAX_RECORDED = 1 << 20;

/**
 * The nodes that became hash-stale since the last hash, recorded where it happens (the write
 * descent, while the path is in cache), so the next hash need not walk the tree from the root
 * to find them. Each node is recorded once, when it goes stale, and stays stale until the next
 * hash, which starts the log again. Only writes record; whatever else can make nodes stale or free them (removals,
 * reverts, copies) invalidates the log, and the next hash walks the tree as before.
 */
export class StaleLog {
  readonly internals = new U32Stack(1024);
  /** The depth of each of `internals`: gathering them for hashing then reads no node record. */
  readonly depths = new U32Stack(1024);
  readonly stems = new U32Stack(256);
  /** False until a hash has seen the whole tree, and after any change the log does not track. */
  valid = false;

  /** An internal node (at `depth`) whose hash just went stale (it was not before). */
  internal(index: number, depth: number): void {
    if (!this.valid) return;
    if (this.internals.length >= MAX_RECORDED) this.invalidate();
    else {
      this.internals.push(index);
      this.depths.push(depth);
    }
  }

  /** A stem whose hash just went stale (it was not before). */
  stem(index: number): void {
    if (!this.valid) return;
    if (this.stems.length >= MAX_RECORDED) this.invalidate();
    else this.stems.push(index);
  }

  invalidate(): void {
    this.valid = false;
    this.internals.clear();
    this.depths.clear();
    this.stems.clear();
  }

  /** After a hash: nothing is stale, and the log is complete again. */
  restart(): void {
    this.valid = true;
    this.internals.clear();
    this.depths.clear();
    this.stems.clear();
  }
}
