import type { Hasher } from "../hash/hasher.js";
import { StemSubtreeFold } from "../hash/stem-subtree-fold.js";
import type { Arena } from "./arena.js";
import { FLAG_HASH_STALE, KIND_INTERNAL, KIND_STEM, refIndex, refKind } from "./node-ref.js";
import { U32Stack } from "./u32-stack.js";

/** Stems hashed per batch round: bounds scratch memory whatever the tree size. */
const STEM_BATCH = 4096;
/** Internal nodes hashed per batch call. */
const INTERNAL_BATCH = 8192;
const MAX_TREE_DEPTH = 248;

/**
 * Recomputes the hashes of stale nodes only. It gathers the stale nodes, hashes all stale
 * stems in batches (leaf values, then the 8 fold levels, then stem‖0‖root, each level one
 * batch call), then the stale internal nodes deepest level first, one batch call per level.
 * All scratch buffers are reused across calls.
 */
export class StaleHasher {
  readonly #arena: Arena;
  readonly #hasher: Hasher;
  readonly #stack = new U32Stack(256);
  readonly #internals = new U32Stack(1024);
  readonly #sorted = new U32Stack(1024);
  readonly #stems = new U32Stack(1024);
  readonly #depthCounts = new Uint32Array(MAX_TREE_DEPTH + 1);
  readonly #depthStarts = new Uint32Array(MAX_TREE_DEPTH + 1);
  readonly #fold = new StemSubtreeFold();
  #final = new Uint8Array(64 * 64);
  #final32 = new Uint32Array(this.#final.buffer);
  #msg = new Uint8Array(64 * 1024);

  constructor(arena: Arena, hasher: Hasher) {
    this.#arena = arena;
    this.#hasher = hasher;
  }

  get hasher(): Hasher {
    return this.#hasher;
  }

  /** Brings every cached hash in the tree up to date. */
  hashStale(): void {
    const arena = this.#arena;
    const { internals, stems } = arena;
    const stack = this.#stack;
    const stale = this.#internals;
    const staleStems = this.#stems;
    stack.clear();
    stale.clear();
    staleStems.clear();
    stack.push(arena.root);
    while (stack.length > 0) {
      const ref = stack.pop();
      const kind = refKind(ref);
      const index = refIndex(ref);
      if (kind === KIND_INTERNAL) {
        if ((internals.getFlags(index) & FLAG_HASH_STALE) === 0) continue;
        stale.push(index);
        stack.push(internals.getRight(index));
        stack.push(internals.getLeft(index));
      } else if (kind === KIND_STEM) {
        if ((stems.getFlags(index) & FLAG_HASH_STALE) !== 0) staleStems.push(index);
      }
    }
    for (let start = 0; start < staleStems.length; start += STEM_BATCH) {
      const end = Math.min(staleStems.length, start + STEM_BATCH);
      this.hashStems(staleStems.data, start, end);
    }
    this.#hashInternalsByLevel();
  }

  /** Hashes the stems listed in list[start..end) and stores their hashes; clears their flag. */
  hashStems(list: Uint32Array, start: number, end: number): void {
    const { stems } = this.#arena;
    const n = end - start;
    let total = 0;
    for (let s = start; s < end; s++) total += stems.getCount(list[s]!);
    const fold = this.#fold;
    fold.reserve(n, total);
    const leaves = fold.leaves;
    const starts = fold.starts;
    let v = 0;
    for (let s = 0; s < n; s++) {
      const index = list[start + s]!;
      starts[s] = v;
      const count = stems.getCount(index);
      if (count > 0) {
        const page = stems.blockPage(index);
        const at = stems.blockOffset(index);
        const bytes = count << 5;
        const dst = v << 5;
        for (let k = 0; k < bytes; k++) leaves[dst + k] = page[at + k]!;
        stems.presentSubindices(index, fold.subindices, v);
      }
      v += count;
    }
    starts[n] = v;
    fold.fold(this.#hasher, n);

    // Stem hash = H(stem ‖ 0x00 ‖ subtree root).
    if (this.#final.length < n * 64) {
      this.#final = new Uint8Array(Math.max(n * 64, this.#final.length * 2));
      this.#final32 = new Uint32Array(this.#final.buffer);
    }
    const msg = this.#final;
    for (let s = 0; s < n; s++) {
      const index = list[start + s]!;
      const dst = s << 6;
      const stemChunk = stems.stemChunk(index);
      const so = stems.stemOffset(index);
      for (let k = 0; k < 31; k++) msg[dst + k] = stemChunk[so + k]!;
      msg[dst + 31] = 0;
      fold.writeRoot(s, this.#final32, (dst + 32) >>> 2);
    }
    this.#hasher.hash64Batch(msg, 0, n, msg, 0);
    for (let s = 0; s < n; s++) {
      const index = list[start + s]!;
      const hashChunk = stems.hashChunk(index);
      const ho = stems.hashOffset(index);
      const src = s << 5;
      for (let k = 0; k < 32; k++) hashChunk[ho + k] = msg[src + k]!;
      stems.clearFlags(index, FLAG_HASH_STALE);
    }
  }

  /** Hashes one stem now (used to verify stems decoded from the store). */
  hashStem(index: number): void {
    const one = this.#stack;
    one.clear();
    one.push(index);
    this.hashStems(one.data, 0, 1);
  }

  #hashInternalsByLevel(): void {
    const { internals } = this.#arena;
    const stale = this.#internals;
    const n = stale.length;
    if (n === 0) return;
    // Counting sort by depth, deepest first, so children are always hashed before parents.
    const counts = this.#depthCounts;
    counts.fill(0);
    for (let k = 0; k < n; k++) counts[internals.getDepth(stale.data[k]!)]!++;
    const next = this.#depthStarts;
    let acc = 0;
    for (let d = MAX_TREE_DEPTH; d >= 0; d--) {
      next[d] = acc;
      acc += counts[d]!;
    }
    const sorted = this.#sorted;
    sorted.ensureCapacity(n);
    for (let k = 0; k < n; k++) {
      const index = stale.data[k]!;
      sorted.data[next[internals.getDepth(index)]!++] = index;
    }
    sorted.length = n;
    let k = 0;
    while (k < n) {
      const depth = internals.getDepth(sorted.data[k]!);
      let end = k;
      while (end < n && end - k < INTERNAL_BATCH && internals.getDepth(sorted.data[end]!) === depth)
        end++;
      this.#hashInternalRun(sorted.data, k, end);
      k = end;
    }
  }

  #hashInternalRun(list: Uint32Array, start: number, end: number): void {
    const arena = this.#arena;
    const { internals } = arena;
    const n = end - start;
    this.#ensureScratch(n);
    const msg = this.#msg;
    for (let k = 0; k < n; k++) {
      const index = list[start + k]!;
      arena.writeHash(internals.getLeft(index), msg, k << 6);
      arena.writeHash(internals.getRight(index), msg, (k << 6) + 32);
    }
    this.#hasher.hash64Batch(msg, 0, n, msg, 0);
    for (let k = 0; k < n; k++) {
      const index = list[start + k]!;
      const chunk = internals.hashChunk(index);
      const at = internals.hashOffset(index);
      const src = k << 5;
      for (let b = 0; b < 32; b++) chunk[at + b] = msg[src + b]!;
      internals.clearFlags(index, FLAG_HASH_STALE);
    }
  }

  #ensureScratch(messages: number): void {
    if (this.#msg.length < messages * 64) this.#msg = new Uint8Array(messages * 64);
  }
}
