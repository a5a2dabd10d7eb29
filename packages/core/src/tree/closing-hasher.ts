import { copy16 } from "../hash/word-copy.js";
import type { Arena } from "./arena.js";
import { NodeDepthList } from "./node-depth-list.js";
import { FLAG_HASH_STALE } from "./node-ref.js";
import type { StaleHasher } from "./stale-hasher.js";
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
   * After the write of the log entry at words[entry..entry + 16) (key ‖ value) to `stem`, whose
   * path (root first, down to the stem's parent) is `path`: `nextShared` is the number of leading
   * bits its key shares with the next write's key (-1 for the last write). Closes the stem unless
   * the next write is to it too, and every path node deeper than `nextShared`; hashes the window
   * when it is full.
   */
  closeWrite(
    stem: number,
    path: U32Stack,
    nextShared: number,
    words: Uint32Array,
    entry: number,
  ): void {
    const { internals, stems } = this.#arena;
    if (nextShared < SAME_STEM && (stems.getFlags(stem) & FLAG_HASH_STALE) !== 0) {
      if (stems.getCount(stem) === 1) {
        copy16(words, entry, this.#records32, this.#single.length << 4);
        this.#single.push(stem);
      } else {
        this.#stems.push(stem);
      }
    }
    const nodes = this.#nodes;
    nodes.reserve(path.length);
    nodes.length = internals.staleBelow(
      path.data,
      path.length,
      nextShared,
      nodes.nodes.data,
      nodes.depths,
      nodes.length,
    );
    if (++this.#writes === WINDOW) this.#hashWindow();
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
