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
  return prefixHistogramListing(keys, count, k, prefixes, 0, new Uint32Array(0)).histogram;
}

/**
 * prefixHistogram, also listing in `listed` (in call order) the keys whose prefix is below
 * `below`, so their entries can be laid out without another pass over all keys (see
 * scatterListed). `listedCount` may exceed `listed.length`: then only the first fit.
 */
export function prefixHistogramListing(
  keys: Uint8Array,
  count: number,
  k: number,
  prefixes: Uint16Array,
  below: number,
  listed: Uint32Array,
): { histogram: Uint32Array; listedCount: number } {
  const histogram = new Uint32Array(1 << k);
  const room = listed.length;
  let n = 0;
  for (let i = 0; i < count; i++) {
    const p = topBits(keys, i << 5, k);
    prefixes[i] = p;
    histogram[p]!++;
    if (p < below) {
      if (n < room) listed[n] = i;
      n++;
    }
  }
  return { histogram, listedCount: n };
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
  scatter(keys, values, prefixes, undefined, count, lo, hi, cursors, entries);
}

/**
 * scatterEntries over the keys `listed[0..listedCount)` only (a call-ordered list holding every
 * key whose prefix is in [lo, hi), as prefixHistogramListing makes), not over all keys.
 */
export function scatterListed(
  keys: Uint8Array,
  values: Uint8Array,
  prefixes: Uint16Array,
  listed: Uint32Array,
  listedCount: number,
  lo: number,
  hi: number,
  cursors: Uint32Array,
  entries: Uint8Array,
): void {
  scatter(keys, values, prefixes, listed, listedCount, lo, hi, cursors, entries);
}

/** Keys 0..n-1, or listed[0..n) when given. */
function scatter(
  keys: Uint8Array,
  values: Uint8Array,
  prefixes: Uint16Array,
  listed: Uint32Array | undefined,
  n: number,
  lo: number,
  hi: number,
  cursors: Uint32Array,
  entries: Uint8Array,
): void {
  const count = keys.length >>> 5;
  if (keys.byteOffset % 4 === 0 && values.byteOffset % 4 === 0 && entries.byteOffset % 4 === 0) {
    // Word copies: 16 loads and stores per entry instead of 64.
    const keys32 = new Uint32Array(keys.buffer, keys.byteOffset, count << 3);
    const values32 = new Uint32Array(values.buffer, values.byteOffset, count << 3);
    const entries32 = new Uint32Array(entries.buffer, entries.byteOffset, entries.length >>> 2);
    for (let j = 0; j < n; j++) {
      const i = listed === undefined ? j : listed[j]!;
      const p = prefixes[i]!;
      if (p < lo || p >= hi) continue;
      const to = cursors[p]!++ << 4;
      const from = i << 3;
      copy8(keys32, from, entries32, to);
      copy8(values32, from, entries32, to + 8);
    }
    return;
  }
  for (let j = 0; j < n; j++) {
    const i = listed === undefined ? j : listed[j]!;
    const p = prefixes[i]!;
    if (p < lo || p >= hi) continue;
    const to = cursors[p]!++ << 6;
    const from = i << 5;
    for (let b = 0; b < 32; b++) entries[to + b] = keys[from + b]!;
    for (let b = 0; b < 32; b++) entries[to + 32 + b] = values[from + b]!;
  }
}
