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
/** Used slots (live and tombstones) per slot before the slots are rebuilt: 5/8. */
const LOAD_NUMERATOR = 5;
const LOAD_DENOMINATOR = 8;
/** Compaction starts once this much of the pages is dead, and more of it than is live. */
const COMPACT_MIN_GARBAGE = 16 << 20;
/** Puts per run of setSpans: the lines a run touches (two per put) stay in the L1/L2 cache. */
const SPAN_RUN = 64;
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
 * An entry is named by its slot index, valid until the next write (a put may rebuild the slots).
 */
export class ByteTable {
  readonly #compactMinGarbage: number;
  /** SLOT words per slot: key hash, page index + 1 (or EMPTY, TOMBSTONE), offset, value length. */
  #slots: Int32Array;
  /** Slots not EMPTY (live entries and tombstones). */
  #used = 0;
  #size = 0;
  #pages: Uint8Array[] = [];
  #page = new Uint8Array(0);
  #pageAt = 0;
  #liveBytes = 0;
  #deadBytes = 0;
  /** setSpans' scratch (reused): key hash and candidate slot + 1 per put of a run. */
  #scratch = new Int32Array(2 * SPAN_RUN);
  /** Sum of setSpans' touching loads (kept so they are not optimised away). */
  #loads = 0;

  /**
   * `compactMinGarbage`: dead bytes before a compaction is considered; `slots`: the initial
   * slot count, a power of two (tests lower both).
   */
  constructor(options: { compactMinGarbage?: number; slots?: number } = {}) {
    this.#compactMinGarbage = options.compactMinGarbage ?? COMPACT_MIN_GARBAGE;
    this.#slots = new Int32Array(SLOT * (options.slots ?? 1024));
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

  /** Bytes of the slots (the table's memory besides its pages). */
  get slotBytes(): number {
    return this.#slots.byteLength;
  }

  /** The entry (slot index) of `key`, or -1. */
  find(key: Uint8Array): number {
    const h = fnv1a(key, 0, key.length) | 0;
    const slots = this.#slots;
    const mask = (slots.length >>> SLOT_SHIFT) - 1;
    for (let i = h & mask; ; i = (i + 1) & mask) {
      const s = i * SLOT;
      const page = slots[s + PAGE]!;
      if (page === EMPTY) return -1;
      if (page !== TOMBSTONE && slots[s + HASH] === h && this.#matches(i, key, 0, key.length)) {
        return i;
      }
    }
  }

  /** A copy of the value of entry `entry`. */
  valueOf(entry: number): Uint8Array {
    const s = entry * SLOT;
    const slots = this.#slots;
    const page = this.#pages[slots[s + PAGE]! - 1]!;
    const at = slots[s + AT]!;
    const start = at + keyBytes(page, at);
    return page.slice(start, start + slots[s + VALUE_LENGTH]!);
  }

  /** A copy of the key of entry `entry`. */
  keyOf(entry: number): Uint8Array {
    const s = entry * SLOT;
    const page = this.#pages[this.#slots[s + PAGE]! - 1]!;
    const at = this.#slots[s + AT]!;
    const length = keyLength(page, at);
    const start = at + headerBytes(length);
    return page.slice(start, start + length);
  }

  set(key: Uint8Array, value: Uint8Array): void {
    this.#put(fnv1a(key, 0, key.length) | 0, key, 0, key.length, value, 0, value.length);
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
    // front grows the slots once to their final size, not by doubling after doubling (each of
    // which reinserts every key so far). A smaller batch grows them run by run (below), so
    // overwrites do not grow them.
    if (count > this.#size) this.#reserve(count);
    for (let from = 0; from < count; from += SPAN_RUN) {
      const to = Math.min(count, from + SPAN_RUN);
      // Slots are rebuilt only between runs: a run keeps slot indexes across its puts.
      this.#reserve(to - from);
      this.#setSpanRun(chunks, spans, from, to);
    }
  }

  #setSpanRun(chunks: readonly Uint8Array[], spans: Uint32Array, from: number, to: number): void {
    const scratch = this.#scratch;
    const n = to - from;
    for (let k = 0; k < n; k++) {
      const w = (from + k) * SPAN_WORDS;
      scratch[2 * k] = fnv1a(chunks[spans[w]!]!, spans[w + 1]!, spans[w + 2]!) | 0;
    }
    this.#touchRun(n);
    for (let k = 0; k < n; k++) {
      const w = (from + k) * SPAN_WORDS;
      const chunk = chunks[spans[w]!]!;
      const ks = spans[w + 1]!;
      const ke = spans[w + 2]!;
      const vs = spans[w + 3]!;
      const ve = spans[w + 4]!;
      const candidate = scratch[2 * k + 1]!;
      // Slot indexes hold within the run: #reserve made room for all of its new keys.
      if (candidate === 0 || !this.#matches(candidate - 1, chunk, ks, ke)) {
        this.#put(scratch[2 * k]!, chunk, ks, ke, chunk, vs, ve);
      } else {
        this.#overwrite(candidate - 1, ke - ks, chunk, vs, ve);
      }
    }
  }

  /**
   * For the `n` key hashes of a run in the scratch: loads their slots in a loop of independent
   * loads, then finds each one's candidate (the first live slot with its hash, + 1, or 0) and
   * loads the page line its record starts at, so the run's puts or deletes find them in cache.
   */
  #touchRun(n: number): void {
    const scratch = this.#scratch;
    const slots = this.#slots;
    const mask = (slots.length >>> SLOT_SHIFT) - 1;
    // Kept in a field so the touching loads are not optimised away.
    let loads = this.#loads;
    for (let k = 0; k < n; k++) loads ^= slots[(scratch[2 * k]! & mask) * SLOT + PAGE]!;
    const pages = this.#pages;
    for (let k = 0; k < n; k++) {
      const h = scratch[2 * k]!;
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
      if (slots[i * SLOT + HASH] !== h || !this.#matches(i, kb, ks, ke)) continue;
      this.#overwrite(i, ke - ks, vb, vs, ve);
      return;
    }
    const at = free >= 0 ? free : i;
    if (free < 0) this.#used++;
    slots[at * SLOT + HASH] = h;
    this.#append(at, kb, ks, ke, vb, vs, ve);
    this.#size++;
    if (this.#used * LOAD_DENOMINATOR > (slots.length >>> SLOT_SHIFT) * LOAD_NUMERATOR) {
      this.#reserve(0);
    }
  }

  delete(key: Uint8Array): void {
    const i = this.find(key);
    if (i >= 0) this.#deleteAt(i, key.length);
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
      this.#touchRun(n);
      for (let k = 0; k < n; k++) {
        const key = keys[start + k]!;
        // A delete moves no slot, so the candidates stay slots (maybe since deleted: check).
        const candidate = scratch[2 * k + 1]!;
        const live = candidate !== 0 && this.#slots[(candidate - 1) * SLOT + PAGE]! !== TOMBSTONE;
        const i =
          live && this.#matches(candidate - 1, key, 0, key.length) ? candidate - 1 : this.find(key);
        if (i >= 0) this.#deleteAt(i, key.length);
      }
    }
  }

  #deleteAt(i: number, keyLength: number): void {
    const s = i * SLOT;
    const slots = this.#slots;
    const size = recordBytes(keyLength, slots[s + VALUE_LENGTH]!);
    slots[s + PAGE] = TOMBSTONE;
    this.#deadBytes += size;
    this.#liveBytes -= size;
    this.#size--;
    this.#maybeCompact();
  }

  /** The entries (slot indexes) of every key, in table order. */
  ids(): Uint32Array {
    const out = new Uint32Array(this.#size);
    const slots = this.#slots;
    let n = 0;
    for (let i = 0; i < slots.length >>> SLOT_SHIFT; i++) {
      const page = slots[i * SLOT + PAGE]!;
      if (page !== EMPTY && page !== TOMBSTONE) out[n++] = i;
    }
    return out;
  }

  /** Byte-wise order of the keys of two entries. */
  compareKeys(a: number, b: number): number {
    const slots = this.#slots;
    const pa = this.#pages[slots[a * SLOT + PAGE]! - 1]!;
    const pb = this.#pages[slots[b * SLOT + PAGE]! - 1]!;
    const ra = slots[a * SLOT + AT]!;
    const rb = slots[b * SLOT + AT]!;
    const la = keyLength(pa, ra);
    const lb = keyLength(pb, rb);
    const ia = ra + headerBytes(la);
    const ib = rb + headerBytes(lb);
    const n = Math.min(la, lb);
    for (let k = 0; k < n; k++) {
      const d = pa[ia + k]! - pb[ib + k]!;
      if (d !== 0) return d;
    }
    return la - lb;
  }

  /** Gives entry `i` (whose key has `keyLength` bytes) the value vb[vs, ve). */
  #overwrite(i: number, keyLength: number, vb: Uint8Array, vs: number, ve: number): void {
    const s = i * SLOT;
    const slots = this.#slots;
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
    this.#append(i, page, keyStart, keyStart + keyLength, vb, vs, ve);
    this.#maybeCompact();
  }

  /** Whether entry `i` (whose hash matched) has the key kb[ks, ke): one page line for a node key. */
  #matches(i: number, kb: Uint8Array, ks: number, ke: number): boolean {
    const s = i * SLOT;
    const page = this.#pages[this.#slots[s + PAGE]! - 1]!;
    const at = this.#slots[s + AT]!;
    const length = ke - ks;
    if (keyLength(page, at) !== length) return false;
    const d = at + headerBytes(length) - ks;
    for (let k = ks; k < ke; k++) if (page[d + k] !== kb[k]) return false;
    return true;
  }

  /** Appends the record of entry `i` (key kb[ks, ke), value vb[vs, ve)) and points its slot at it. */
  #append(
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
    const slots = this.#slots;
    slots[s + PAGE] = this.#pages.length;
    slots[s + AT] = at;
    slots[s + VALUE_LENGTH] = ve - vs;
    this.#liveBytes += size;
  }

  /** Rebuilds the slots if `more` new keys could push the used slots past the load limit. */
  #reserve(more: number): void {
    const count = this.#slots.length >>> SLOT_SHIFT;
    if ((this.#used + more) * LOAD_DENOMINATOR <= count * LOAD_NUMERATOR) return;
    // Double while the live keys fill more than half or leave no room for `more` under the load
    // limit; else rebuild at the same size (which clears the tombstones).
    let length = count;
    const size = this.#size;
    while (size * 2 > length || (size + more) * LOAD_DENOMINATOR > length * LOAD_NUMERATOR) {
      length *= 2;
    }
    this.#rehash(length);
  }

  #rehash(length: number): void {
    const old = this.#slots;
    const slots = new Int32Array(SLOT * length);
    const mask = length - 1;
    for (let s = 0; s < old.length; s += SLOT) {
      const page = old[s + PAGE]!;
      if (page === EMPTY || page === TOMBSTONE) continue;
      const h = old[s + HASH]!;
      let j = h & mask;
      while (slots[j * SLOT + PAGE] !== EMPTY) j = (j + 1) & mask;
      const t = j * SLOT;
      slots[t + HASH] = h;
      slots[t + PAGE] = page;
      slots[t + AT] = old[s + AT]!;
      slots[t + VALUE_LENGTH] = old[s + VALUE_LENGTH]!;
    }
    this.#slots = slots;
    this.#used = this.#size;
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
    const slots = this.#slots;
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
