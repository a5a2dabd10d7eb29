import { copy8 } from "../hash/word-copy.js";
import { topBits } from "./partition-results.js";

/**
 * How many of the `count` keys (32 bytes each, back to back) start with each k-bit prefix; the
 * prefix of key i is also kept in `prefixes[i]` (the scatter passes then read 2 bytes per key
 * instead of a cache line of the keys).
 */
export function prefixHistogram(
  keys: Uint8Array,
  count: number,
  k: number,
  prefixes: Uint16Array = new Uint16Array(count),
): Uint32Array {
  const histogram = new Uint32Array(1 << k);
  for (let i = 0; i < count; i++) {
    const p = topBits(keys, i << 5, k);
    prefixes[i] = p;
    histogram[p]!++;
  }
  return histogram;
}

/** Where each prefix's entries start (in entries) when the prefixes follow each other in order. */
export function prefixStarts(histogram: Uint32Array): Uint32Array {
  const starts = new Uint32Array(histogram.length + 1);
  for (let p = 0; p < histogram.length; p++) starts[p + 1] = starts[p]! + histogram[p]!;
  return starts;
}

/**
 * One pass of a counting sort on the key prefixes (`prefixes[i]`, see prefixHistogram): copies
 * key i ‖ value i of every key whose prefix is in [lo, hi) to its 64-byte slot in `entries`,
 * `cursors[p]` being the next free slot of prefix p (advanced). Keys are taken in call order, so
 * each prefix's entries keep it (a later write of a key still wins), and the entries of one
 * prefix sit together for its build.
 */
export function scatterEntries(
  keys: Uint8Array,
  values: Uint8Array,
  prefixes: Uint16Array,
  count: number,
  lo: number,
  hi: number,
  cursors: Uint32Array,
  entries: Uint8Array,
): void {
  if (keys.byteOffset % 4 === 0 && values.byteOffset % 4 === 0 && entries.byteOffset % 4 === 0) {
    // Word copies: 16 loads and stores per entry instead of 64.
    const keys32 = new Uint32Array(keys.buffer, keys.byteOffset, count << 3);
    const values32 = new Uint32Array(values.buffer, values.byteOffset, count << 3);
    const entries32 = new Uint32Array(entries.buffer, entries.byteOffset, entries.length >>> 2);
    for (let i = 0; i < count; i++) {
      const p = prefixes[i]!;
      if (p < lo || p >= hi) continue;
      const to = cursors[p]!++ << 4;
      const from = i << 3;
      copy8(keys32, from, entries32, to);
      copy8(values32, from, entries32, to + 8);
    }
    return;
  }
  for (let i = 0; i < count; i++) {
    const p = prefixes[i]!;
    if (p < lo || p >= hi) continue;
    const to = cursors[p]!++ << 6;
    const from = i << 5;
    for (let b = 0; b < 32; b++) entries[to + b] = keys[from + b]!;
    for (let b = 0; b < 32; b++) entries[to + 32 + b] = values[from + b]!;
  }
}
