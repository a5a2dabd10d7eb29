import { fnv1a } from "../bytes/fnv1a.js";
import { SPAN_WORDS } from "./kv-store.js";

/** Records (a key-length header, the key bytes, the value bytes) are appended to pages. */
const PAGE_BYTES = 1 << 20;
/** Words per slot (four slots per cache line), and the field offsets in it. */
const SLOT = 4;
const SLOT_SHIFT = 2;
const HASH = 0;
/** Page index + 1 of the entry's record, or EMPTY, or TOMBSTONE (a deleted entry). */
const PAGE = 1;
const AT = 2;
const VALUE_LENGTH = 3;
const EMPTY = 0;
const TOMBSTONE = -1;
/** A key shorter than this has a one-byte length header; a longer one LONG_KEY, then 4 bytes. */
const LONG_KEY = 0xff;
/** Used slots (live and tombstones) per slot of a shard before it is rebuilt or split: 5/8. */
const LOAD_NUMERATOR = 5;
const LOAD_DENOMINATOR = 8;
/**
 * Slots of a shard before it splits instead of doubling: 256 KiB, rebuilt in about a tenth of
 * a millisecond (it stays in the L2 cache), however large the table.
 */
const SHARD_SLOTS = 1 << 14;
/** Directory bits at most (the top hash bits; the low ones index a shard's slots). */
const MAX_DEPTH = 18;
/** Compaction starts once this much of the pages is dead, and more of it than is live. */
const COMPACT_MIN_GARBAGE = 16 << 20;
/** Puts per run of setSpans: the lines a run touches (two per put) stay in the L1/L2 cache. */
const SPAN_RUN = 64;
/** A placeholder for #runSlots' entries before a run fills them. */
const EMPTY_SLOTS = new Int32Array(SLOT);
/** Below this many bytes a copy is a loop: a view for TypedArray.set costs more. */
const SHORT_COPY = 48;

/**
 * A hash table from byte keys to byte values held in typed arrays: open addressing over slots
 * that are the entries, each entry's key and value stored back to back in large pages. No object
 * per entry, so a table of millions of entries costs the garbage collector nothing to mark, and
 * a put costs a hash, a probe and a copy. On a large table every access is a cache (and TLB)
 * miss, so a slot holds everything a probe needs — the key hash, where the record is and the
 * value's length, 16 bytes — and the record starts with its key: a probe past another key reads
 * the slot line only, and a put or a get reads a slot line and the record's page line, which an
 * overwrite writes anyway. A value overwritten with one of the same length is rewritten in place
 * (node blobs at a path usually keep their size); other overwrites and deletes leave dead bytes,
 * which a compaction reclaims once they outweigh the live ones.
 *
 * The slots are shards of at most SHARD_SLOTS (extendible hashing): a directory indexed by the
 * top bits of the key hash names each key's shard, the low bits its home slot in the shard. A
 * shard past its load limit doubles while it is small and splits in two (by its next hash bit)
 * once it is full size, so no put ever rebuilds more than one shard: growth costs what one
 * rebuild of the whole table would, spread over the puts, with no stall that grows with the
 * table (a single array rebuilt at 1.3M entries stopped a block for over 100 ms). Shards of
 * keys with uniform hashes reach their limits at different puts (their fills differ by chance),
 * so the splits spread out too.
 *
 * An entry is named by an id (shard and slot), valid until the next write.
 */
export class ByteTable {
  readonly #compactMinGarbage: number;
  readonly #shardSlots: number;
  readonly #maxDepth: number;
  /** Per shard: SLOT words per slot (key hash, page index + 1 or EMPTY/TOMBSTONE, offset, length). */
  #shards: Int32Array[] = [];
  /** Per shard: slots not EMPTY (live entries and tombstones), live entries, local depth. */
  #used: number[] = [];
  #live: number[] = [];
  #depth: number[] = [];
  /** Shard numbers by the top `#globalDepth` bits of the key hash. */
  #dir = new Int32Array(1);
  #globalDepth = 0;
  #dirShift = 32;
  #dirMask = 0;
  /** Bits of the slot index in an id: those of the largest shard. */
  #idShift = 0;
  #size = 0;
  #pages: Uint8Array[] = [];
  #page = new Uint8Array(0);
  #pageAt = 0;
  #liveBytes = 0;
  #deadBytes = 0;
  /** setSpans' scratch (reused): key hash and candidate slot + 1 per put of a run. */
  #scratch = new Int32Array(2 * SPAN_RUN);
  /** #touchRun's scratch: the shard slots of each key of the run. */
  readonly #runSlots: Int32Array[] = [];
  /** Sum of setSpans' touching loads (kept so they are not optimised away). */
  #loads = 0;

  /**
   * `compactMinGarbage`: dead bytes before a compaction is considered; `slots`: the initial
   * slot count, a power of two; `shardSlots`: the slots of a shard before it splits, a power of
   * two; `maxDepth`: the directory bits at most (tests lower all four).
   */
  constructor(
    options: {
      compactMinGarbage?: number;
      slots?: number;
      shardSlots?: number;
      maxDepth?: number;
    } = {},
  ) {
    this.#compactMinGarbage = options.compactMinGarbage ?? COMPACT_MIN_GARBAGE;
    this.#shardSlots = options.shardSlots ?? SHARD_SLOTS;
    this.#maxDepth = Math.min(options.maxDepth ?? MAX_DEPTH, MAX_DEPTH);
    const slots = options.slots ?? 1024;
    for (let k = 0; k < SPAN_RUN; k++) this.#runSlots.push(EMPTY_SLOTS);
    this.#addShard(new Int32Array(SLOT * slots), 0);
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

  /** Bytes of the slots (the table's memory besides its pages and its small directory). */
  get slotBytes(): number {
    let n = 0;
    for (const s of this.#shards) n += s.byteLength;
    return n;
  }

  /** Shards of the slots (1 until the first split). */
  get shardCount(): number {
    return this.#shards.length;
  }

  /** The entry (id) of `key`, or -1. */
  find(key: Uint8Array): number {
    const h = fnv1a(key, 0, key.length) | 0;
    const shard = this.#dir[(h >>> this.#dirShift) & this.#dirMask]!;
    const i = this.#probe(this.#shards[shard]!, h, key);
    return i < 0 ? -1 : ((shard << this.#idShift) | i) >>> 0;
  }

  /** A copy of the value of entry `id`. */
  valueOf(id: number): Uint8Array {
    const slots = this.#shards[id >>> this.#idShift]!;
    const s = (id & ((1 << this.#idShift) - 1)) * SLOT;
    const page = this.#pages[slots[s + PAGE]! - 1]!;
    const at = slots[s + AT]!;
    const start = at + keyBytes(page, at);
    return page.slice(start, start + slots[s + VALUE_LENGTH]!);
  }

  /** A copy of the key of entry `id`. */
  keyOf(id: number): Uint8Array {
    const slots = this.#shards[id >>> this.#idShift]!;
    const s = (id & ((1 << this.#idShift) - 1)) * SLOT;
    const page = this.#pages[slots[s + PAGE]! - 1]!;
    const at = slots[s + AT]!;
    const length = keyLength(page, at);
    const start = at + headerBytes(length);
    return page.slice(start, start + length);
  }

  set(key: Uint8Array, value: Uint8Array): void {
    const h = fnv1a(key, 0, key.length) | 0;
    const shard = this.#put(h, key, 0, key.length, value, 0, value.length);
    if (shard >= 0) this.#fit(h, 0);
  }

  /**
   * Puts `count` entries whose keys and values are spans of `chunks` (SPAN_WORDS words each:
   * chunk, key start, key end, value start, value end), in order, as `set` would. On a large
   * table each put misses the cache (and the TLB) on its slot and on its record's page line, one
   * after the other; a loop doing the puts one by one waits for each miss in turn. So the puts
   * go in runs of SPAN_RUN: the run's slots are loaded in a short loop of independent loads
   * (their misses overlap), then the page lines their candidate records start at, and only then
   * are the run's puts made, on lines now in cache.
   */
  setSpans(chunks: readonly Uint8Array[], spans: Uint32Array, count: number): void {
    // A batch larger than the table (a first persist) is mostly new keys: room for all of it up
    // front lays the shards out once at their final number, not by split after split. A smaller
    // batch grows them run by run (below), so overwrites do not grow them.
    if (count > this.#size) this.#reserveAll(count);
    const scratch = this.#scratch;
    for (let from = 0; from < count; from += SPAN_RUN) {
      const n = Math.min(count - from, SPAN_RUN);
      for (let k = 0; k < n; k++) {
        const w = (from + k) * SPAN_WORDS;
        scratch[2 * k] = fnv1a(chunks[spans[w]!]!, spans[w + 1]!, spans[w + 2]!) | 0;
      }
      this.#touchRun(0, n);
      this.#setSpanRun(chunks, spans, from, n);
    }
  }

  #setSpanRun(chunks: readonly Uint8Array[], spans: Uint32Array, from: number, n: number): void {
    const scratch = this.#scratch;
    for (let k = 0; k < n; k++) {
      const w = (from + k) * SPAN_WORDS;
      const chunk = chunks[spans[w]!]!;
      const ks = spans[w + 1]!;
      const ke = spans[w + 2]!;
      const vs = spans[w + 3]!;
      const ve = spans[w + 4]!;
      const h = scratch[2 * k]!;
      const candidate = scratch[2 * k + 1]!;
      // #touchRun found the key's shard (again after a growth below).
      const slots = this.#runSlots[k]!;
      if (candidate !== 0 && this.#matches(slots, candidate - 1, chunk, ks, ke)) {
        this.#overwrite(slots, candidate - 1, ke - ks, chunk, vs, ve);
        continue;
      }
      const shard = this.#put(h, chunk, ks, ke, chunk, vs, ve);
      if (shard >= 0 && !this.#fits(shard, 0)) {
        // A shard past its limit grows now, as for `set`; it moves slots, so the rest of the
        // run's candidates are found again.
        this.#fit(h, 0);
        this.#touchRun(k + 1, n);
      }
    }
  }

  /**
   * For the key hashes [start, n) of a run in the scratch: loads their slots in a loop of
   * independent loads, then finds each one's candidate (the first live slot with its hash, + 1,
   * or 0) and loads the page line its record starts at, so the run's puts or deletes find them in
   * cache.
   */
  #touchRun(start: number, n: number): void {
    const scratch = this.#scratch;
    const shards = this.#shards;
    const dir = this.#dir;
    const dirShift = this.#dirShift;
    const dirMask = this.#dirMask;
    // Kept in a field so the touching loads are not optimised away.
    let loads = this.#loads;
    const runSlots = this.#runSlots;
    for (let k = start; k < n; k++)
      runSlots[k] = shards[dir[(scratch[2 * k]! >>> dirShift) & dirMask]!]!;
    for (let k = start; k < n; k++) {
      const slots = runSlots[k]!;
      loads ^= slots[(scratch[2 * k]! & ((slots.length >>> SLOT_SHIFT) - 1)) * SLOT + PAGE]!;
    }
    const pages = this.#pages;
    for (let k = start; k < n; k++) {
      const h = scratch[2 * k]!;
      const slots = runSlots[k]!;
      const mask = (slots.length >>> SLOT_SHIFT) - 1;
      let candidate = 0;
      for (let i = h & mask; ; i = (i + 1) & mask) {
        const page = slots[i * SLOT + PAGE]!;
        if (page === EMPTY) break;
        if (page !== TOMBSTONE && slots[i * SLOT + HASH] === h) {
          candidate = i + 1;
          loads ^= pages[page - 1]![slots[i * SLOT + AT]!]!;
          break;
        }
      }
      scratch[2 * k + 1] = candidate;
    }
    this.#loads = loads;
  }

  /**
   * Puts kb[ks, ke) → vb[vs, ve) under hash `h`. Returns the shard of a new entry, or -1 for an
   * overwrite. Never rebuilds: the caller grows the shard (#fit).
   */
  #put(
    h: number,
    kb: Uint8Array,
    ks: number,
    ke: number,
    vb: Uint8Array,
    vs: number,
    ve: number,
  ): number {
    const shard = this.#dir[(h >>> this.#dirShift) & this.#dirMask]!;
    const slots = this.#shards[shard]!;
    const mask = (slots.length >>> SLOT_SHIFT) - 1;
    let free = -1;
    let i = h & mask;
    for (; ; i = (i + 1) & mask) {
      const page = slots[i * SLOT + PAGE]!;
      if (page === EMPTY) break;
      if (page === TOMBSTONE) {
        if (free < 0) free = i;
        continue;
      }
      if (slots[i * SLOT + HASH] !== h || !this.#matches(slots, i, kb, ks, ke)) continue;
      this.#overwrite(slots, i, ke - ks, vb, vs, ve);
      return -1;
    }
    const at = free >= 0 ? free : i;
    if (free < 0) this.#used[shard]!++;
    this.#live[shard]!++;
    slots[at * SLOT + HASH] = h;
    this.#append(slots, at, kb, ks, ke, vb, vs, ve);
    this.#size++;
    return shard;
  }

  delete(key: Uint8Array): void {
    const h = fnv1a(key, 0, key.length) | 0;
    const shard = this.#dir[(h >>> this.#dirShift) & this.#dirMask]!;
    const slots = this.#shards[shard]!;
    const i = this.#probe(slots, h, key);
    if (i >= 0) this.#deleteAt(shard, i, key.length);
  }

  /**
   * Deletes keys[from, to), as `delete` would one by one: in runs of SPAN_RUN whose slots and
   * record lines are loaded first (see setSpans).
   */
  deleteMany(keys: readonly Uint8Array[], from: number, to: number): void {
    const scratch = this.#scratch;
    for (let start = from; start < to; start += SPAN_RUN) {
      const n = Math.min(to - start, SPAN_RUN);
      for (let k = 0; k < n; k++) {
        const key = keys[start + k]!;
        scratch[2 * k] = fnv1a(key, 0, key.length) | 0;
      }
      this.#touchRun(0, n);
      for (let k = 0; k < n; k++) {
        const key = keys[start + k]!;
        const h = scratch[2 * k]!;
        const shard = this.#dir[(h >>> this.#dirShift) & this.#dirMask]!;
        const slots = this.#shards[shard]!;
        // A delete moves no slot, so the candidates stay slots (maybe since deleted: check).
        const candidate = scratch[2 * k + 1]!;
        const live = candidate !== 0 && slots[(candidate - 1) * SLOT + PAGE]! !== TOMBSTONE;
        const i =
          live && this.#matches(slots, candidate - 1, key, 0, key.length)
            ? candidate - 1
            : this.#probe(slots, h, key);
        if (i >= 0) this.#deleteAt(shard, i, key.length);
      }
    }
  }

  /** The slot of `key` (hash `h`) in `slots`, or -1. */
  #probe(slots: Int32Array, h: number, key: Uint8Array): number {
    const mask = (slots.length >>> SLOT_SHIFT) - 1;
    for (let i = h & mask; ; i = (i + 1) & mask) {
      const s = i * SLOT;
      const page = slots[s + PAGE]!;
      if (page === EMPTY) return -1;
      if (
        page !== TOMBSTONE &&
        slots[s + HASH] === h &&
        this.#matches(slots, i, key, 0, key.length)
      ) {
        return i;
      }
    }
  }

  #deleteAt(shard: number, i: number, keyLength: number): void {
    const s = i * SLOT;
    const slots = this.#shards[shard]!;
    const size = recordBytes(keyLength, slots[s + VALUE_LENGTH]!);
    slots[s + PAGE] = TOMBSTONE;
    this.#live[shard]!--;
    this.#deadBytes += size;
    this.#liveBytes -= size;
    this.#size--;
    this.#maybeCompact();
  }

  /** The entries (ids) of every key, in table order. */
  ids(): Uint32Array {
    const out = new Uint32Array(this.#size);
    let n = 0;
    for (let shard = 0; shard < this.#shards.length; shard++) {
      const slots = this.#shards[shard]!;
      for (let i = 0; i < slots.length >>> SLOT_SHIFT; i++) {
        const page = slots[i * SLOT + PAGE]!;
        if (page !== EMPTY && page !== TOMBSTONE) out[n++] = (shard << this.#idShift) | i;
      }
    }
    return out;
  }

  /** Byte-wise order of the keys of two entries. */
  compareKeys(a: number, b: number): number {
    const slotMask = (1 << this.#idShift) - 1;
    const sa = this.#shards[a >>> this.#idShift]!;
    const sb = this.#shards[b >>> this.#idShift]!;
    const ia = (a & slotMask) * SLOT;
    const ib = (b & slotMask) * SLOT;
    const pa = this.#pages[sa[ia + PAGE]! - 1]!;
    const pb = this.#pages[sb[ib + PAGE]! - 1]!;
    const ra = sa[ia + AT]!;
    const rb = sb[ib + AT]!;
    const la = keyLength(pa, ra);
    const lb = keyLength(pb, rb);
    const ka = ra + headerBytes(la);
    const kb = rb + headerBytes(lb);
    const n = Math.min(la, lb);
    for (let k = 0; k < n; k++) {
      const d = pa[ka + k]! - pb[kb + k]!;
      if (d !== 0) return d;
    }
    return la - lb;
  }

  /** Gives slot `i` of `slots` (whose key has `keyLength` bytes) the value vb[vs, ve). */
  #overwrite(
    slots: Int32Array,
    i: number,
    keyLength: number,
    vb: Uint8Array,
    vs: number,
    ve: number,
  ): void {
    const s = i * SLOT;
    const page = this.#pages[slots[s + PAGE]! - 1]!;
    const at = slots[s + AT]!;
    const old = slots[s + VALUE_LENGTH]!;
    if (old === ve - vs) {
      copyBytes(page, at + headerBytes(keyLength) + keyLength, vb, vs, ve);
      return;
    }
    const dead = recordBytes(keyLength, old);
    this.#deadBytes += dead;
    this.#liveBytes -= dead;
    const keyStart = at + headerBytes(keyLength);
    // The key is copied from the old record (it may move to a new page: read it first).
    this.#append(slots, i, page, keyStart, keyStart + keyLength, vb, vs, ve);
    this.#maybeCompact();
  }

  /** Whether slot `i` of `slots` (whose hash matched) has the key kb[ks, ke). */
  #matches(slots: Int32Array, i: number, kb: Uint8Array, ks: number, ke: number): boolean {
    const s = i * SLOT;
    const page = this.#pages[slots[s + PAGE]! - 1]!;
    const at = slots[s + AT]!;
    const length = ke - ks;
    if (keyLength(page, at) !== length) return false;
    const d = at + headerBytes(length) - ks;
    for (let k = ks; k < ke; k++) if (page[d + k] !== kb[k]) return false;
    return true;
  }

  /** Appends the record of slot `i` (key kb[ks, ke), value vb[vs, ve)) and points the slot at it. */
  #append(
    slots: Int32Array,
    i: number,
    kb: Uint8Array,
    ks: number,
    ke: number,
    vb: Uint8Array,
    vs: number,
    ve: number,
  ): void {
    const keyLength = ke - ks;
    const header = headerBytes(keyLength);
    const size = header + keyLength + ve - vs;
    if (this.#pages.length === 0 || this.#pageAt + size > this.#page.length) {
      // Pages grow from 64 KiB to 1 MiB: a small store stays small.
      const grown = this.#pages.length >= 4 ? PAGE_BYTES : 65536 << this.#pages.length;
      this.#page = new Uint8Array(Math.max(grown, size));
      this.#pages.push(this.#page);
      this.#pageAt = 0;
    }
    const page = this.#page;
    const at = this.#pageAt;
    if (header === 1) {
      page[at] = keyLength;
    } else {
      page[at] = LONG_KEY;
      page[at + 1] = keyLength;
      page[at + 2] = keyLength >>> 8;
      page[at + 3] = keyLength >>> 16;
      page[at + 4] = keyLength >>> 24;
    }
    copyBytes(page, at + header, kb, ks, ke);
    copyBytes(page, at + header + keyLength, vb, vs, ve);
    this.#pageAt = at + size;
    const s = i * SLOT;
    slots[s + PAGE] = this.#pages.length;
    slots[s + AT] = at;
    slots[s + VALUE_LENGTH] = ve - vs;
    this.#liveBytes += size;
  }

  /** Whether `shard` holds `more` new keys under its load limit. */
  #fits(shard: number, more: number): boolean {
    const count = this.#shards[shard]!.length >>> SLOT_SHIFT;
    return (this.#used[shard]! + more) * LOAD_DENOMINATOR <= count * LOAD_NUMERATOR;
  }

  /** Rebuilds or splits the shard of hash `h` until it holds `more` new keys. */
  #fit(h: number, more: number): void {
    for (;;) {
      const shard = this.#dir[(h >>> this.#dirShift) & this.#dirMask]!;
      if (this.#fits(shard, more)) return;
      this.#grow(shard, more);
    }
  }

  /**
   * Makes `shard` fit `more` new keys or splits it: doubles it while its live keys fill more than
   * half of it or leave no room for `more`, up to SHARD_SLOTS, past which it splits; a shard
   * full of tombstones is rebuilt at its size (which clears them).
   */
  #grow(shard: number, more: number): void {
    const count = this.#shards[shard]!.length >>> SLOT_SHIFT;
    const live = this.#live[shard]!;
    let length = count;
    while (live * 2 > length || (live + more) * LOAD_DENOMINATOR > length * LOAD_NUMERATOR) {
      length *= 2;
    }
    // A shard whose keys share all maxDepth top hash bits cannot split: it grows instead.
    if (length > this.#shardSlots && this.#depth[shard]! < this.#maxDepth) this.#split(shard);
    else this.#rebuild(shard, length);
  }

  /** Rebuilds `shard` at `length` slots (its live entries only). */
  #rebuild(shard: number, length: number): void {
    const old = this.#shards[shard]!;
    const slots = new Int32Array(SLOT * length);
    placeLive(old, slots);
    this.#shards[shard] = slots;
    this.#used[shard] = this.#live[shard]!;
    this.#widenIds(length);
  }

  /**
   * Splits `shard` (local depth d) in two of its size by hash bit 31 - d: the keys with it set go
   * to a new shard, which the directory entries with that bit set now name.
   */
  #split(shard: number): void {
    const d = this.#depth[shard]!;
    if (d === this.#globalDepth) this.#doubleDirectory();
    const old = this.#shards[shard]!;
    const low = new Int32Array(old.length);
    const high = new Int32Array(old.length);
    const bit = 31 - d;
    const lowLive = splitLive(old, low, high, bit);
    const highLive = this.#live[shard]! - lowLive;
    this.#shards[shard] = low;
    this.#used[shard] = lowLive;
    this.#live[shard] = lowLive;
    this.#depth[shard] = d + 1;
    const other = this.#addShard(high, d + 1);
    this.#used[other] = highLive;
    this.#live[other] = highLive;
    // Directory index j holds the top globalDepth bits of a hash: bit 31 - d is its bit
    // globalDepth - 1 - d.
    const dir = this.#dir;
    const dirBit = this.#globalDepth - 1 - d;
    for (let j = 0; j < dir.length; j++) {
      if (dir[j] === shard && ((j >>> dirBit) & 1) === 1) dir[j] = other;
    }
  }

  #doubleDirectory(): void {
    const old = this.#dir;
    const dir = new Int32Array(old.length * 2);
    for (let j = 0; j < dir.length; j++) dir[j] = old[j >>> 1]!;
    this.#dir = dir;
    this.#globalDepth++;
    this.#dirShift = 32 - this.#globalDepth;
    this.#dirMask = (1 << this.#globalDepth) - 1;
  }

  /** Adds a shard of local depth `depth` (no entries counted yet) and returns its number. */
  #addShard(slots: Int32Array, depth: number): number {
    const shard = this.#shards.length;
    this.#shards.push(slots);
    this.#used.push(0);
    this.#live.push(0);
    this.#depth.push(depth);
    this.#widenIds(slots.length >>> SLOT_SHIFT);
    return shard;
  }

  /** Makes ids hold slot indexes of a shard of `length` slots. */
  #widenIds(length: number): void {
    while (1 << this.#idShift < length) this.#idShift++;
  }

  /**
   * Room for `more` new keys in every shard at once: if the used slots and `more` pass the load
   * limit of all the slots, lays the table out anew over as many full-size shards as the live
   * keys and `more` need (a cost in proportion to the batch that asked, larger than the table).
   */
  #reserveAll(more: number): void {
    let count = 0;
    let used = 0;
    for (let shard = 0; shard < this.#shards.length; shard++) {
      count += this.#shards[shard]!.length >>> SLOT_SHIFT;
      used += this.#used[shard]!;
    }
    if ((used + more) * LOAD_DENOMINATOR <= count * LOAD_NUMERATOR) return;
    const size = this.#size;
    // Shards of unequal sizes add up to any count: start from a power of two.
    let length = 1;
    while (length < count) length *= 2;
    while (size * 2 > length || (size + more) * LOAD_DENOMINATOR > length * LOAD_NUMERATOR) {
      length *= 2;
    }
    // Shards laid out together fill together: left at most half full, they reach their limits
    // (and split) at the puts their own fills pick, not in one wave right after the load.
    while (length > this.#shardSlots && (size + more) * 2 > length) length *= 2;
    if (this.#shards.length === 1 && length <= this.#shardSlots) {
      this.#rebuild(0, length);
      return;
    }
    let depth = 0;
    while (this.#shardSlots * 2 ** depth < length && depth < this.#maxDepth) depth++;
    const shardLength = Math.max(this.#shardSlots, length >>> depth);
    const old = this.#shards;
    this.#shards = [];
    this.#used = [];
    this.#live = [];
    this.#depth = [];
    this.#idShift = 0;
    this.#dir = new Int32Array(1 << depth);
    this.#globalDepth = depth;
    this.#dirShift = 32 - depth;
    this.#dirMask = (1 << depth) - 1;
    for (let j = 0; j < 1 << depth; j++)
      this.#dir[j] = this.#addShard(new Int32Array(SLOT * shardLength), depth);
    for (const slots of old) {
      for (let s = 0; s < slots.length; s += SLOT) {
        const page = slots[s + PAGE]!;
        if (page === EMPTY || page === TOMBSTONE) continue;
        const h = slots[s + HASH]!;
        const shard = this.#dir[(h >>> this.#dirShift) & this.#dirMask]!;
        const target = this.#shards[shard]!;
        placeSlot(target, slots, s);
        this.#used[shard]!++;
        this.#live[shard]!++;
      }
    }
  }

  /** Copies the live records into fresh pages once dead bytes outweigh them. */
  #maybeCompact(): void {
    if (this.#deadBytes < this.#compactMinGarbage || this.#deadBytes < this.#liveBytes) return;
    const oldPages = this.#pages;
    this.#pages = [];
    this.#page = new Uint8Array(0);
    this.#pageAt = 0;
    this.#liveBytes = 0;
    this.#deadBytes = 0;
    // In slot order (slot indexes do not move here, so a span run's candidates stay valid).
    for (const slots of this.#shards) {
      for (let i = 0; i < slots.length >>> SLOT_SHIFT; i++) {
        const s = i * SLOT;
        const p = slots[s + PAGE]!;
        if (p === EMPTY || p === TOMBSTONE) continue;
        const page = oldPages[p - 1]!;
        const at = slots[s + AT]!;
        const length = keyLength(page, at);
        const keyStart = at + headerBytes(length);
        const valueStart = keyStart + length;
        this.#append(
          slots,
          i,
          page,
          keyStart,
          valueStart,
          page,
          valueStart,
          valueStart + slots[s + VALUE_LENGTH]!,
        );
      }
    }
  }
}

/** Places the live slots of `old` into `slots` (a rebuild). */
function placeLive(old: Int32Array, slots: Int32Array): void {
  for (let s = 0; s < old.length; s += SLOT) {
    const page = old[s + PAGE]!;
    if (page !== EMPTY && page !== TOMBSTONE) placeSlot(slots, old, s);
  }
}

/**
 * Places the live slots of `old` into `low`, or into `high` where their hash has bit `bit` set (a
 * split). Returns how many went to `low`.
 */
function splitLive(old: Int32Array, low: Int32Array, high: Int32Array, bit: number): number {
  let lowCount = 0;
  for (let s = 0; s < old.length; s += SLOT) {
    const page = old[s + PAGE]!;
    if (page === EMPTY || page === TOMBSTONE) continue;
    if (((old[s + HASH]! >>> bit) & 1) === 1) {
      placeSlot(high, old, s);
    } else {
      placeSlot(low, old, s);
      lowCount++;
    }
  }
  return lowCount;
}

/** Copies the slot at old[s] into `slots`, at its hash's first EMPTY slot (its key is new there). */
function placeSlot(slots: Int32Array, old: Int32Array, s: number): void {
  const h = old[s + HASH]!;
  const mask = (slots.length >>> SLOT_SHIFT) - 1;
  let j = h & mask;
  while (slots[j * SLOT + PAGE] !== EMPTY) j = (j + 1) & mask;
  const t = j * SLOT;
  slots[t + HASH] = h;
  slots[t + PAGE] = old[s + PAGE]!;
  slots[t + AT] = old[s + AT]!;
  slots[t + VALUE_LENGTH] = old[s + VALUE_LENGTH]!;
}

/** Bytes of the key-length header of a key of `length` bytes. */
function headerBytes(length: number): number {
  return length < LONG_KEY ? 1 : 5;
}

/** Bytes of a record with a key of `keyLength` bytes and a value of `valueLength`. */
function recordBytes(keyLength: number, valueLength: number): number {
  return headerBytes(keyLength) + keyLength + valueLength;
}

/** The key length of the record at `at`. */
function keyLength(page: Uint8Array, at: number): number {
  const first = page[at]!;
  if (first !== LONG_KEY) return first;
  return (
    (page[at + 1]! | (page[at + 2]! << 8) | (page[at + 3]! << 16) | (page[at + 4]! << 24)) >>> 0
  );
}

/** Header and key bytes of the record at `at` (where its value starts, from `at`). */
function keyBytes(page: Uint8Array, at: number): number {
  const length = keyLength(page, at);
  return headerBytes(length) + length;
}

/** Copies src[start, end) to dst at `at`. */
function copyBytes(dst: Uint8Array, at: number, src: Uint8Array, start: number, end: number): void {
  if (end - start < SHORT_COPY) {
    const d = at - start;
    for (let k = start; k < end; k++) dst[d + k] = src[k]!;
  } else {
    dst.set(start === 0 && end === src.length ? src : src.subarray(start, end), at);
  }
}
