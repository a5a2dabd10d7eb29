import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { PackedBatch } from "../src/builder/packed-records.js";
import { HELD_DEPTH, RecordBatcher } from "../src/builder/record-batcher.js";

/** A node record as a build emits it: key = prefix ‖ path bytes ‖ depth, and a blob. */
interface Rec {
  readonly key: number[];
  readonly value: number[];
}

/** The records of a batch, read back through its ends. */
function recordsOf({ bytes, ends, count }: PackedBatch): Rec[] {
  const out: Rec[] = [];
  let start = 0;
  for (let i = 0; i < count; i++) {
    const keyEnd = ends[2 * i]!;
    const end = ends[2 * i + 1]!;
    out.push({ key: [...bytes.subarray(start, keyEnd)], value: [...bytes.subarray(keyEnd, end)] });
    start = end;
  }
  expect(start).toBe(bytes.length);
  return out;
}

const sizeOf = (records: readonly Rec[]) =>
  records.reduce((sum, r) => sum + r.key.length + r.value.length, 0);

/**
 * Records arriving as a build emits them: the depth-8 ranges (first path byte) in increasing
 * order, each run of them mixed with records above depth 8 (held for the last batch).
 */
const input = fc
  .record({
    prefixLength: fc.integer({ min: 0, max: 3 }),
    maxBatchBytes: fc.integer({ min: 16, max: 1500 }),
    runs: fc.array(
      fc.record({
        rangeStep: fc.integer({ min: 0, max: 3 }),
        records: fc.array(
          fc.record({
            depth: fc.integer({ min: 0, max: 40 }),
            pathTail: fc.integer({ min: 0, max: 5 }),
            valueLength: fc.integer({ min: 0, max: 400 }),
            fill: fc.integer({ min: 0, max: 255 }),
          }),
          { minLength: 1, maxLength: 12 },
        ),
      }),
      { maxLength: 25 },
    ),
  })
  .map(({ prefixLength, maxBatchBytes, runs }) => {
    const records: Rec[] = [];
    let range = 0;
    for (const run of runs) {
      range = Math.min(255, range + run.rangeStep);
      for (const r of run.records) {
        const prefix = Array.from({ length: prefixLength }, (_, i) => 0xa0 + i);
        // A record at depth 0 has no path bytes (the root); others start with their range.
        const path = r.depth === 0 ? [] : [range, ...Array<number>(r.pathTail).fill(r.fill)];
        const key = r.depth === 0 ? prefix : [...prefix, ...path, r.depth];
        records.push({ key, value: Array<number>(r.valueLength).fill(r.fill ^ 0x5a) });
      }
    }
    return { prefixLength, maxBatchBytes, records };
  });

describe("RecordBatcher (the store batches of a build)", () => {
  it("keeps every record once, in order; holds those above depth 8; cuts batches within the size and between ranges", () => {
    fc.assert(
      fc.property(input, ({ prefixLength, maxBatchBytes, records }) => {
        const batcher = new RecordBatcher(maxBatchBytes, prefixLength, 64, 4);
        for (const r of records) batcher.add(Uint8Array.from(r.key), Uint8Array.from(r.value));
        const batches = batcher.full.map(recordsOf);
        if (batcher.openCount > 0) batches.push(recordsOf(batcher.takeOpen()));
        const held = recordsOf(batcher.takeHeld());

        const depthOf = (r: Rec) => (r.key.length > prefixLength ? r.key.at(-1)! : 0);
        expect(held).toEqual(records.filter((r) => depthOf(r) < HELD_DEPTH));
        expect(batches.flat()).toEqual(records.filter((r) => depthOf(r) >= HELD_DEPTH));

        const rangeOf = (r: Rec) => r.key[prefixLength]!;
        for (let b = 0; b < batches.length; b++) {
          const batch = batches[b]!;
          expect(batch.length).toBeGreaterThan(0);
          // Within the size, unless one record alone is larger.
          if (batch.length > 1) expect(sizeOf(batch)).toBeLessThanOrEqual(maxBatchBytes);
          if (b === 0) continue;
          const previous = batches[b - 1]!;
          const lowest = Math.min(...batch.map(rangeOf));
          const highest = Math.max(...previous.map(rangeOf));
          // Increasing key ranges; a range shared by two batches is all the earlier one holds
          // (it did not fit in one batch).
          expect(lowest).toBeGreaterThanOrEqual(highest);
          if (lowest === highest) expect(Math.min(...previous.map(rangeOf))).toBe(highest);
        }
      }),
      { numRuns: 300 },
    );
  });

  it("puts the held records, then a root record of any size, into the open batch", () => {
    const batcher = new RecordBatcher(100, 1, 64, 4);
    const shallow = Uint8Array.of(0xee, 7, 3);
    const deep = Uint8Array.of(0xee, 9, 1, 2, 12);
    batcher.add(shallow, Uint8Array.of(1));
    batcher.add(deep, Uint8Array.of(2, 2));
    batcher.releaseHeld();
    batcher.appendToOpen(Uint8Array.of(0xee), new Uint8Array(500));
    expect(batcher.full).toEqual([]);
    expect(recordsOf(batcher.takeOpen())).toEqual([
      { key: [...deep], value: [2, 2] },
      { key: [...shallow], value: [1] },
      { key: [0xee], value: Array<number>(500).fill(0) },
    ]);
    expect(recordsOf(batcher.takeHeld())).toEqual([]);
  });
});
