import { fnv1a } from "../bytes/fnv1a.js";
import { U32Stack } from "../tree/u32-stack.js";

/** Records (key bytes, then value bytes) are appended to pages of this size. */
const PAGE_BYTES = 1 << 20;
const EMPTY = 0;
const TOMBSTONE = 0xffffffff;
/** Compaction starts once this much of the pages is dead, and more of it than is live. */
const COMPACT_MIN_GARBAGE = 16 << 20;

/**
 * A hash table from byte keys to byte values held in typed arrays: open addressing over entry
 * ids, each entry's key and value stored back to back in large pages. No object per entry, so
 * a table of millions of entries costs the garbage collector nothing to mark, and a put costs a
 * hash, a probe and a copy. A value overwritten with one of the same length is rewritten in
 * place (node blobs at a path usually keep their size); other overwrites and deletes leave dead
 * bytes, which a compaction reclaims once they outweigh the live ones.
 */
export class ByteTable {
  readonly #compactMinGarbage: number;
  #slots = new Uint32Array(1024);
  #used = 0;
  #size = 0;
  #pages: Uint8Array[] = [];
  #page = new Uint8Array(0);
  #pageAt = 0;
  #liveBytes = 0;
  #deadBytes = 0;
  // Per entry id: page, offset, key length, value length, key hash.
  #entryPage = new Uint32Array(256);
  #entryAt = new Uint32Array(256);
  #keyLength = new Uint32Array(256);
  #valueLength = new Uint32Array(256);
  #hash = new Uint32Array(256);
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
    const mask = this.#slots.length - 1;
    for (let i = h & mask; ; i = (i + 1) & mask) {
      const s = this.#slots[i]!;
      if (s === EMPTY) return -1;
      if (s !== TOMBSTONE && this.#matches(s - 1, h, key)) return s - 1;
    }
  }

  /** A copy of the value of entry `id`. */
  valueOf(id: number): Uint8Array {
    const at = this.#entryAt[id]! + this.#keyLength[id]!;
    return this.#pages[this.#entryPage[id]!]!.slice(at, at + this.#valueLength[id]!);
  }

  /** A copy of the key of entry `id`. */
  keyOf(id: number): Uint8Array {
    const at = this.#entryAt[id]!;
    return this.#pages[this.#entryPage[id]!]!.slice(at, at + this.#keyLength[id]!);
  }

  set(key: Uint8Array, value: Uint8Array): void {
    const h = fnv1a(key, 0, key.length);
    const mask = this.#slots.length - 1;
    let free = -1;
    let i = h & mask;
    for (; ; i = (i + 1) & mask) {
      const s = this.#slots[i]!;
      if (s === EMPTY) break;
      if (s === TOMBSTONE) {
        if (free < 0) free = i;
        continue;
      }
      const id = s - 1;
      if (!this.#matches(id, h, key)) continue;
      if (this.#valueLength[id] === value.length) {
        this.#pages[this.#entryPage[id]!]!.set(value, this.#entryAt[id]! + key.length);
      } else {
        this.#deadBytes += key.length + this.#valueLength[id]!;
        this.#liveBytes -= key.length + this.#valueLength[id]!;
        this.#append(id, key, value);
        this.#maybeCompact();
      }
      return;
    }
    const id = this.#newId();
    this.#hash[id] = h;
    this.#append(id, key, value);
    if (free >= 0) {
      this.#slots[free] = id + 1;
    } else {
      this.#slots[i] = id + 1;
      this.#used++;
    }
    this.#size++;
    if (this.#used * 4 > this.#slots.length * 3) this.#rehash();
  }

  delete(key: Uint8Array): void {
    const h = fnv1a(key, 0, key.length);
    const mask = this.#slots.length - 1;
    for (let i = h & mask; ; i = (i + 1) & mask) {
      const s = this.#slots[i]!;
      if (s === EMPTY) return;
      if (s === TOMBSTONE || !this.#matches(s - 1, h, key)) continue;
      const id = s - 1;
      this.#slots[i] = TOMBSTONE;
      this.#deadBytes += this.#keyLength[id]! + this.#valueLength[id]!;
      this.#liveBytes -= this.#keyLength[id]! + this.#valueLength[id]!;
      this.#freeIds.push(id);
      this.#size--;
      this.#maybeCompact();
      return;
    }
  }

  /** Ids of every entry (table order). */
  ids(): Uint32Array {
    const out = new Uint32Array(this.#size);
    let n = 0;
    for (let i = 0; i < this.#slots.length; i++) {
      const s = this.#slots[i]!;
      if (s !== EMPTY && s !== TOMBSTONE) out[n++] = s - 1;
    }
    return out;
  }

  /** Byte-wise order of the keys of two entries. */
  compareKeys(a: number, b: number): number {
    const pa = this.#pages[this.#entryPage[a]!]!;
    const pb = this.#pages[this.#entryPage[b]!]!;
    const ia = this.#entryAt[a]!;
    const ib = this.#entryAt[b]!;
    const la = this.#keyLength[a]!;
    const lb = this.#keyLength[b]!;
    const n = Math.min(la, lb);
    for (let k = 0; k < n; k++) {
      const d = pa[ia + k]! - pb[ib + k]!;
      if (d !== 0) return d;
    }
    return la - lb;
  }

  #matches(id: number, h: number, key: Uint8Array): boolean {
    if (this.#hash[id] !== h || this.#keyLength[id] !== key.length) return false;
    const page = this.#pages[this.#entryPage[id]!]!;
    const at = this.#entryAt[id]!;
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
    this.#entryPage[id] = this.#pages.length - 1;
    this.#entryAt[id] = at;
    this.#keyLength[id] = key.length;
    this.#valueLength[id] = value.length;
    this.#liveBytes += size;
  }

  #newId(): number {
    if (this.#freeIds.length > 0) return this.#freeIds.pop();
    const id = this.#nextId++;
    if (id === this.#hash.length) {
      const grow = (a: Uint32Array) => {
        const b = new Uint32Array(a.length * 2);
        b.set(a);
        return b;
      };
      this.#entryPage = grow(this.#entryPage);
      this.#entryAt = grow(this.#entryAt);
      this.#keyLength = grow(this.#keyLength);
      this.#valueLength = grow(this.#valueLength);
      this.#hash = grow(this.#hash);
    }
    return id;
  }

  /** Doubles the slot array (or rebuilds it at the same size when tombstones fill it). */
  #rehash(): void {
    const old = this.#slots;
    const length = this.#size * 2 > old.length ? old.length * 2 : old.length;
    const slots = new Uint32Array(length);
    const mask = length - 1;
    for (let i = 0; i < old.length; i++) {
      const s = old[i]!;
      if (s === EMPTY || s === TOMBSTONE) continue;
      let j = this.#hash[s - 1]! & mask;
      while (slots[j] !== EMPTY) j = (j + 1) & mask;
      slots[j] = s;
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
      const page = oldPages[this.#entryPage[id]!]!;
      const at = this.#entryAt[id]!;
      const kl = this.#keyLength[id]!;
      const vl = this.#valueLength[id]!;
      this.#append(id, page.subarray(at, at + kl), page.subarray(at + kl, at + kl + vl));
    }
  }
}
