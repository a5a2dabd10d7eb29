import { fnv1a } from "../bytes/fnv1a.js";
import { U32Stack } from "../tree/u32-stack.js";
import { SPAN_WORDS } from "./kv-store.js";

/** Records (key bytes, then value bytes) are appended to pages of this size. */
const PAGE_BYTES = 1 << 20;
const EMPTY = 0;
const TOMBSTONE = 0xffffffff;
/** Compaction starts once this much of the pages is dead, and more of it than is live. */
const COMPACT_MIN_GARBAGE = 16 << 20;
/** Words per entry record (two records per cache line), and the field offsets in it. */
const RECORD = 8;
const PAGE = 0;
const AT = 1;
const KEY_LENGTH = 2;
const VALUE_LENGTH = 3;
const HASH = 4;
/** The key bytes, little-endian, when the key has at most INLINE_KEY bytes (node keys do). */
const KEY_WORDS = 5;
const INLINE_KEY = 12;
/** Puts per run of setSpans: the lines a run touches (three per put) stay in the L1/L2 cache. */
const SPAN_RUN = 64;
/** Below this many bytes a copy is a loop: a view for TypedArray.set costs more. */
const SHORT_COPY = 48;

/**
 * A hash table from byte keys to byte values held in typed arrays: open addressing over entry
 * ids, each entry's key and value stored back to back in large pages. No object per entry, so
 * a table of millions of entries costs the garbage collector nothing to mark, and a put costs a
 * hash, a probe and a copy. On a large table every access is a cache miss, so a slot holds the
 * key hash beside the entry id (a probe past another key reads nothing else), an entry's fields
 * sit together in one 32-byte record, and a short key (a node key) is kept in the record too: a
 * put reads a slot and a record and only writes its page. A value overwritten with one of the
 * same length is rewritten in place (node blobs at a path usually keep their size); other
 * overwrites and deletes leave dead bytes, which a compaction reclaims once they outweigh the
 * live ones.
 */
export class ByteTable {
  readonly #compactMinGarbage: number;
  /** Slot pairs: entry id + 1 (or EMPTY, TOMBSTONE), key hash. */
  #slots: Uint32Array;
  #used = 0;
  #size = 0;
  #pages: Uint8Array[] = [];
  #page = new Uint8Array(0);
  #pageAt = 0;
  #liveBytes = 0;
  #deadBytes = 0;
  /** Per entry id, RECORD words: page, offset, key length, value length, key hash, short key. */
  #records = new Uint32Array(256 * RECORD);
  #nextId = 0;
  readonly #freeIds = new U32Stack(64);
  /** setSpans' scratch (reused): key hash and candidate entry per put of a run. */
  #hashes = new Uint32Array(0);
  /** Sum of setSpans' touching loads (kept so they are not optimised away). */
  #loads = 0;

  /**
   * `compactMinGarbage`: dead bytes before a compaction is considered; `slots`: the initial
   * slot count, a power of two (tests lower both).
   */
  constructor(options: { compactMinGarbage?: number; slots?: number } = {}) {
    this.#compactMinGarbage = options.compactMinGarbage ?? COMPACT_MIN_GARBAGE;
    this.#slots = new Uint32Array(2 * (options.slots ?? 1024));
  }

  get size(): number {
    return this.#size;
  }

  /** Bytes of the pages (live and dead records). */
  get pageBytes(): number {
    let n = 0;
    for (const p of this.#pages) n += p.length;
    return n;
  }

  /** The entry id of `key`, or -1. */
  find(key: Uint8Array): number {
    const h = fnv1a(key, 0, key.length);
    const slots = this.#slots;
    const mask = (slots.length >>> 1) - 1;
    for (let i = h & mask; ; i = (i + 1) & mask) {
      const s = slots[i << 1]!;
      if (s === EMPTY) return -1;
      if (
        s !== TOMBSTONE &&
        slots[(i << 1) + 1] === h &&
        this.#matches(s - 1, key, 0, key.length)
      ) {
        return s - 1;
      }
    }
  }

  /** A copy of the value of entry `id`. */
  valueOf(id: number): Uint8Array {
    const r = this.#records;
    const e = id * RECORD;
    const at = r[e + AT]! + r[e + KEY_LENGTH]!;
    return this.#pages[r[e + PAGE]!]!.slice(at, at + r[e + VALUE_LENGTH]!);
  }

  /** A copy of the key of entry `id`. */
  keyOf(id: number): Uint8Array {
    const r = this.#records;
    const e = id * RECORD;
    const at = r[e + AT]!;
    return this.#pages[r[e + PAGE]!]!.slice(at, at + r[e + KEY_LENGTH]!);
  }

  set(key: Uint8Array, value: Uint8Array): void {
    this.#put(fnv1a(key, 0, key.length), key, 0, key.length, value, 0, value.length);
  }

  /**
   * Puts `count` entries whose keys and values are spans of `chunks` (SPAN_WORDS words each:
   * chunk, key start, key end, value start, value end), in order, as `set` would. On a large
   * table each put misses the cache (and the TLB) on its slot, its record and its page, one
   * after the other; a loop doing the puts one by one waits for each miss in turn. So the puts
   * go in runs of SPAN_RUN: the run's slots are loaded in a short loop of independent loads
   * (their misses overlap), then its candidate entries' records, then the page lines their
   * values live at, and only then are the run's puts made, on lines now in cache.
   */
  setSpans(chunks: readonly Uint8Array[], spans: Uint32Array, count: number): void {
    if (this.#hashes.length < 2 * SPAN_RUN) this.#hashes = new Uint32Array(2 * SPAN_RUN);
    for (let from = 0; from < count; from += SPAN_RUN) {
      this.#setSpanRun(chunks, spans, from, Math.min(count, from + SPAN_RUN));
    }
  }

  #setSpanRun(chunks: readonly Uint8Array[], spans: Uint32Array, from: number, to: number): void {
    const scratch = this.#hashes;
    const n = to - from;
    for (let k = 0; k < n; k++) {
      const w = (from + k) * SPAN_WORDS;
      scratch[2 * k] = fnv1a(chunks[spans[w]!]!, spans[w + 1]!, spans[w + 2]!);
    }
    const slots = this.#slots;
    const mask = (slots.length >>> 1) - 1;
    // Kept in a field so the touching loads are not optimised away.
    let loads = this.#loads;
    for (let k = 0; k < n; k++) loads ^= slots[(scratch[2 * k]! & mask) << 1]!;
    for (let k = 0; k < n; k++) {
      const h = scratch[2 * k]!;
      // Entry id + 1 of the first live slot with this hash on the probe path, or 0.
      let candidate = 0;
      for (let j = h & mask; ; j = (j + 1) & mask) {
        const id = slots[j << 1]!;
        if (id === EMPTY) break;
        if (id !== TOMBSTONE && slots[(j << 1) + 1] === h) {
          candidate = id;
          break;
        }
      }
      scratch[2 * k + 1] = candidate;
    }
    const r = this.#records;
    for (let k = 0; k < n; k++) {
      const candidate = scratch[2 * k + 1]!;
      if (candidate !== 0) loads ^= r[(candidate - 1) * RECORD + AT]!;
    }
    const pages = this.#pages;
    for (let k = 0; k < n; k++) {
      const candidate = scratch[2 * k + 1]!;
      if (candidate === 0) continue;
      const e = (candidate - 1) * RECORD;
      loads ^= pages[r[e + PAGE]!]![r[e + AT]! + r[e + KEY_LENGTH]!]!;
    }
    this.#loads = loads;
    for (let k = 0; k < n; k++) {
      const w = (from + k) * SPAN_WORDS;
      const chunk = chunks[spans[w]!]!;
      const ks = spans[w + 1]!;
      const ke = spans[w + 2]!;
      const vs = spans[w + 3]!;
      const ve = spans[w + 4]!;
      const candidate = scratch[2 * k + 1]!;
      // Ids stay put while the table grows or compacts, and nothing here deletes.
      if (candidate === 0 || !this.#matches(candidate - 1, chunk, ks, ke)) {
        this.#put(scratch[2 * k]!, chunk, ks, ke, chunk, vs, ve);
      } else {
        this.#overwrite(candidate - 1, chunk, ks, ke, chunk, vs, ve);
      }
    }
  }

  #put(
    h: number,
    kb: Uint8Array,
    ks: number,
    ke: number,
    vb: Uint8Array,
    vs: number,
    ve: number,
  ): void {
    const slots = this.#slots;
    const mask = (slots.length >>> 1) - 1;
    let free = -1;
    let i = h & mask;
    for (; ; i = (i + 1) & mask) {
      const s = slots[i << 1]!;
      if (s === EMPTY) break;
      if (s === TOMBSTONE) {
        if (free < 0) free = i;
        continue;
      }
      const id = s - 1;
      if (slots[(i << 1) + 1] !== h || !this.#matches(id, kb, ks, ke)) continue;
      this.#overwrite(id, kb, ks, ke, vb, vs, ve);
      return;
    }
    const id = this.#newId();
    this.#records[id * RECORD + HASH] = h;
    this.#append(id, kb, ks, ke, vb, vs, ve);
    const at = free >= 0 ? free : i;
    if (free < 0) this.#used++;
    slots[at << 1] = id + 1;
    slots[(at << 1) + 1] = h;
    this.#size++;
    if (this.#used * 8 > this.#slots.length * 3) this.#rehash();
  }

  delete(key: Uint8Array): void {
    const h = fnv1a(key, 0, key.length);
    const slots = this.#slots;
    const mask = (slots.length >>> 1) - 1;
    for (let i = h & mask; ; i = (i + 1) & mask) {
      const s = slots[i << 1]!;
      if (s === EMPTY) return;
      if (
        s === TOMBSTONE ||
        slots[(i << 1) + 1] !== h ||
        !this.#matches(s - 1, key, 0, key.length)
      ) {
        continue;
      }
      const id = s - 1;
      slots[i << 1] = TOMBSTONE;
      const e = id * RECORD;
      const size = this.#records[e + KEY_LENGTH]! + this.#records[e + VALUE_LENGTH]!;
      this.#deadBytes += size;
      this.#liveBytes -= size;
      this.#freeIds.push(id);
      this.#size--;
      this.#maybeCompact();
      return;
    }
  }

  /** Ids of every entry (table order). */
  ids(): Uint32Array {
    const out = new Uint32Array(this.#size);
    const slots = this.#slots;
    let n = 0;
    for (let i = 0; i < slots.length; i += 2) {
      const s = slots[i]!;
      if (s !== EMPTY && s !== TOMBSTONE) out[n++] = s - 1;
    }
    return out;
  }

  /** Byte-wise order of the keys of two entries. */
  compareKeys(a: number, b: number): number {
    const r = this.#records;
    const ea = a * RECORD;
    const eb = b * RECORD;
    const pa = this.#pages[r[ea + PAGE]!]!;
    const pb = this.#pages[r[eb + PAGE]!]!;
    const ia = r[ea + AT]!;
    const ib = r[eb + AT]!;
    const la = r[ea + KEY_LENGTH]!;
    const lb = r[eb + KEY_LENGTH]!;
    const n = Math.min(la, lb);
    for (let k = 0; k < n; k++) {
      const d = pa[ia + k]! - pb[ib + k]!;
      if (d !== 0) return d;
    }
    return la - lb;
  }

  /** Gives entry `id` (whose key is kb[ks, ke)) the value vb[vs, ve). */
  #overwrite(
    id: number,
    kb: Uint8Array,
    ks: number,
    ke: number,
    vb: Uint8Array,
    vs: number,
    ve: number,
  ): void {
    const r = this.#records;
    const e = id * RECORD;
    const old = r[e + VALUE_LENGTH]!;
    if (old === ve - vs) {
      copyBytes(this.#pages[r[e + PAGE]!]!, r[e + AT]! + ke - ks, vb, vs, ve);
    } else {
      this.#deadBytes += ke - ks + old;
      this.#liveBytes -= ke - ks + old;
      this.#append(id, kb, ks, ke, vb, vs, ve);
      this.#maybeCompact();
    }
  }

  /**
   * Whether entry `id` (whose hash matched) has the key kb[ks, ke). A short key is compared
   * with the record's copy: a put then reads the record, and only writes the page.
   */
  #matches(id: number, kb: Uint8Array, ks: number, ke: number): boolean {
    const r = this.#records;
    const e = id * RECORD;
    const length = ke - ks;
    if (r[e + KEY_LENGTH] !== length) return false;
    if (length <= INLINE_KEY) {
      for (let w = 0; w < length; w += 4) {
        if (r[e + KEY_WORDS + (w >> 2)] !== keyWord(kb, ks, length, w)) return false;
      }
      return true;
    }
    const page = this.#pages[r[e + PAGE]!]!;
    const d = r[e + AT]! - ks;
    for (let k = ks; k < ke; k++) if (page[d + k] !== kb[k]) return false;
    return true;
  }

  /** Appends the record kb[ks, ke) ‖ vb[vs, ve) of entry `id` to the pages. */
  #append(
    id: number,
    kb: Uint8Array,
    ks: number,
    ke: number,
    vb: Uint8Array,
    vs: number,
    ve: number,
  ): void {
    const keyLength = ke - ks;
    const size = keyLength + ve - vs;
    if (this.#pages.length === 0 || this.#pageAt + size > this.#page.length) {
      // Pages grow from 64 KiB to 1 MiB: a small store stays small.
      const grown = this.#pages.length >= 4 ? PAGE_BYTES : 65536 << this.#pages.length;
      this.#page = new Uint8Array(Math.max(grown, size));
      this.#pages.push(this.#page);
      this.#pageAt = 0;
    }
    const at = this.#pageAt;
    copyBytes(this.#page, at, kb, ks, ke);
    copyBytes(this.#page, at + keyLength, vb, vs, ve);
    this.#pageAt = at + size;
    const e = id * RECORD;
    const r = this.#records;
    r[e + PAGE] = this.#pages.length - 1;
    r[e + AT] = at;
    r[e + KEY_LENGTH] = keyLength;
    r[e + VALUE_LENGTH] = ve - vs;
    if (keyLength <= INLINE_KEY) {
      for (let w = 0; w < keyLength; w += 4)
        r[e + KEY_WORDS + (w >> 2)] = keyWord(kb, ks, keyLength, w);
    }
    this.#liveBytes += size;
  }

  #newId(): number {
    if (this.#freeIds.length > 0) return this.#freeIds.pop();
    const id = this.#nextId++;
    if ((id + 1) * RECORD > this.#records.length) {
      const grown = new Uint32Array(this.#records.length * 2);
      grown.set(this.#records);
      this.#records = grown;
    }
    return id;
  }

  /** Doubles the slot array (or rebuilds it at the same size when tombstones fill it). */
  #rehash(): void {
    const old = this.#slots;
    const count = old.length >>> 1;
    const length = this.#size * 2 > count ? count * 2 : count;
    const slots = new Uint32Array(2 * length);
    const mask = length - 1;
    for (let i = 0; i < old.length; i += 2) {
      const s = old[i]!;
      if (s === EMPTY || s === TOMBSTONE) continue;
      const h = old[i + 1]!;
      let j = h & mask;
      while (slots[j << 1] !== EMPTY) j = (j + 1) & mask;
      slots[j << 1] = s;
      slots[(j << 1) + 1] = h;
    }
    this.#slots = slots;
    this.#used = this.#size;
  }

  /** Copies the live records into fresh pages once dead bytes outweigh them. */
  #maybeCompact(): void {
    if (this.#deadBytes < this.#compactMinGarbage || this.#deadBytes < this.#liveBytes) return;
    const oldPages = this.#pages;
    // In id order: records keep the order they were first written in (see setSpans).
    const ids = this.ids().sort();
    this.#pages = [];
    this.#page = new Uint8Array(0);
    this.#pageAt = 0;
    this.#liveBytes = 0;
    this.#deadBytes = 0;
    for (let k = 0; k < ids.length; k++) {
      const id = ids[k]!;
      const e = id * RECORD;
      const r = this.#records;
      const page = oldPages[r[e + PAGE]!]!;
      const at = r[e + AT]!;
      const kl = r[e + KEY_LENGTH]!;
      const vl = r[e + VALUE_LENGTH]!;
      this.#append(id, page, at, at + kl, page, at + kl, at + kl + vl);
    }
  }
}

/** Copies src[start, end) to dst at `at`. */
/** Bytes w..w+3 of the key kb[ks, ks + length) as a little-endian word (zeros past its end). */
function keyWord(kb: Uint8Array, ks: number, length: number, w: number): number {
  let word = 0;
  for (let k = w; k < w + 4 && k < length; k++) word |= kb[ks + k]! << ((k - w) << 3);
  return word >>> 0;
}

function copyBytes(dst: Uint8Array, at: number, src: Uint8Array, start: number, end: number): void {
  if (end - start < SHORT_COPY) {
    const d = at - start;
    for (let k = start; k < end; k++) dst[d + k] = src[k]!;
  } else {
    dst.set(start === 0 && end === src.length ? src : src.subarray(start, end), at);
  }
}
