import type { Arena } from "./arena.js";
import type { BulkBuilder } from "./bulk-builder.js";
import type { ClosingHasher } from "./closing-hasher.js";
import { EMPTY_REF } from "./node-ref.js";
import { LANES, type TreeWalker } from "./tree-walker.js";
import type { WriteLog } from "./write-log.js";

/** Longest run of keys sharing their first 4 bytes that orderRunsByStem sorts (by insertion). */
const MAX_RUN = 64;

/**
 * Applies the pending single-key writes in stem order: consecutive writes then share most of
 * their path (cache-friendly descents), and new nodes are allocated in tree order, which makes
 * the later hashing walk the pools nearly sequentially. Equal keys keep their call order. The
 * entries are copied in that order and applied LANES writes at a time: their descents walked
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
  const order = log.sortedOrder();
  const n = log.count;
  // Closing needs a whole-stem order (see ClosingHasher).
  const stemOrder = orderRunsByStem(log.bytes, order, n);
  // The entries copied in that order (4-byte aligned: stems and values compare as words).
  const bytes = log.inOrder(order);
  const words = new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.length >>> 2);
  const closer = stemOrder && closing?.begin() ? closing : undefined;
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
    log.retainUnapplied(order, i + walker.lanesWritten);
    throw error;
  }
  closer?.finish();
  log.clear();
}

/**
 * The log's order sorts by the keys' first 4 bytes only: orders each run of equal first bytes
 * by the whole stem (stable, so equal stems keep their call order), making the order a stem
 * order (with hashed keys a run is nearly always one entry long). Returns false, the order then
 * partly sorted, when a run is longer than MAX_RUN (keys chosen to share their first bytes):
 * sorting it by insertion could take quadratic time.
 */
function orderRunsByStem(bytes: Uint8Array, order: Uint32Array, n: number): boolean {
  let start = 0;
  while (start < n) {
    const first = order[start]! << 6;
    let end = start + 1;
    while (end < n && samePrefix(bytes, first, order[end]! << 6)) end++;
    if (end - start > MAX_RUN) return false;
    for (let k = start + 1; k < end; k++) {
      const entry = order[k]!;
      let j = k;
      while (j > start && stemAfter(bytes, order[j - 1]! << 6, entry << 6)) {
        order[j] = order[j - 1]!;
        j--;
      }
      order[j] = entry;
    }
    start = end;
  }
  return true;
}

function samePrefix(bytes: Uint8Array, a: number, b: number): boolean {
  return (
    bytes[a] === bytes[b] &&
    bytes[a + 1] === bytes[b + 1] &&
    bytes[a + 2] === bytes[b + 2] &&
    bytes[a + 3] === bytes[b + 3]
  );
}

/** Whether the stem at bytes[a] sorts after the one at bytes[b] (their first 4 bytes equal). */
function stemAfter(bytes: Uint8Array, a: number, b: number): boolean {
  for (let i = 4; i < 31; i++) {
    const x = bytes[a + i]!;
    const y = bytes[b + i]!;
    if (x !== y) return x > y;
  }
  return false;
}
