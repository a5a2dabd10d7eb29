import type { Hasher } from "../hash/hasher.js";
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
  #msg = new Uint8Array(64 * 1024);
  #out = new Uint8Array(32 * 1024);
  #pos = new Uint16Array(1024);
  #seg = new Uint32Array(STEM_BATCH + 1);

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
    const hasher = this.#hasher;
    const n = end - start;
    let total = 0;
    for (let s = start; s < end; s++) total += stems.getCount(list[s]!);
    this.#ensureScratch(Math.max(total, n));
    const msg = this.#msg;
    const out = this.#out;
    const pos = this.#pos;
    const seg = this.#seg;

    // Level 0: the leaf hash of every present value, all stems in one batch.
    let v = 0;
    for (let s = 0; s < n; s++) {
      const index = list[start + s]!;
      seg[s] = v;
      const count = stems.getCount(index);
      if (count > 0) {
        const page = stems.blockPage(index);
        const at = stems.blockOffset(index);
        msg.set(page.subarray(at, at + (count << 5)), v << 5);
        stems.presentSubindices(index, pos, v);
      }
      v += count;
    }
    seg[n] = v;
    hasher.hash32Batch(msg, 0, v, out, 0);

    // Levels 1..8: pair up siblings; a lone child pairs with 32 zero bytes (the zero-zero rule
    // never fires here because leaf hashes of present values are never zero).
    for (let level = 0; level < 8; level++) {
      let m = 0;
      let segStart = seg[0]!;
      for (let s = 0; s < n; s++) {
        const segEnd = seg[s + 1]!;
        seg[s] = m;
        let i = segStart;
        while (i < segEnd) {
          const p = pos[i]!;
          const dst = m << 6;
          if ((p & 1) === 0) {
            msg.set(out.subarray(i << 5, (i << 5) + 32), dst);
            if (i + 1 < segEnd && pos[i + 1] === p + 1) {
              msg.set(out.subarray((i + 1) << 5, ((i + 1) << 5) + 32), dst + 32);
              i += 2;
            } else {
              msg.fill(0, dst + 32, dst + 64);
              i += 1;
            }
          } else {
            msg.fill(0, dst, dst + 32);
            msg.set(out.subarray(i << 5, (i << 5) + 32), dst + 32);
            i += 1;
          }
          pos[m] = p >>> 1;
          m++;
        }
        segStart = segEnd;
      }
      seg[n] = m;
      hasher.hash64Batch(msg, 0, m, out, 0);
    }

    // Stem hash = H(stem ‖ 0x00 ‖ subtree root); a stem without values has root 0^32.
    for (let s = 0; s < n; s++) {
      const index = list[start + s]!;
      const dst = s << 6;
      const stemChunk = stems.stemChunk(index);
      const so = stems.stemOffset(index);
      msg.set(stemChunk.subarray(so, so + 31), dst);
      msg[dst + 31] = 0;
      if (seg[s + 1]! > seg[s]!) {
        const r = seg[s]! << 5;
        msg.set(out.subarray(r, r + 32), dst + 32);
      } else {
        msg.fill(0, dst + 32, dst + 64);
      }
    }
    hasher.hash64Batch(msg, 0, n, msg, 0);
    for (let s = 0; s < n; s++) {
      const index = list[start + s]!;
      stems.hashChunk(index).set(msg.subarray(s << 5, (s << 5) + 32), stems.hashOffset(index));
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
      internals
        .hashChunk(index)
        .set(msg.subarray(k << 5, (k << 5) + 32), internals.hashOffset(index));
      internals.clearFlags(index, FLAG_HASH_STALE);
    }
  }

  #ensureScratch(messages: number): void {
    if (this.#msg.length < messages * 64) this.#msg = new Uint8Array(messages * 64);
    if (this.#out.length < messages * 32) this.#out = new Uint8Array(messages * 32);
    if (this.#pos.length < messages) this.#pos = new Uint16Array(messages);
  }
}
