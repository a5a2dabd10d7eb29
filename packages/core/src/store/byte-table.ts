import { fnv1a } from "../bytes/fnv1a.js";
import { U32Stack } from "../tree/u32-stack.js";

/** Records (key bytes, then value bytes) are appended to pages of this size. */
const PAGE_BYTES = 1 << 20;
const EMPTY = 0;
const TOMBSTONE = 0xffffffff;
/** Compaction starts once this much of the pages is dead, and more of it than is live. */
const COMPACT_MIN_GARBAGE = 16 << 20;
/** Words per entry record, and the field offsets in it. */
const RECORD = 5;
const PAGE = 0;
const AT = 1;
const KEY_LENGTH = 2;
const VALUE_LENGTH = 3;
const HASH = 4;

/**
 * A hash table from byte keys to byte values held in typed arrays: open addressing over entry
 * ids, each entry's key and value stored back to back in large pages. No object per entry, so
 * a table of millions of entries costs the garbage collector nothing to mark, and a put costs a
 * hash, a probe and a copy. On a large table every access is a cache miss, so a slot holds the
 * key hash beside the entry id (a probe past another key reads nothing else) and an entry's
 * fields sit together in one record: a put reads a slot, a record and its page. A value overwritten with one of the same length is rewritten in
 * place (node blobs at a path usually keep their size); other overwrites and deletes leave dead
 * bytes, which a compaction reclaims once they outweigh the live ones.
 */
export class ByteTable {
  readonly #compactMinGarbage: number;
  /** Slot pairs: entry id + 1 (or EMPTY, TOMBSTONE), key hash. */
  #slots = new Uint32Array(2 * 1024);
  #used = 0;
  #size = 0;
  #pages: Uint8Array[] = [];
  #page = new Uint8Array(0);
  #pageAt = 0;
  #liveBytes = 0;
  #deadBytes = 0;
  /** Per entry id, RECORD words: page, offset, key length, value length, key hash. */
  #records = new Uint32Array(256 * RECORD);
  #nextId = 0;
  readonly #freeIds = new U32Stack(64);

  /** `compactMinGarbage`: dead bytes before a compaction is considered (tests lower it). */
  constructor(options: { compactMinGarbage?: number } = {}) {
    this.#compactMinGarbage = options.compactMinGarbage ?? COMPACT_MIN_GARBAGE;
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
      if (s !== TOMBSTONE && slots[(i << 1) + 1] === h && this.#matches(s - 1, key)) return s - 1;
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
    const h = fnv1a(key, 0, key.length);
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
      if (slots[(i << 1) + 1] !== h || !this.#matches(id, key)) continue;
      const r = this.#records;
      const e = id * RECORD;
      const old = r[e + VALUE_LENGTH]!;
      if (old === value.length) {
        this.#pages[r[e + PAGE]!]!.set(value, r[e + AT]! + key.length);
      } else {
        this.#deadBytes += key.length + old;
        this.#liveBytes -= key.length + old;
        this.#append(id, key, value);
        this.#maybeCompact();
      }
      return;
    }
    const id = this.#newId();
    this.#records[id * RECORD + HASH] = h;
    this.#append(id, key, value);
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
      if (s === TOMBSTONE || slots[(i << 1) + 1] !== h || !this.#matches(s - 1, key)) continue;
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

  /** Whether entry `id` (whose hash matched) has key `key`. */
  #matches(id: number, key: Uint8Array): boolean {
    const r = this.#records;
    const e = id * RECORD;
    if (r[e + KEY_LENGTH] !== key.length) return false;
    const page = this.#pages[r[e + PAGE]!]!;
    const at = r[e + AT]!;
    for (let k = 0; k < key.length; k++) if (page[at + k] !== key[k]) return false;
    return true;
  }

  #append(id: number, key: Uint8Array, value: Uint8Array): void {
    const size = key.length + value.length;
    if (this.#pages.length === 0 || this.#pageAt + size > this.#page.length) {
      // Pages grow from 64 KiB to 1 MiB: a small store stays small.
      const grown = this.#pages.length >= 4 ? PAGE_BYTES : 65536 << this.#pages.length;
      this.#page = new Uint8Array(Math.max(grown, size));
      this.#pages.push(this.#page);
      this.#pageAt = 0;
    }
    const at = this.#pageAt;
    this.#page.set(key, at);
    this.#page.set(value, at + key.length);
    this.#pageAt = at + size;
    const e = id * RECORD;
    const r = this.#records;
    r[e + PAGE] = this.#pages.length - 1;
    r[e + AT] = at;
    r[e + KEY_LENGTH] = key.length;
    r[e + VALUE_LENGTH] = value.length;
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
    const ids = this.ids();
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
      this.#append(id, page.subarray(at, at + kl), page.subarray(at + kl, at + kl + vl));
    }
  }
}
