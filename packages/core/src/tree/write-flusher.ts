import type { Arena } from "./arena.js";
import type { BulkBuilder } from "./bulk-builder.js";
import type { ClosingHasher } from "./closing-hasher.js";
import { EMPTY_REF } from "./node-ref.js";
import { sharedPrefixBits, type TreeWalker } from "./tree-walker.js";
import type { WriteLog } from "./write-log.js";

/** Writes whose descents are read side by side before they are applied (see touchDescents). */
const TOUCH_AHEAD = 16;

/**
 * Applies the pending single-key writes in key order: consecutive writes then share most of
 * their path (cache-friendly descents), and new nodes are allocated in tree order, which makes
 * the later hashing walk the pools nearly sequentially. Equal keys keep their call order. An
 * entry is dropped from the log only once applied: when one throws (a full pool), it and every
 * entry after it stay in the log. An empty tree is built from the whole log at once by `bulk`
 * (unless a witness is being recorded: it sees every write's descent). With `closing`, the
 * nodes the writes make stale are hashed as the writes close them (see ClosingHasher), when
 * nothing was stale before.
 */
export function applyWriteLog(
  log: WriteLog,
  walker: TreeWalker,
  arena: Arena,
  bulk?: BulkBuilder,
  closing?: ClosingHasher,
): void {
  if (log.count === 0) return;
  if (
    bulk !== undefined &&
    log.count > 1 &&
    arena.root === EMPTY_REF &&
    walker.recorder === undefined &&
    bulk.build(log)
  ) {
    return;
  }
  const order = log.sortedOrder();
  const bytes = log.bytes;
  const n = log.count;
  const closer = closing?.begin() === true ? closing : undefined;
  let previous = -1;
  // Bits the key at `previous` shares with the one applied next.
  let shared = 0;
  let i = 0;
  try {
    for (; i < n; i++) {
      if (i % TOUCH_AHEAD === 0)
        walker.touchDescents(bytes, order, i, Math.min(n, i + TOUCH_AHEAD));
      const at = order[i]! << 6;
      // Sorted neighbours share a prefix: resume the descent below the shared part of the
      // previous write's path instead of starting at the root.
      let keep = 0;
      if (previous >= 0) {
        const path = walker.path;
        const internals = arena.internals;
        keep = path.length;
        while (keep > 0 && internals.getDepth(path.data[keep - 1]!) >= shared) keep--;
      }
      const index = walker.stemForWrite(bytes, at, keep);
      const changed = arena.stems.setValue(index, bytes[at + 31]!, bytes, at + 32);
      walker.finishWrite(index, changed);
      walker.joinSplitToPath();
      shared = i + 1 < n ? sharedPrefixBits(bytes, at, order[i + 1]! << 6) : -1;
      closer?.closeWrite(index, walker.path, shared);
      previous = at;
    }
  } catch (error) {
    closer?.abandon();
    log.retainUnapplied(order, i);
    throw error;
  }
  closer?.finish();
  log.clear();
}
