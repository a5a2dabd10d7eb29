import { StateManagerError } from "./state-manager-error.js";

/** Reverses one cache write. */
export type UndoRecord = () => void;

/**
 * The VM's checkpoint stack as undo records: a write inside a checkpoint records how to undo
 * itself; `commit` hands the records to the enclosing checkpoint, `revert` runs them newest
 * first. Writes outside every checkpoint are final and record nothing.
 */
export class UndoJournal {
  readonly #levels: UndoRecord[][] = [];

  /** Open checkpoints. */
  get depth(): number {
    return this.#levels.length;
  }

  checkpoint(): void {
    this.#levels.push([]);
  }

  record(undo: UndoRecord): void {
    const top = this.#levels[this.#levels.length - 1];
    if (top !== undefined) top.push(undo);
  }

  commit(): void {
    const top = this.#pop("commit");
    const parent = this.#levels[this.#levels.length - 1];
    // A loop, not push(...top): a large transaction can hold more records than a call's arguments.
    if (parent !== undefined) for (const undo of top) parent.push(undo);
  }

  revert(): void {
    const top = this.#pop("revert");
    for (let i = top.length - 1; i >= 0; i--) top[i]!();
  }

  /** Drops every checkpoint without undoing anything (the state is being replaced). */
  clear(): void {
    this.#levels.length = 0;
  }

  #pop(operation: string): UndoRecord[] {
    const top = this.#levels.pop();
    if (top === undefined) {
      throw new StateManagerError(
        "UNBALANCED_CHECKPOINT",
        `${operation}() without an open checkpoint (checkpoint/commit/revert calls must pair up)`,
      );
    }
    return top;
  }
}
