import type { Arena } from "./arena.js";
import type { BulkBuilder } from "./bulk-builder.js";
import type { ClosingHasher } from "./closing-hasher.js";
import { EMPTY_REF } from "./node-ref.js";
import { LANES, type TreeWalker } from "./tree-walker.js";
import type { WriteLog } from "./write-log.js";

/**
 * Applies the pending single-key writes in stem order: consecutive writes then share most of
 * their path (cache-friendly descents), and new nodes are allocated in tree order, which makes
 * the later hashing walk the pools nearly sequentially. Equal keys keep their call order. The
 * log is put in that order in place by the bulk build's sort (so the first flush after a build
 * runs code V8 has compiled already), and applied LANES writes at a time: their descents walked
 * side by side, then the writes, then (with `closing`) the closing of what they left. An entry
 * is dropped from the log only once applied: when one throws (a full pool), it and every entry
 * after it stay in the log. An empty tree is built from the whole log at once by `bulk` (unless
 * a witness is being recorded: it sees every write's descent). With `closing`, the nodes the
 * writes make stale are hashed as the writes close them (see ClosingHasher), when nothing was
 * stale before.
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
  log.sortByStemInPlace();
  // The log's buffers are 4-byte aligned (WriteLog): stems and values compare as words.
  const bytes = log.bytes;
  const words = new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.length >>> 2);
  const n = log.count;
  const closer = closing?.begin() ? closing : undefined;
  const stems = walker.laneStems;
  const paths = walker.lanePaths;
  let i = 0;
  try {
    for (; i < n; i += LANES) {
      const m = Math.min(LANES, n - i);
      walker.descendLanes(bytes, i, m);
      walker.writeLanes(bytes, words, i, m);
      if (closer !== undefined) closer.closeLanes(stems, paths, bytes, words, i, m, n);
    }
  } catch (error) {
    closer?.abandon();
    log.retainFrom(i + walker.lanesWritten);
    throw error;
  }
  closer?.finish();
  log.clear();
}
