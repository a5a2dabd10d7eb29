import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { BinaryTree } from "../src/index.js";
import { Arena } from "../src/tree/arena.js";
import { BulkBuilder } from "../src/tree/bulk-builder.js";
import { SlabRecycler } from "../src/tree/slab-recycler.js";
import { TreeError } from "../src/tree/tree-error.js";
import { TreeWalker } from "../src/tree/tree-walker.js";
import { applyWriteLog } from "../src/tree/write-flusher.js";
import { LOG_CHUNK_BITS, WriteLog } from "../src/tree/write-log.js";
import { hex } from "./helpers/shared.js";
import { prng } from "./helpers/tree-fixtures.js";

const CHUNK_ENTRIES = 1 << LOG_CHUNK_BITS;

function logOf(entries: readonly Uint8Array[]): WriteLog {
  const log = new WriteLog();
  for (const e of entries) log.append(e.subarray(0, 32), e.subarray(32, 64));
  return log;
}

function entryAt(log: WriteLog, e: number): Uint8Array {
  const chunk = log.chunks[e >>> LOG_CHUNK_BITS]!;
  const at = (e & (CHUNK_ENTRIES - 1)) << 6;
  return chunk.subarray(at, at + 64);
}

/** Stems of entries in whole-stem order (Array.prototype.sort is stable), computed byte by byte. */
function referenceStems(entries: readonly Uint8Array[]): {
  firsts: number[];
  shared: number[];
} {
  const sorted = [...entries].sort((a, b) => {
    for (let i = 0; i < 31; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
    return 0;
  });
  const firsts = [0];
  const shared: number[] = [];
  for (let e = 1; e < sorted.length; e++) {
    let bits = 0;
    while (bits < 248) {
      const mask = 0x80 >>> (bits & 7);
      if ((sorted[e - 1]![bits >>> 3]! & mask) !== (sorted[e]![bits >>> 3]! & mask)) break;
      bits++;
    }
    if (bits === 248) continue;
    shared.push(bits);
    firsts.push(e);
  }
  firsts.push(sorted.length);
  return { firsts, shared };
}

function recordedStems(log: WriteLog): { firsts: number[]; shared: number[] } {
  return {
    firsts: [...log.stemFirsts.subarray(0, log.stemCount + 1)],
    shared: [...log.stemShared.subarray(0, log.stemCount - 1)],
  };
}

/** Entries over few prefixes (long runs in one bucket), with repeated stems and keys. */
function clusteredEntries(seed: number, count: number, fixedBytes: number, repeats: number) {
  const rand = prng(seed);
  const entries: Uint8Array[] = [];
  for (let i = 0; i < count; i++) {
    const e = rand(64);
    if (i % 2 === 0) e.fill((i % 5) * 41, 0, fixedBytes);
    entries.push(e);
  }
  for (let i = 0; i < repeats; i++) {
    const e = rand(64);
    e.set(entries[(rand(2)[0]! | (rand(1)[0]! << 8)) % count]!.subarray(0, i % 3 === 0 ? 32 : 31));
    entries.push(e);
  }
  return entries;
}

describe("WriteLog", () => {
  it("records the stems of its sorted entries: starts and shared prefix bits (150 runs)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 2 ** 31 }),
        fc.integer({ min: 1, max: 1500 }),
        fc.integer({ min: 0, max: 31 }),
        fc.integer({ min: 0, max: 60 }),
        (seed, count, fixedBytes, repeats) => {
          const entries = clusteredEntries(seed, count, fixedBytes, repeats);
          const log = logOf(entries);
          log.sortByStemInPlace();
          expect(log.stemCount).toBe(referenceStems(entries).firsts.length - 1);
          expect(recordedStems(log)).toEqual(referenceStems(entries));
        },
      ),
      { numRuns: 150 },
    );
  });

  it("sorts and records 40k entries over three chunks, one stem's run across a chunk boundary", () => {
    const rand = prng(91);
    const entries: Uint8Array[] = [];
    const common = rand(31);
    common[0] = 0x80;
    for (let i = 0; i < 40_000; i++) {
      const e = rand(64);
      // Half the writes go to one stem (subindices and repeated keys): sorted, that run spans
      // positions around the middle of the log, across the boundary of the first two chunks.
      if (i % 2 === 0) e.set(common);
      entries.push(e);
    }
    const log = logOf(entries);
    expect(log.chunks.length).toBe(3);
    log.sortByStemInPlace();
    expect(recordedStems(log)).toEqual(referenceStems(entries));
    const sorted = [...entries]
      .map((e, i) => ({ e, i }))
      .sort((a, b) => {
        for (let k = 0; k < 31; k++) if (a.e[k] !== b.e[k]) return a.e[k]! - b.e[k]!;
        return a.i - b.i;
      });
    for (let e = 0; e < entries.length; e += 997) {
      expect(hex(entryAt(log, e))).toBe(hex(sorted[e]!.e));
    }
    const run = log.stemFirsts.indexOf(
      sorted.findIndex((x) => x.e[0] === 0x80 && x.e[1] === common[1]),
    );
    expect(run).toBeGreaterThanOrEqual(0);
    expect(log.stemFirsts[run]!).toBeLessThan(CHUNK_ENTRIES);
    expect(log.stemFirsts[run + 1]!).toBeGreaterThan(CHUNK_ENTRIES);
  });

  it("grows by chunks without moving entries; `bytes` is every entry in call order", () => {
    const rand = prng(5);
    const entries = Array.from({ length: 2 * CHUNK_ENTRIES + 100 }, () => rand(64));
    const log = logOf(entries);
    expect(log.chunks.length).toBe(3);
    const flat = log.bytes;
    for (let e = 0; e < entries.length; e += 1001) {
      expect(hex(flat.subarray(e << 6, (e << 6) + 64))).toBe(hex(entries[e]!));
    }
    // Appends after flattening land after the others, in the chunks backed by the flat buffer.
    const more = rand(64);
    log.append(more.subarray(0, 32), more.subarray(32));
    expect(hex(entryAt(log, entries.length))).toBe(hex(more));
    expect(hex(log.bytes.subarray(entries.length << 6, (entries.length + 1) << 6))).toBe(hex(more));
  });

  it("adopts unaligned entries by copying them, and counts their histogram before sorting", () => {
    const rand = prng(8);
    const entries = Array.from({ length: 600 }, () => rand(64));
    const backing = new Uint8Array(1 + 600 * 64);
    for (let i = 0; i < entries.length; i++) backing.set(entries[i]!, 1 + i * 64);
    const log = new WriteLog();
    log.adopt(backing.subarray(1));
    expect(log.count).toBe(600);
    log.sortByStemInPlace();
    expect(recordedStems(log)).toEqual(referenceStems(entries));
    // The caller's buffer is untouched (the log sorted its own copy).
    expect(hex(backing.subarray(1, 65))).toBe(hex(entries[0]!));
  });

  it("keeps the unapplied entries of a multi-chunk log in call order when applying fails", () => {
    for (const empty of [false, true]) {
      const limit = 20_000;
      const arena = new Arena({ stem: limit - 1 });
      const walker = new TreeWalker(arena);
      if (!empty) walker.applyWrite(new Uint8Array(32), 0, new Uint8Array(32).fill(1), 0);
      const rand = prng(13);
      const keys = Array.from({ length: 2 * CHUNK_ENTRIES + 10 }, () => rand(32));
      const log = new WriteLog();
      for (const key of keys) log.append(key, new Uint8Array(32).fill(key[0]!));
      // Not empty: the one-by-one path, which flattens the chunks into one buffer. Empty: the
      // bulk build sorts the log, finds too little room, and leaves it to that path.
      expect(() => applyWriteLog(log, walker, arena, new BulkBuilder(arena))).toThrow(TreeError);
      expect(arena.stems.live).toBe(limit);
      const applied = new Set(keys.filter((k) => walker.lookup(k) >= 0).map(hex));
      expect(applied.size).toBe(empty ? limit : limit - 1);
      expect(log.count).toBe(keys.length - applied.size);
      const kept = Array.from({ length: log.count }, (_, e) =>
        hex(entryAt(log, e).subarray(0, 32)),
      );
      const unapplied = keys.map(hex).filter((k) => !applied.has(k));
      // The entries left keep their relative order (call order; stem order after the bulk sort).
      expect(kept).toEqual(empty ? [...unapplied].sort() : unapplied);
    }
  });
});

describe("bulk build across log chunks", () => {
  it("40k writes: the same root, stats and node set as a build split into a bulk half and an incremental half", () => {
    const rand = prng(29);
    const writes = Array.from({ length: 40_000 }, (_, i) => {
      const key = rand(32);
      // Some keys share their first bytes (deep subtrees), a few repeat (the later one wins).
      if (i % 7 === 0) key.fill(0x33, 0, 3);
      return [key, rand(32)] as const;
    });
    for (let i = 0; i < 300; i++) writes.push([writes[i * 13]![0], rand(32)]);
    const bulk = new BinaryTree({ groupDepth: 4 });
    for (const [key, value] of writes) bulk.put(key, value);
    const halves = new BinaryTree({ groupDepth: 4 });
    const half = writes.length >> 1;
    for (const [key, value] of writes.slice(0, half)) halves.put(key, value);
    halves.hash();
    // More than one chunk of writes into a non-empty tree: the write flusher's path.
    for (const [key, value] of writes.slice(half)) halves.put(key, value);
    expect(hex(bulk.hash())).toBe(hex(halves.hash()));
    const { arenaBytes: _a, ...statsA } = bulk.stats();
    const { arenaBytes: _b, ...statsB } = halves.stats();
    expect(statsA).toEqual(statsB);
    const a = bulk.commit();
    const b = halves.commit();
    expect(a.writes.map((w) => hex(w.blob))).toEqual(b.writes.map((w) => hex(w.blob)));
    for (const [key] of writes.slice(-50)) expect(bulk.get(key)).toEqual(halves.get(key));
    // The log chunks given to the pools are not reused by the next writes.
    for (const [key] of writes.slice(0, 100)) bulk.put(key, new Uint8Array(32).fill(9));
    for (const [key] of writes.slice(0, 100)) halves.put(key, new Uint8Array(32).fill(9));
    expect(hex(bulk.hash())).toBe(hex(halves.hash()));
    for (const [key] of writes.slice(100, 200)) expect(bulk.get(key)).toEqual(halves.get(key));
  });
});

describe("SlabRecycler", () => {
  it("hands out views of donated buffers, first fit, zeroed unless asked not to", () => {
    const recycler = new SlabRecycler();
    expect(recycler.take(8)).toBeUndefined();
    const a = new Uint8Array(64).fill(7);
    const b = new Uint8Array(32).fill(5);
    recycler.donate([a, new Uint8Array(40).subarray(1), b]);
    const first = recycler.take(48)!;
    expect(first.buffer).toBe(a.buffer);
    expect([...first].every((x) => x === 0)).toBe(true);
    // a has 16 bytes left: a 32-byte request goes to b (the unaligned view was not taken).
    const second = recycler.take(32, false)!;
    expect(second.buffer).toBe(b.buffer);
    expect([...second].every((x) => x === 5)).toBe(true);
    const third = recycler.take(16)!;
    expect(third.buffer).toBe(a.buffer);
    expect(third.byteOffset).toBe(48);
    expect(recycler.take(4)).toBeUndefined();
    recycler.donateOne(new Uint8Array(8));
    recycler.clear();
    expect(recycler.take(4)).toBeUndefined();
  });
});
