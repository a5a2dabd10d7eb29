// ByteTable (MemoryStore's storage) against a Map model: puts of same-length and other-length
// values, deletes, reinserts into tombstones, growth, and compaction of dead records.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ByteTable } from "../src/store/byte-table.js";

const hex = (b: Uint8Array) => Buffer.from(b).toString("hex");
const keyArb = fc.uint8Array({ minLength: 0, maxLength: 6 }).map((k) => k.map((b) => b & 0x0f));
const valueArb = fc.uint8Array({ minLength: 0, maxLength: 40 });
const opArb = fc.oneof(
  { weight: 3, arbitrary: fc.tuple(fc.constant("put" as const), keyArb, valueArb) },
  {
    weight: 1,
    arbitrary: fc.tuple(fc.constant("del" as const), keyArb, fc.constant(new Uint8Array(0))),
  },
);

function check(table: ByteTable, model: Map<string, Uint8Array>): void {
  expect(table.size).toBe(model.size);
  for (const [k, v] of model) {
    const id = table.find(Buffer.from(k, "hex"));
    expect(id, `key ${k}`).toBeGreaterThanOrEqual(0);
    expect(hex(table.valueOf(id))).toBe(hex(v));
  }
  const ids = Array.from(table.ids()).sort((a, b) => table.compareKeys(a, b));
  expect(ids.map((id) => hex(table.keyOf(id)))).toEqual(
    [...model.keys()].sort((a, b) => Buffer.compare(Buffer.from(a, "hex"), Buffer.from(b, "hex"))),
  );
}

describe("ByteTable", () => {
  it("behaves as a Map of byte keys (random puts and deletes, compaction at 64 dead bytes)", () => {
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 300 }), (ops) => {
        const table = new ByteTable({ compactMinGarbage: 64 });
        const model = new Map<string, Uint8Array>();
        for (const [op, key, value] of ops) {
          if (op === "put") {
            table.set(key, value);
            model.set(hex(key), value.slice());
          } else {
            table.delete(key);
            model.delete(hex(key));
          }
          // A value handed in is copied: changing it afterwards changes nothing stored.
          value.fill(0xee);
        }
        check(table, model);
      }),
      { numRuns: 300 },
    );
  });

  it("keeps its pages bounded under overwrites that change value sizes", () => {
    const table = new ByteTable({ compactMinGarbage: 1 << 16 });
    const key = new Uint8Array(4);
    for (let round = 0; round < 200; round++) {
      for (let i = 0; i < 500; i++) {
        new DataView(key.buffer).setUint32(0, i);
        table.set(key, new Uint8Array(10 + ((round + i) % 50)).fill(round));
      }
    }
    expect(table.size).toBe(500);
    // Live data is under 40 KB; without compaction 200 rounds would have appended ~3.5 MB.
    expect(table.pageBytes).toBeLessThanOrEqual(2 << 20);
    const id = table.find(Uint8Array.of(0, 0, 1, 243));
    expect(Array.from(table.valueOf(id))).toEqual(new Array(10 + ((199 + 499) % 50)).fill(199));
  });
});
