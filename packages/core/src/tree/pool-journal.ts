/**
 * What a node pool tells an open checkpoint about its slots. A pool with a journal calls
 * `touch` before it changes an existing slot (the journal saves the slot's record the first time
 * per checkpoint level), `allocated` when it hands out a slot, and asks `deferRelease` before it
 * frees one: while a checkpoint is open a freed slot keeps its contents, so a revert can bring
 * it back, and it only returns to the free list when the outermost checkpoint closes.
 */
export interface PoolJournal {
  touch(index: number): void;
  allocated(index: number): void;
  /** True when the journal keeps the slot for now (the pool must not free it). */
  deferRelease(index: number): boolean;
}

/** The value heap's side of a journal: blocks are identified by slot address and size class. */
export interface HeapJournal {
  allocated(address: number, sizeClass: number): void;
  deferRelease(address: number, sizeClass: number): boolean;
}
