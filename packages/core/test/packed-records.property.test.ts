import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type PackedBatch, PackedRecords } from "../src/builder/packed-records.js";

/** One step on a PackedRecords: append a record, take all, or take the first n. */
type Step =
  | { readonly kind: "append"; readonly key: Uint8Array; readonly value: Uint8Array }
  | { readonly kind: "take" }
  | { readonly kind: "takeFirst"; readonly n: number };

const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant("append" as const),
      key: fc.uint8Array({ minLength: 0, maxLength: 40 }),
      // Up to past 64 bytes: both of append's value copies.
      value: fc.uint8Array({ minLength: 0, maxLength: 200 }),
    }),
  },
  { weight: 1, arbitrary: fc.constant({ kind: "take" as const }) },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant("takeFirst" as const), n: fc.nat({ max: 12 }) }),
  },
);

/** The records of a batch, read back through its ends. */
function recordsOf({ bytes, ends, count }: PackedBatch): [number[], number[]][] {
  const out: [number[], number[]][] = [];
  let start = 0;
  for (let i = 0; i < count; i++) {
    const keyEnd = ends[2 * i]!;
    const end = ends[2 * i + 1]!;
    out.push([[...bytes.subarray(start, keyEnd)], [...bytes.subarray(keyEnd, end)]]);
    start = end;
  }
  expect(start).toBe(bytes.length);
  return out;
}

describe("PackedRecords", () => {
  it("every batch holds exactly the records appended since the last take, in order, with any sizes", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 300 }),
        fc.integer({ min: 0, max: 20 }),
        fc.array(step, { maxLength: 60 }),
        (initialBytes, initialRecords, steps) => {
          const packed = new PackedRecords(initialBytes, initialRecords);
          // The model: plain arrays of the records not taken yet.
          let pending: [number[], number[]][] = [];
          const kept: PackedBatch[] = [];
          const keptExpected: [number[], number[]][][] = [];
          for (const s of steps) {
            if (s.kind === "append") {
              packed.append(s.key, s.value);
              pending.push([[...s.key], [...s.value]]);
            } else {
              const n = s.kind === "take" ? pending.length : s.n;
              const batch = s.kind === "take" ? packed.take() : packed.takeFirst(n);
              const expected = pending.slice(0, n);
              pending = pending.slice(n);
              expect(recordsOf(batch)).toEqual(expected);
              kept.push(batch);
              keptExpected.push(expected);
            }
            expect(packed.count).toBe(pending.length);
            expect(packed.bytes).toBe(
              pending.reduce((sum, [k, v]) => sum + k.length + v.length, 0),
            );
          }
          expect(recordsOf(packed.take())).toEqual(pending);
          // Later appends never write into a batch already taken.
          for (let i = 0; i < kept.length; i++) {
            expect(recordsOf(kept[i]!)).toEqual(keptExpected[i]);
          }
        },
      ),
    );
  });
});
