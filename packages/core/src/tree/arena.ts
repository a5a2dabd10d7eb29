import { copy8, zero8 } from "../hash/word-copy.js";
import { HashedPool } from "./hashed-pool.js";
import { INTERNAL_NODE_BYTES, InternalPool } from "./internal-pool.js";
import {
  EMPTY_REF,
  KIND_HASHED,
  KIND_INTERNAL,
  KIND_STEM,
  type NodeRef,
  refIndex,
  refKind,
} from "./node-ref.js";
import { CHUNK_BITS, CHUNK_MASK } from "./pool-chunks.js";
import { StaleLog } from "./stale-log.js";
import { STEM_NODE_BYTES, StemPool } from "./stem-pool.js";

/** A stored blob whose node moved or disappeared: its path is deleted unless rewritten. */
export interface OrphanPath {
  /** Path bits, MSB-first (only the first `depth` bits count). */
  readonly bits: Uint8Array;
  readonly depth: number;
}

/** The node pools and the root: everything the tree is, as typed arrays. */
export class Arena {
  internals: InternalPool;
  stems: StemPool;
  hashed: HashedPool;
  root: NodeRef = EMPTY_REF;
  orphans: OrphanPath[] = [];
  /**
   * Counts changes of the tree's content or shape (writes, splits, removals). A persist compares
   * it before and after its store batch: a write made meanwhile means the snapshot it wrote is
   * not the tree any more, so it must not mark the tree clean (see TreePersister).
   */
  mutations = 0;
  /** Counts commits applied to the flags (each consumes the orphans it wrote deletes for). */
  commits = 0;
  /** The nodes gone hash-stale since the last hash (see StaleLog). */
  readonly staleLog = new StaleLog();

  /** `limits`: the largest index of each pool (tests lower them to reach exhaustion). */
  constructor(limits: { internal?: number; stem?: number; hashed?: number } = {}) {
    this.internals = new InternalPool(limits.internal);
    this.stems = new StemPool(limits.stem);
    this.hashed = new HashedPool(limits.hashed);
  }

  /** Writes the 32-byte hash of `ref` (cached or stored; zero for empty) to out[offset]. */
  writeHash(ref: NodeRef, out: Uint8Array, offset: number): void {
    const kind = refKind(ref);
    const index = refIndex(ref);
    let src: Uint8Array;
    let at: number;
    if (kind === KIND_INTERNAL) {
      src = this.internals.hashChunk(index);
      at = this.internals.hashOffset(index);
    } else if (kind === KIND_STEM) {
      src = this.stems.hashChunk(index);
      at = this.stems.hashOffset(index);
    } else if (kind === KIND_HASHED) {
      src = this.hashed.hashChunk(index);
      at = this.hashed.hashOffset(index);
    } else {
      out.fill(0, offset, offset + 32);
      return;
    }
    // A plain loop: no subarray view object per call on this hot path.
    for (let i = 0; i < 32; i++) out[offset + i] = src[at + i]!;
  }

  /** Writes the hash of `ref` as 8 words to words[wordOffset] (zero for empty). */
  writeHashWords(ref: NodeRef, words: Uint32Array, wordOffset: number): void {
    const kind = refKind(ref);
    const index = refIndex(ref);
    let src: Uint32Array;
    if (kind === KIND_INTERNAL) src = this.internals.hash32[index >>> CHUNK_BITS]!;
    else if (kind === KIND_STEM) src = this.stems.hash32[index >>> CHUNK_BITS]!;
    else if (kind === KIND_HASHED) src = this.hashed.hash32[index >>> CHUNK_BITS]!;
    else {
      zero8(words, wordOffset);
      return;
    }
    copy8(src, (index & CHUNK_MASK) << 3, words, wordOffset);
  }

  /**
   * Makes this (empty) arena hold the same tree as `source`, sharing the pools' chunks
   * copy-on-write: O(chunks), and each side clones a chunk the first time it writes to it.
   */
  adoptTwinOf(source: Arena): void {
    this.internals = source.internals.twin();
    this.stems = source.stems.twin();
    this.hashed = source.hashed.twin();
    this.root = source.root;
    this.orphans = source.orphans.slice();
    this.mutations = source.mutations;
    this.commits = source.commits;
    this.staleLog.invalidate();
  }

  /** Live node counts per kind. */
  counts(): { internal: number; stem: number; hashed: number } {
    return { internal: this.internals.live, stem: this.stems.live, hashed: this.hashed.live };
  }

  /** Bytes held by every pool's typed arrays. */
  bytes(): number {
    return this.internals.bytes + this.stems.bytes + this.hashed.bytes;
  }

  /**
   * Bytes the live nodes occupy (nodes, placeholders and value blocks): what a memory bound
   * counts. Kept by the pools' counters, so it costs nothing to read; the typed arrays hold
   * at most this plus the free slots, which later allocations reuse first.
   */
  liveBytes(): number {
    return (
      this.internals.live * INTERNAL_NODE_BYTES +
      this.stems.live * STEM_NODE_BYTES +
      this.hashed.live * 32 +
      this.stems.values.liveSlots * 33
    );
  }
}
