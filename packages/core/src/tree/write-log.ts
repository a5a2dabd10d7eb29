/** Entries held before a flush is forced (64 bytes each: 64 MiB at most). */
const MAX_ENTRIES = 1 << 20;

/**
 * Pending single-key writes (key ‖ value, 64 bytes each) and a stable radix sort of them by
 * their first four key bytes: enough to give consecutive writes shared paths, and stable so two
 * writes of one key keep their call order (the later one wins).
 */
export class WriteLog {
  bytes = new Uint8Array(64 * 1024);
  count = 0;
  #order = new Uint32Array(1024);
  #scratch = new Uint32Array(1024);
  #digits = new Uint32Array(1024);
  readonly #buckets = new Uint32Array(65536);

  get full(): boolean {
    return this.count >= MAX_ENTRIES;
  }

  append(key: Uint8Array, value: Uint8Array): void {
    const at = this.count << 6;
    if (at + 64 > this.bytes.length) {
      const grown = new Uint8Array(this.bytes.length * 2);
      grown.set(this.bytes);
      this.bytes = grown;
    }
    const bytes = this.bytes;
    for (let i = 0; i < 32; i++) bytes[at + i] = key[i]!;
    for (let i = 0; i < 32; i++) bytes[at + 32 + i] = value[i]!;
    this.count++;
  }

  clear(): void {
    this.count = 0;
  }

  /**
   * Keeps only the entries order[from..] (the ones not applied yet), in their call order, so a
   * later sort reproduces their relative order; used when applying the log threw midway.
   */
  retainUnapplied(order: Uint32Array, from: number): void {
    const n = this.count;
    const keep = order.slice(from, n).sort();
    const bytes = this.bytes;
    for (let k = 0; k < keep.length; k++) {
      // keep[k] >= k (ascending, distinct), so moving entries down never overwrites one still to move.
      bytes.copyWithin(k << 6, keep[k]! << 6, (keep[k]! << 6) + 64);
    }
    this.count = keep.length;
  }

  /** Entry indices ordered by the key's first 4 bytes (big-endian), stable. */
  sortedOrder(): Uint32Array {
    const n = this.count;
    if (this.#order.length < n) {
      const capacity = Math.max(n, this.#order.length * 2);
      this.#order = new Uint32Array(capacity);
      this.#scratch = new Uint32Array(capacity);
      this.#digits = new Uint32Array(capacity);
    }
    const bytes = this.bytes;
    const digits = this.#digits;
    for (let e = 0; e < n; e++) {
      const at = e << 6;
      digits[e] =
        ((bytes[at]! << 24) | (bytes[at + 1]! << 16) | (bytes[at + 2]! << 8) | bytes[at + 3]!) >>>
        0;
    }
    let from = this.#scratch;
    let to = this.#order;
    for (let e = 0; e < n; e++) from[e] = e;
    // Two stable counting-sort passes: low 16 bits, then high 16 bits (LSD radix).
    for (const shift of [0, 16]) {
      const buckets = this.#buckets;
      buckets.fill(0);
      for (let e = 0; e < n; e++) buckets[(digits[from[e]!]! >>> shift) & 0xffff]!++;
      let sum = 0;
      for (let b = 0; b < 65536; b++) {
        const c = buckets[b]!;
        buckets[b] = sum;
        sum += c;
      }
      for (let e = 0; e < n; e++) {
        const entry = from[e]!;
        to[buckets[(digits[entry]! >>> shift) & 0xffff]!++] = entry;
      }
      const t = from;
      from = to;
      to = t;
    }
    return from;
  }
}
