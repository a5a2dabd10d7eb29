import { copy16 } from "../hash/word-copy.js";
import type { Arena } from "./arena.js";
import { NodeDepthList } from "./node-depth-list.js";
import { FLAG_HASH_STALE } from "./node-ref.js";
import type { StaleHasher } from "./stale-hasher.js";
import { sharedPrefixBits } from "./tree-walker.js";
import { U32Stack } from "./u32-stack.js";

/** Writes applied before the nodes they closed are hashed: their paths are still in cache. */
const WINDOW = 64;
/** sharedPrefixBits of two keys of the same stem. */
const SAME_STEM = 248;

/**
 * Hashes while a flush applies the writes in stem order, window by window, instead of after it.
 * Once the next write's key leaves a node's prefix (the node is deeper than the bits the two keys
 * share), no later write in stem order comes back to it: the node is "closed", and its hash can
 * be computed once the stale nodes below it are, which closed before it. So after each window of
 * writes, the stems written last and the internal nodes closed are hashed (stems, then internal
 * nodes deepest first) while the nodes, their siblings' hashes and the pages holding them are
 * still in cache; hashing after the whole flush reads every one of them from memory again.
 *
 * The order must be a whole-stem order (the flusher's, see applyWriteLog): were a later write to
 * come back below a node closed earlier in the same window, the window would hash that node and
 * clear its flag while writes below it are still to come, and the marking of those writes stops
 * at the stale nodes below it (their ancestors are taken to be stale).
 *
 * Only when nothing in the tree is hash-stale as the flush starts (the stale log is complete and
 * empty, as after every hash): a node stale from before could sit below a closed node. The stale
 * log records nothing meanwhile; `finish` leaves it complete and empty again (every node the
 * flush made stale is hashed), `abandon` (a write threw) leaves it invalid, so the next hash finds
 * the nodes still stale by a walk.
 */
export class ClosingHasher {
  readonly #arena: Arena;
  readonly #hasher: StaleHasher;
  readonly #stems = new U32Stack(WINDOW);
  /**
   * The closed one-value stems and their records (stem ‖ subindex ‖ value): the write-log entry
   * of the write that closed the stem is exactly that record (its only value is that write's).
   */
  readonly #single = new U32Stack(WINDOW);
  readonly #records = new Uint8Array(64 * WINDOW);
  readonly #records32 = new Uint32Array(this.#records.buffer);
  readonly #nodes = new NodeDepthList(1024);
  #writes = 0;

  constructor(arena: Arena, hasher: StaleHasher) {
    this.#arena = arena;
    this.#hasher = hasher;
  }

  /** Starts hashing along a flush if nothing is hash-stale now; false (nothing done) otherwise. */
  begin(): boolean {
    const log = this.#arena.staleLog;
    if (!log.valid || log.internals.length !== 0 || log.stems.length !== 0) return false;
    log.invalidate();
    this.#clear();
    return true;
  }

  /**
   * After writeLanes applied the log entries from..from + n (`bytes`/`words`: the log, key ‖
   * value, 64 bytes each, `count` entries in all) to stems[0..n), whose paths (root first, down
   * to the stem's parent) are paths[0..n): for each write, closes its stem unless the next write
   * is to it too, and every path node deeper than the bits its key shares with the next write's
   * key; hashes the window whenever it is full. One call per batch of writes (see writeLanes).
   */
  closeLanes(
    stems: Uint32Array,
    paths: readonly U32Stack[],
    bytes: Uint8Array,
    words: Uint32Array,
    from: number,
    n: number,
    count: number,
  ): void {
    const { internals, stems: pool } = this.#arena;
    const nodes = this.#nodes;
    let room = 0;
    for (let k = 0; k < n; k++) room += paths[k]!.length;
    nodes.reserve(room);
    let end = nodes.length;
    for (let k = 0; k < n; k++) {
      const e = from + k;
      const at = e << 6;
      const nextShared = e + 1 < count ? sharedPrefixBits(bytes, at, at + 64) : -1;
      const stem = stems[k]!;
      if (nextShared < SAME_STEM && (pool.getFlags(stem) & FLAG_HASH_STALE) !== 0) {
        if (pool.getCount(stem) === 1) {
          // Its only value is this write's: the log entry is the stem's record.
          copy16(words, at >>> 2, this.#records32, this.#single.length << 4);
          this.#single.push(stem);
        } else {
          this.#stems.push(stem);
        }
      }
      const path = paths[k]!;
      end = internals.staleBelow(
        path.data,
        path.length,
        nextShared,
        nodes.nodes.data,
        nodes.depths,
        end,
      );
      if (++this.#writes === WINDOW) {
        nodes.length = end;
        this.#hashWindow();
        end = 0;
      }
    }
    nodes.length = end;
  }

  /** After the last write: hashes what is left; nothing in the tree is hash-stale then. */
  finish(): void {
    this.#hashWindow();
    this.#arena.staleLog.restart();
  }

  /** A write threw: what was closed and not hashed stays stale, found by the next hash's walk. */
  abandon(): void {
    this.#clear();
  }

  #hashWindow(): void {
    const stems = this.#stems;
    const single = this.#single;
    const nodes = this.#nodes;
    if (single.length > 0)
      this.#hasher.hashStemRecords(this.#records, this.#records32, single.data, single.length);
    if (stems.length > 0) this.#hasher.hashStems(stems.data, 0, stems.length);
    if (nodes.length > 0)
      this.#hasher.hashInternals(nodes.nodes.data, nodes.depths, 0, nodes.length);
    this.#clear();
  }

  #clear(): void {
    this.#stems.clear();
    this.#single.clear();
    this.#nodes.clear();
    this.#writes = 0;
  }
}
