import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { BinaryTree, getHasher } from "../src/index.js";
import { buildPartitions } from "../src/node/build-partitions.js";
import { mergePartitions } from "../src/node/merge-partitions.js";
import { prefixHistogram, prefixStarts, scatterEntries } from "../src/node/partition-entries.js";
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
        (entries, k, shift, cut) => {
          const { keys, values } = flat(entries, shift);
          const n = entries.length;
          const histogram = prefixHistogram(keys, n, k);
          const starts = prefixStarts(histogram);
          const cursors = starts.slice(0, 1 << k);
          const grouped = new Uint8Array(n * 64);
          // In two passes over disjoint prefix ranges, as parallelRoot does.
          const mid = Math.floor(((1 << k) * cut) / 100);
          scatterEntries(keys, values, n, k, mid, 1 << k, cursors, grouped);
          scatterEntries(keys, values, n, k, 0, mid, cursors, grouped);
          // Reference: a stable sort of the writes by prefix.
          const expected = entries
            .map(([kk, v], i) => ({ kk, v, i, p: prefixOf(kk, k) }))
            .sort((a, b) => a.p - b.p || a.i - b.i);
          expected.forEach(({ kk, v, p }, j) => {
            expect(grouped.subarray(j * 64, j * 64 + 32)).toEqual(kk);
            expect(grouped.subarray(j * 64 + 32, j * 64 + 64)).toEqual(v);
            expect(j >= starts[p]! && j < starts[p + 1]!).toBe(true);
          });
          expect(starts[1 << k]).toBe(n);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("partition builds over any split of the prefixes and any group size merge to the write-by-write root", () => {
    const hasher = getHasher("sha256");
    fc.assert(
      fc.property(
        writes,
        fc.integer({ min: 1, max: 12 }),
        fc.array(fc.integer({ min: 0, max: 100 }), { maxLength: 3 }),
        fc.integer({ min: 0, max: 3 }),
        // Entries per build group: 1 (a group per partition) up to more than any input holds.
        fc.integer({ min: 1, max: 200 }),
        (entries, k, cuts, shift, group) => {
          const { keys, values } = flat(entries, shift);
          const n = entries.length;
          const width = 1 << k;
          const starts = prefixStarts(prefixHistogram(keys, n, k));
          const bounds = [0, ...cuts.map((c) => Math.floor((width * c) / 100)), width].sort(
            (a, b) => a - b,
          );
          const kinds = new Uint8Array(width);
          const hashes = new Uint8Array(width * 32);
          for (let j = 0; j + 1 < bounds.length; j++) {
            const job = {
              keys,
              values,
              count: n,
              starts,
              k,
              kinds,
              hashes,
              scheme: "sha256-be" as const,
            };
            buildPartitions({ ...job, lo: bounds[j]!, hi: bounds[j + 1]! }, hasher, group);
          }
          const tree = new BinaryTree();
          for (const [kk, v] of entries) {
            tree.put(kk, v);
            tree.get(kk); // one by one: each write flushed on its own
          }
          expect(hex(mergePartitions(kinds, hashes, k, hasher))).toBe(hex(tree.hash()));
        },
      ),
      { numRuns: 200 },
    );
  });
});
