// ByteTable (MemoryStore's storage) against a Map model: puts of same-length and other-length
// values, deletes, reinserts into tombstones, growth (shards doubling, splitting, the directory
// doubling), compaction of dead records, and span puts (setSpans, the packed batch path) with
// their prefetch groups.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fnv1a } from "../src/bytes/fnv1a.js";
import { ByteTable } from "../src/store/byte-table.js";

/**
 * Keys of `length` bytes in pairs with equal 32-bit FNV-1a hashes, the first `same` bytes the
 * same in all of them (pseudo-random keys until a hash repeats: about 80k keys per pair), so the
 * table compares the bytes of keys whose hashes matched, and the difference is past `same`.
 */
function collidingKeys(length: number, same: number, pairs: number): Uint8Array[] {
  const seen = new Map<number, Uint8Array>();
  const out: Uint8Array[] = [];
  let x = length;
  while (out.length < 2 * pairs) {
    const key = new Uint8Array(length).fill(0x5a);
    for (let k = same; k < length; k++) {
      x = (Math.imul(x, 1103515245) + 12345) >>> 0;
      key[k] = x >>> 24;
    }
    const h = fnv1a(key, 0, length);
    const other = seen.get(h);
    if (other === undefined) seen.set(h, key);
    else out.push(other, key);
  }
  return out;
}
// Keys whose hashes collide: short ones differing anywhere or past their first bytes, and keys of
// 254 and 300 bytes (one-byte and five-byte length headers in the record) differing at their end.
const colliding = [
  ...collidingKeys(5, 0, 2),
  ...collidingKeys(9, 4, 2),
  ...collidingKeys(14, 8, 2),
  ...collidingKeys(254, 250, 1),
  ...collidingKeys(300, 296, 1),
];
const hex = (b: Uint8Array) => Buffer.from(b).toString("hex");
const keyArb = fc.oneof(
  fc
    .oneof(fc.uint8Array({ maxLength: 6 }), fc.uint8Array({ minLength: 11, maxLength: 14 }))
    .map((k) => k.map((b) => b & (k.length > 6 ? 0x01 : 0x0f))),
  fc.constantFrom(...colliding),
  // Around the longest one-byte length header (254 bytes) and past it, few distinct ones.
  fc
    .tuple(fc.integer({ min: 253, max: 257 }), fc.nat({ max: 3 }))
    .map(([length, last]) => new Uint8Array(length).fill(0x33).fill(last, length - 1)),
);
const valueArb = fc.uint8Array({ minLength: 0, maxLength: 80 });
/** Puts laid out in chunks as a packed node set is: key, some gap, value; several chunks. */
const spansArb = fc.array(fc.tuple(keyArb, valueArb, fc.nat({ max: 33 }), fc.nat({ max: 2 })), {
  maxLength: 60,
});
/** Span batches longer than setSpans' run of 64 puts: a key may come back in a later run. */
const longSpansArb = fc.array(fc.tuple(keyArb, valueArb, fc.nat({ max: 33 }), fc.nat({ max: 2 })), {
  minLength: 65,
  maxLength: 200,
});
const opArb = fc.oneof(
  { weight: 15, arbitrary: fc.tuple(fc.constant("put" as const), keyArb, valueArb) },
  { weight: 5, arbitrary: fc.tuple(fc.constant("del" as const), keyArb) },
  // deleteMany over runs of 64: repeated keys, keys never put, more than one run.
  {
    weight: 3,
    arbitrary: fc.tuple(fc.constant("dels" as const), fc.array(keyArb, { maxLength: 140 })),
  },
  { weight: 5, arbitrary: fc.tuple(fc.constant("spans" as const), spansArb) },
  { weight: 1, arbitrary: fc.tuple(fc.constant("spans" as const), longSpansArb) },
  // Many new keys at once (4-byte keys from a seed, 7 bytes of value): the table must grow.
  {
    weight: 1,
    arbitrary: fc.tuple(fc.constant("fill" as const), fc.nat(), fc.integer({ min: 1, max: 60 })),
  },
);
/** Op lists long enough to grow a table of 16-slot shards well past one shard. */
const growingOpsArb = fc.array(opArb, { minLength: 40, maxLength: 120 });

/** Packs `puts` ([key, value, gap, chunk]) into chunks: SPAN_WORDS words per put. */
function pack(puts: [Uint8Array, Uint8Array, number, number][]) {
  const chunks = [0, 1, 2].map(() => new Uint8Array(64 + puts.length * 420).fill(0xcc));
  const used = [7, 0, 3];
  const spans = new Uint32Array(puts.length * 5);
  for (const [i, [key, value, gap, c]] of puts.entries()) {
    const chunk = chunks[c]!;
    const at = used[c]!;
    chunk.set(key, at);
    chunk.set(value, at + key.length + gap);
    spans.set(
      [c, at, at + key.length, at + key.length + gap, at + key.length + gap + value.length],
      i * 5,
    );
    used[c] = at + key.length + gap + value.length;
  }
  return { chunks, spans };
}

function check(table: ByteTable, model: Map<string, Uint8Array>): void {
  expect(table.size).toBe(model.size);
  for (const [k, v] of model) {
    const id = table.find(Buffer.from(k, "hex"));
    expect(id, `key ${k}`).toBeGreaterThanOrEqual(0);
    expect(hex(table.valueOf(id))).toBe(hex(v));
    expect(hex(table.keyOf(id))).toBe(k);
  }
  const ids = Array.from(table.ids()).sort((a, b) => table.compareKeys(a, b));
  expect(ids.map((id) => hex(table.keyOf(id)))).toEqual(
    [...model.keys()].sort((a, b) => Buffer.compare(Buffer.from(a, "hex"), Buffer.from(b, "hex"))),
  );
}

/** `check` without an assertion per key (cheap enough after every op); throws on a difference. */
function quickCheck(table: ByteTable, model: Map<string, Uint8Array>): void {
  if (table.size !== model.size) throw new Error(`size ${table.size} != ${model.size}`);
  for (const [k, v] of model) {
    const id = table.find(Buffer.from(k, "hex"));
    if (id < 0 || hex(table.valueOf(id)) !== hex(v)) throw new Error(`key ${k}`);
  }
  const keys = Array.from(table.ids(), (id) => hex(table.keyOf(id)));
  if (keys.length !== model.size || keys.some((k) => !model.has(k))) throw new Error("ids");
}

type Op =
  | [op: "put", key: Uint8Array, value: Uint8Array]
  | [op: "del", key: Uint8Array]
  | [op: "dels", keys: Uint8Array[]]
  | [op: "spans", puts: [Uint8Array, Uint8Array, number, number][]]
  | [op: "fill", seed: number, count: number];

/** Applies `ops` to `table` and a Map model; `after` sees both after every op. */
function run(
  table: ByteTable,
  ops: Op[],
  after?: (model: Map<string, Uint8Array>) => void,
): Map<string, Uint8Array> {
  const model = new Map<string, Uint8Array>();
  for (const op of ops) {
    after?.(model);
    if (op[0] === "put") {
      const [, key, value] = op;
      table.set(key, value);
      model.set(hex(key), value.slice());
      // A value handed in is copied: changing it afterwards changes nothing stored.
      value.fill(0xee);
    } else if (op[0] === "del") {
      table.delete(op[1]);
      model.delete(hex(op[1]));
    } else if (op[0] === "dels") {
      // A range of the array: stored keys before `from` and at `to` stay.
      const [first, second] = [...model.keys()].map((k) => Buffer.from(k, "hex"));
      const keys = [first ?? Uint8Array.of(1), ...op[1], second ?? Uint8Array.of(2)];
      table.deleteMany(keys, 1, keys.length - 1);
      for (const key of op[1]) model.delete(hex(key));
    } else if (op[0] === "fill") {
      const [, seed, count] = op;
      for (let i = 0; i < count; i++) {
        const key = new Uint8Array(4);
        new DataView(key.buffer).setUint32(0, Math.imul(seed + i, 0x9e3779b1));
        const value = Uint8Array.of(i, 1, 2, 3, 4, 5, seed & 255);
        table.set(key, value);
        model.set(hex(key), value);
      }
    } else {
      const { chunks, spans } = pack(op[1]);
      table.setSpans(chunks, spans, op[1].length);
      for (const [key, value] of op[1]) model.set(hex(key), value.slice());
      for (const chunk of chunks) chunk.fill(0xee);
    }
  }
  after?.(model);
  return model;
}

describe("ByteTable", () => {
  it("behaves as a Map of byte keys (puts, deletes, span puts; compaction at 64 dead bytes)", () => {
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 300 }), (ops) => {
        const table = new ByteTable({ compactMinGarbage: 64 });
        check(table, run(table, ops as Op[]));
      }),
      { numRuns: 300 },
    );
  });

  it("behaves as a Map while it grows and rebuilds its slots (8 initial slots)", () => {
    // 16^6 keys over 8 slots: growth by doubling, and same-size rebuilds when tombstones pile up.
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 400 }), (ops) => {
        const table = new ByteTable({ compactMinGarbage: 256, slots: 8 });
        check(table, run(table, ops as Op[]));
      }),
      { numRuns: 200 },
    );
  });

  it("behaves as a Map at every step while its shards split (16-slot shards, 8 initial slots)", () => {
    // Shards double from 8 to 16 slots, then split by their next hash bit (the directory
    // doubling as local depths pass it); gets, iteration (ids), deletes, deleteMany, overwrites
    // and span puts checked after every op, so each sees a table mid-growth.
    let split = 0;
    fc.assert(
      fc.property(growingOpsArb, (ops) => {
        const table = new ByteTable({ compactMinGarbage: 256, slots: 8, shardSlots: 16 });
        check(
          table,
          run(table, ops as Op[], (model) => quickCheck(table, model)),
        );
        if (table.shardCount >= 8) split++;
      }),
      { numRuns: 60 },
    );
    // Most runs did split shards (a test of splits that never split would pass vacuously).
    expect(split).toBeGreaterThan(40);
  });

  it("behaves as a Map where shards cannot split further and grow instead (directory of 4)", () => {
    let grown = 0;
    fc.assert(
      fc.property(growingOpsArb, (ops) => {
        const table = new ByteTable({ slots: 8, shardSlots: 16, maxDepth: 2 });
        check(table, run(table, ops as Op[]));
        expect(table.shardCount).toBeLessThanOrEqual(4);
        if (table.slotBytes > 4 * 16 * 16) grown++;
      }),
      { numRuns: 100 },
    );
    expect(grown).toBeGreaterThan(60);
  });

  it("never rebuilds more than one shard's slots in a put, however large the table", () => {
    // 200k keys: the slots grow to ~5 MiB in steps of at most one shard (16 Ki slots, 256 KiB);
    // a single array would double, the last step alone 2 MiB.
    const table = new ByteTable();
    const key = new Uint8Array(8);
    const view = new DataView(key.buffer);
    let before = table.slotBytes;
    let step = 0;
    for (let i = 0; i < 200_000; i++) {
      view.setUint32(0, i);
      view.setUint32(4, i * 2654435761);
      table.set(key, key.subarray(0, i % 9));
      step = Math.max(step, table.slotBytes - before);
      before = table.slotBytes;
    }
    expect(step).toBeLessThanOrEqual((1 << 14) * 16);
    expect(table.shardCount).toBeGreaterThanOrEqual(16);
    expect(table.size).toBe(200_000);
    for (let i = 0; i < 200_000; i += 7) {
      view.setUint32(0, i);
      view.setUint32(4, i * 2654435761);
      const id = table.find(key);
      expect(Array.from(table.valueOf(id))).toEqual(Array.from(key.subarray(0, i % 9)));
    }
    expect(table.ids().length).toBe(200_000);
  });

  it("keeps a key put by setSpans and by set one entry (the last put wins)", () => {
    const table = new ByteTable({ slots: 8 });
    table.set(Uint8Array.of(1, 2), Uint8Array.of(9));
    const { chunks, spans } = pack([
      [Uint8Array.of(1, 2), Uint8Array.of(5, 5), 32, 0],
      [Uint8Array.of(3), new Uint8Array(0), 0, 1],
      [Uint8Array.of(1, 2), Uint8Array.of(6), 1, 2],
    ]);
    table.setSpans(chunks, spans, 3);
    expect(table.size).toBe(2);
    expect(Array.from(table.valueOf(table.find(Uint8Array.of(1, 2))))).toEqual([6]);
    expect(table.valueOf(table.find(Uint8Array.of(3))).length).toBe(0);
    expect(table.find(Uint8Array.of(1))).toBe(-1);
  });

  it("overwrites a same-size value in place, through set and through span runs", () => {
    const table = new ByteTable({ slots: 8 });
    const puts = (round: number): [Uint8Array, Uint8Array, number, number][] =>
      Array.from({ length: 300 }, (_, i) => [
        Uint8Array.of(i >>> 8, i & 255, 7),
        new Uint8Array(20 + (i % 90)).fill(round + i),
        i % 5,
        i % 3,
      ]);
    const first = pack(puts(0));
    table.setSpans(first.chunks, first.spans, 300);
    const pages = table.pageBytes;
    for (let round = 1; round < 40; round++) {
      const { chunks, spans } = pack(puts(round));
      table.setSpans(chunks, spans, 300);
      table.set(Uint8Array.of(0, round, 7), new Uint8Array(20 + (round % 90)).fill(0xab));
    }
    // Same sizes every round: no record was appended again, so no page was added.
    expect(table.pageBytes).toBe(pages);
    expect(table.size).toBe(300);
    for (let i = 0; i < 300; i++) {
      const value = table.valueOf(table.find(Uint8Array.of(i >>> 8, i & 255, 7)));
      // Key 39 was last put by `set` (after round 39's spans); the others by round 39's spans.
      const expected = i === 39 ? 0xab : (39 + i) & 255;
      expect(Array.from(value)).toEqual(new Array(20 + (i % 90)).fill(expected));
    }
  });

  it("grows its slots once for a span batch of new keys, to the size that holds them", () => {
    const table = new ByteTable({ slots: 8 });
    const puts = (round: number): [Uint8Array, Uint8Array, number, number][] =>
      Array.from({ length: 300 }, (_, i) => [
        Uint8Array.of(i >>> 8, i & 255),
        Uint8Array.of(round),
        0,
        0,
      ]);
    const first = pack(puts(0));
    table.setSpans(first.chunks, first.spans, 250);
    // 250 keys at most 5/8 full: 512 slots of 16 bytes (doubling one put at a time would stop
    // at the same size; reserving the batch's room must not overshoot to 1024).
    expect(table.slotBytes).toBe(512 * 16);
    // The same keys again: overwrites, and the slots stay as they are (250 + 250 would not fit).
    const second = pack(puts(1));
    table.setSpans(second.chunks, second.spans, 250);
    expect(table.slotBytes).toBe(512 * 16);
    expect(table.size).toBe(250);
    expect(Array.from(table.valueOf(table.find(Uint8Array.of(0, 200))))).toEqual([1]);
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
