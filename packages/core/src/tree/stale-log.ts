import { U32Stack } from "./u32-stack.js";

/** Recorded nodes beyond which recording stops (the walk then finds them as cheaply). */
const MAX_RECORDED = 1 << 20;

/**
 * The nodes that became hash-stale since the last hash, recorded where it happens (the write
 * descent, while the path is in cache), so the next hash need not walk the tree from the root
 * to find them. Only writes record; whatever else can make nodes stale or free them (removals,
 * reverts, copies) invalidates the log, and the next hash walks the tree as before.
 */
export class StaleLog {
  readonly internals = new U32Stack(1024);
  readonly stems = new U32Stack(256);
  /** False until a hash has seen the whole tree, and after any change the log does not track. */
  valid = false;

  /** An internal node whose hash just went stale (it was not before). */
  internal(index: number): void {
    if (!this.valid) return;
    if (this.internals.length >= MAX_RECORDED) this.invalidate();
    else this.internals.push(index);
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
    this.stems.clear();
  }

  /** After a hash: nothing is stale, and the log is complete again. */
  restart(): void {
    this.valid = true;
    this.internals.clear();
    this.stems.clear();
  }
}
