import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { BinaryTree, getHasher } from "../src/index.js";
import { mergePartitions } from "../src/node/merge-partitions.js";
import {
  prefixHistogram,
  prefixHistogramListing,
  prefixStarts,
  scatterEntries,
  scatterListed,
} from "../src/node/partition-entries.js";
import { partitionUnits } from "../src/node/partition-units.js";
import {
  buildUnit,
  buildUnits,
  CONTROL_WORDS,
  NEXT,
  type PartitionWork,
  publishReady,
} from "../src/node/partition-work.js";
import { WriteLog } from "../src/tree/write-log.js";
import { hex } from "./helpers/shared.js";

/** Keys from a few top bytes (so prefixes are empty, single or crowded), some sharing a stem. */
const key = fc
  .tuple(
    fc.constantFrom(0x00, 0x01, 0x7f, 0x80, 0xff),
    fc.uint8Array({ minLength: 31, maxLength: 31 }),
    fc.boolean(),
  )
  .map(([top, rest, sameStem]) => {
    const k = new Uint8Array(32);
    k[0] = top;
    k.set(rest.subarray(0, 30), 1);
    k[31] = sameStem ? 0 : rest[30]!;
    return k;
  });
const writes = fc.array(fc.tuple(key, fc.uint8Array({ minLength: 32, maxLength: 32 })), {
  maxLength: 120,
});

/** keys and values back to back, starting `shift` bytes into their buffers (unaligned views). */
function flat(entries: [Uint8Array, Uint8Array][], shift: number) {
  const keys = new Uint8Array(shift + entries.length * 32).subarray(shift);
  const values = new Uint8Array(shift + entries.length * 32).subarray(shift);
  entries.forEach(([k, v], i) => {
    keys.set(k, i * 32);
    values.set(v, i * 32);
  });
  return { keys, values };
}

function prefixOf(k: Uint8Array, bits: number): number {
  return ((k[0]! << 16) | (k[1]! << 8) | k[2]!) >>> (24 - bits);
}

describe("partition entries (the counting-sort pass before the partition builds)", () => {
  it("groups key ‖ value by k-bit prefix in prefix order, call order within a prefix", () => {
    fc.assert(
      fc.property(
        writes,
        fc.integer({ min: 1, max: 16 }),
        fc.integer({ min: 0, max: 3 }),
        fc.integer({ min: 0, max: 100 }),
        fc.integer({ min: 0, max: 100 }),
        fc.integer({ min: 0, max: 130 }),
        (entries, k, shift, cut, listCut, room) => {
          const { keys, values } = flat(entries, shift);
          const n = entries.length;
          const width = 1 << k;
          const prefixes = new Uint16Array(n);
          const below = Math.floor((width * listCut) / 100);
          const listed = new Uint32Array(room);
          const { histogram, listedCount } = prefixHistogramListing(
            keys,
            n,
            k,
            prefixes,
            below,
            listed,
          );
          // (Compared as bytes: a deep equal of 2^16 numbers per run would dominate the test.)
          const plain = prefixHistogram(keys, n, k);
          expect(Buffer.from(histogram.buffer).equals(Buffer.from(plain.buffer))).toBe(true);
          const starts = prefixStarts(histogram);
          for (let i = 0; i < n; i++) expect(prefixes[i]).toBe(prefixOf(entries[i]![0], k));
          // The listed keys: those below the cut, in call order (as many as fit).
          const below_ = entries.flatMap(([kk], i) => (prefixOf(kk, k) < below ? [i] : []));
          expect(listedCount).toBe(below_.length);
          expect([...listed.subarray(0, Math.min(room, listedCount))]).toEqual(
            below_.slice(0, room),
          );
          const cursors = starts.slice(0, width);
          const grouped = new Uint8Array(n * 64);
          // In passes over disjoint prefix ranges, as parallelRoot does: the first from the
          // list when it holds all of them, the rest over all keys.
          const mid = Math.min(below, Math.floor((width * cut) / 100));
          if (listedCount <= room)
            scatterListed(keys, values, prefixes, listed, listedCount, 0, mid, cursors, grouped);
          else scatterEntries(keys, values, prefixes, n, 0, mid, cursors, grouped);
          scatterEntries(keys, values, prefixes, n, mid, width, cursors, grouped);
          // Reference: a stable sort of the writes by prefix.
          const expected = entries
            .map(([kk, v], i) => ({ kk, v, i, p: prefixOf(kk, k) }))
            .sort((a, b) => a.p - b.p || a.i - b.i);
          expected.forEach(({ kk, v, p }, j) => {
            expect(grouped.subarray(j * 64, j * 64 + 32)).toEqual(kk);
            expect(grouped.subarray(j * 64 + 32, j * 64 + 64)).toEqual(v);
            expect(j >= starts[p]! && j < starts[p + 1]!).toBe(true);
          });
          expect(starts[width]).toBe(n);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("units of partitions, built in any order or claimed by any number of threads, merge to the write-by-write root", () => {
    const hasher = getHasher("sha256");
    fc.assert(
      fc.property(
        writes,
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 0, max: 3 }),
        // Entries per unit: 1 (a unit per partition) up to more than any input holds.
        fc.integer({ min: 1, max: 200 }),
        fc.integer({ min: 1, max: 4 }),
        fc.boolean(),
        fc.integer(),
        (entries, k, shift, maxEntries, threads, claimed, seed) => {
          const { keys, values } = flat(entries, shift);
          const n = entries.length;
          const width = 1 << k;
          const prefixes = new Uint16Array(n);
          const starts = prefixStarts(prefixHistogram(keys, n, k, prefixes));
          const units = partitionUnits(starts, threads, maxEntries);
          // Units cover the partitions in order, each within maxEntries or a single partition.
          expect(units[0]).toBe(0);
          expect(units[units.length - 1]).toBe(width);
          for (let u = 0; u + 1 < units.length; u++) {
            expect(units[u + 1]!).toBeGreaterThan(units[u]!);
            const size = starts[units[u + 1]!]! - starts[units[u]!]!;
            expect(size <= maxEntries || units[u + 1] === units[u]! + 1).toBe(true);
          }
          const count = units.length - 1;
          const work: PartitionWork = {
            entries: new Uint8Array(n * 64),
            starts,
            k,
            units,
            control: new Int32Array(CONTROL_WORDS),
            kinds: new Uint8Array(width).fill(9),
            hashes: new Uint8Array(width * 32),
            scheme: "sha256-be",
          };
          scatterEntries(keys, values, prefixes, n, 0, width, starts.slice(0, width), work.entries);
          if (claimed) {
            // As parallelRoot's threads do (one after another here): each its own first unit,
            // then whatever is left unclaimed.
            work.control[NEXT] = threads;
            publishReady(work.control, count);
            let built = 0;
            for (let t = 0; t < threads; t++) built += buildUnits(work, t, hasher).entries;
            expect(built).toBe(n);
          } else {
            const order = Array.from({ length: count }, (_, u) => u);
            let r = seed;
            for (let i = order.length - 1; i > 0; i--) {
              r = (Math.imul(r, 1103515245) + 12345) | 0;
              const j = (r >>> 8) % (i + 1);
              [order[i], order[j]] = [order[j]!, order[i]!];
            }
            const log = new WriteLog();
            for (const u of order) buildUnit(work, units[u]!, units[u + 1]!, log, hasher);
          }
          const tree = new BinaryTree();
          for (const [kk, v] of entries) {
            tree.put(kk, v);
            tree.get(kk); // one by one: each write flushed on its own
          }
          expect(hex(mergePartitions(work.kinds, work.hashes, k, hasher))).toBe(hex(tree.hash()));
        },
      ),
      { numRuns: 200 },
    );
  });
});
