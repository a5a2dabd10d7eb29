import type { Arena } from "./arena.js";
import { FLAG_BLOB_STALE, FLAG_PERSISTED } from "./node-ref.js";
import { U32Stack } from "./u32-stack.js";

/**
 * What a commit changes in the flags once its node set is durable, recorded during collection
 * instead of done there: collection stays a pure read of the tree, and a persist whose store
 * batch rejects leaves every node exactly as dirty as before.
 */
export class CommitMarks {
  /** Stems whose blob was written: blob clean, stored at their path. */
  readonly stems = new U32Stack(256);
  /** Internal nodes with a blob of their own (group roots, or every node at g = 0). */
  readonly stored = new U32Stack(256);
  /** Inner nodes of written groups: no blob of their own, so clean and not stored. */
  readonly inner = new U32Stack(256);
  /** Orphan paths (at the front of the arena's list) the node set deletes. */
  orphans = 0;

  /** Applies the marks: the nodes written become clean, the orphans deleted are forgotten. */
  apply(arena: Arena): void {
    const { internals, stems } = arena;
    const s = this.stems;
    for (let k = 0; k < s.length; k++) {
      const index = s.data[k]!;
      stems.setFlags(index, (stems.getFlags(index) & ~FLAG_BLOB_STALE) | FLAG_PERSISTED);
    }
    const stored = this.stored;
    for (let k = 0; k < stored.length; k++) {
      const index = stored.data[k]!;
      internals.setFlags(index, (internals.getFlags(index) & ~FLAG_BLOB_STALE) | FLAG_PERSISTED);
    }
    const inner = this.inner;
    for (let k = 0; k < inner.length; k++)
      internals.clearFlags(inner.data[k]!, FLAG_BLOB_STALE | FLAG_PERSISTED);
    arena.orphans.splice(0, this.orphans);
    arena.commits++;
  }
}
