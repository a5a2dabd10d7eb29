import { createHash } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { BinaryTree, getHasher, type Hasher, type NodeSet } from "../src/index.js";
import { Arena } from "../src/tree/arena.js";
import { BulkBuilder } from "../src/tree/bulk-builder.js";
import { StaleHasher } from "../src/tree/stale-hasher.js";
import { TreeWalker } from "../src/tree/tree-walker.js";
import { applyWriteLog } from "../src/tree/write-flusher.js";
import { WriteLog } from "../src/tree/write-log.js";
import { hex } from "./helpers/shared.js";
import { adversarialKeys, prng } from "./helpers/tree-fixtures.js";

type Write = readonly [Uint8Array, Uint8Array];

/** The one-by-one path: every write is flushed on its own (get() flushes the write log). */
function oneByOne(writes: readonly Write[], options: { deletionMode?: "remove" } = {}): BinaryTree {
  const tree = new BinaryTree({ groupDepth: 3, ...options });
  for (const [key, value] of writes) {
    tree.put(key, value);
    tree.get(key);
  }
  return tree;
}

/** The bulk path: all writes into an empty tree, applied at the next hash. */
function bulk(writes: readonly Write[], options: { deletionMode?: "remove" } = {}): BinaryTree {
  const tree = new BinaryTree({ groupDepth: 3, ...options });
  for (const [key, value] of writes) tree.put(key, value);
  return tree;
}

function describeSet(set: NodeSet): { root: string; writes: string[]; deletes: string[] } {
  return {
    root: hex(set.root),
    writes: set.writes.map((w) => `${hex(w.path)}:${hex(w.hash)}:${hex(w.blob)}`),
    deletes: set.deletes.map(hex),
  };
}

/** Keys from a seed: hashed-looking keys, keys sharing long prefixes, same-stem neighbours. */
const writesArb = fc
  .record({
    seed: fc.integer({ min: 1, max: 2 ** 31 }),
    count: fc.integer({ min: 2, max: 160 }),
    divergeBit: fc.integer({ min: 1, max: 247 }),
    sameStem: fc.integer({ min: 0, max: 40 }),
    repeats: fc.integer({ min: 0, max: 40 }),
  })
  .map(({ seed, count, divergeBit, sameStem, repeats }) => {
    const rand = prng(seed);
    const keys = adversarialKeys(seed, count, divergeBit);
    // Other subindices of existing stems, and later writes of existing keys (the last one wins).
    for (let i = 0; i < sameStem; i++) {
      const key = keys[rand(1)[0]! % keys.length]!.slice();
      key[31] = rand(1)[0]!;
      keys.push(key);
    }
    for (let i = 0; i < repeats; i++) keys.push(keys[rand(1)[0]! % keys.length]!);
    // Shuffled, so equal stems are not adjacent in call order.
    for (let i = keys.length - 1; i > 0; i--) {
      const j = (rand(2)[0]! | (rand(1)[0]! << 8)) % (i + 1);
      [keys[i], keys[j]] = [keys[j]!, keys[i]!];
    }
    return keys.map((key) => [key, rand(32)] as const);
  });

describe("bulk build of an empty tree = the one-by-one writes", () => {
  it("same root, stats and committed node set; later blocks commit the same sets (200 runs)", () => {
    fc.assert(
      fc.property(writesArb, (writes) => {
        const a = bulk(writes);
        const b = oneByOne(writes);
        expect(hex(a.hash())).toBe(hex(b.hash()));
        const { arenaBytes: _a, ...statsA } = a.stats();
        const { arenaBytes: _b, ...statsB } = b.stats();
        expect(statsA).toEqual(statsB);
        expect(describeSet(a.commit())).toEqual(describeSet(b.commit()));
        // The flags after the commit agree too: a block of updates commits the same sets.
        for (const tree of [a, b]) {
          for (let i = 0; i < writes.length; i += 3) tree.put(writes[i]![0], new Uint8Array(32));
        }
        expect(describeSet(a.commit())).toEqual(describeSet(b.commit()));
        for (const [key] of writes.slice(-5)) expect(a.get(key)).toEqual(b.get(key));
      }),
      { numRuns: 200 },
    );
  });

  it("'remove' mode: removals after a bulk build, and a bulk build into slots freed by removals (60 runs)", () => {
    fc.assert(
      fc.property(writesArb, writesArb, (first, second) => {
        const a = bulk(first, { deletionMode: "remove" });
        const b = oneByOne(first, { deletionMode: "remove" });
        for (let i = 0; i < first.length; i += 2) {
          a.delete(first[i]![0]);
          b.delete(first[i]![0]);
        }
        expect(hex(a.hash())).toBe(hex(b.hash()));
        expect(describeSet(a.commit())).toEqual(describeSet(b.commit()));
        // Empty it, then fill it again in one go: the nodes reuse freed slots.
        for (const [key] of first) a.delete(key);
        expect(a.hash()).toEqual(new Uint8Array(32));
        for (const [key, value] of second) a.put(key, value);
        const c = oneByOne(second, { deletionMode: "remove" });
        expect(hex(a.hash())).toBe(hex(c.hash()));
        expect(a.stats().internal).toBe(c.stats().internal);
        expect(a.stats().stem).toBe(c.stats().stem);
      }),
      { numRuns: 60 },
    );
  });

  it("checkpoints and copies see the bulk-built tree like any other (40 runs)", () => {
    fc.assert(
      fc.property(writesArb, (writes) => {
        const reference = oneByOne(writes);
        const root = hex(reference.hash());
        const tree = new BinaryTree({ groupDepth: 3 });
        tree.checkpoint();
        for (const [key, value] of writes) tree.put(key, value);
        expect(hex(tree.hash())).toBe(root);
        tree.revertCheckpoint();
        expect(tree.hash()).toEqual(new Uint8Array(32));
        // Reverted after the build but before any hash: the next hash must not use stale lists.
        tree.checkpoint();
        for (const [key, value] of writes) tree.put(key, value);
        tree.get(writes[0]![0]);
        tree.revertCheckpoint();
        expect(tree.hash()).toEqual(new Uint8Array(32));
        for (const [key, value] of writes) tree.put(key, value);
        tree.get(writes[0]![0]);
        const copy = tree.copy();
        copy.put(writes[0]![0], new Uint8Array(32).fill(9));
        expect(hex(tree.hash())).toBe(root);
        expect(hex(copy.hash())).not.toBe(root);
      }),
      { numRuns: 40 },
    );
  });

  it("a write between the build and the hash is hashed too (the walk takes over)", () => {
    const rand = prng(11);
    const writes = Array.from({ length: 300 }, () => [rand(32), rand(32)] as const);
    const tree = bulk(writes);
    tree.get(writes[0]![0]);
    const extra = rand(32);
    tree.put(extra, rand(32));
    tree.get(extra);
    const reference = oneByOne([...writes, [extra, tree.get(extra)!]]);
    expect(hex(tree.hash())).toBe(hex(reference.hash()));
  });
});

describe("bulk build of a tree larger than its level-by-level top", () => {
  it("20k keys, a quarter random, the rest sharing prefixes: same root and node set as the one-at-a-time path", () => {
    // Over 16k internal nodes: the levels below the top are allocated as the stems open them.
    for (const keys of [adversarialKeys(21, 20_000, 60)]) {
      const rand = prng(keys.length + keys[0]![0]!);
      const writes = keys.map((key) => [key, rand(32)] as const);
      const a = bulk(writes);
      // The reference applies the log into a non-empty tree: the descent-per-write path.
      const b = new BinaryTree({ groupDepth: 3 });
      b.put(writes[0]![0], writes[0]![1]);
      b.get(writes[0]![0]);
      for (const [key, value] of writes.slice(1)) b.put(key, value);
      expect(hex(a.hash())).toBe(hex(b.hash()));
      expect(a.stats().internal).toBe(b.stats().internal);
      expect(a.stats().internal).toBeGreaterThan(1 << 14);
      expect(describeSet(a.commit())).toEqual(describeSet(b.commit()));
    }
  });
});

describe("BulkBuilder", () => {
  it("builds nothing and keeps the log when a pool has no room for every node", () => {
    const rand = prng(5);
    for (const limits of [{ stem: 8 }, { internal: 3 }]) {
      const arena = new Arena(limits);
      const log = new WriteLog();
      for (let i = 0; i < 10; i++) log.append(rand(32), rand(32));
      expect(new BulkBuilder(arena).build(log)).toBe(false);
      expect(log.count).toBe(10);
      expect(arena.counts()).toEqual({ internal: 0, stem: 0, hashed: 0 });
      expect(arena.root).toBe(0);
    }
  });

  /** Entries (key ‖ value) in whole-stem order, equal stems in call order: Array.prototype.sort is stable. */
  function referenceOrder(entries: readonly Uint8Array[]): string[] {
    return entries
      .map((e) => ({ stem: hex(e.subarray(0, 31)), entry: hex(e) }))
      .sort((a, b) => (a.stem < b.stem ? -1 : a.stem > b.stem ? 1 : 0))
      .map((e) => e.entry);
  }

  function sortedInPlace(entries: readonly Uint8Array[]): string[] {
    const log = new WriteLog();
    for (const e of entries) log.append(e.subarray(0, 32), e.subarray(32, 64));
    log.sortByStemInPlace();
    const out: string[] = [];
    for (let i = 0; i < log.count; i++) out.push(hex(log.bytes.subarray(i << 6, (i << 6) + 64)));
    return out;
  }

  // Keys from few first bytes (long runs in one bucket and in one sub-bucket, decided by the
  // stem's tail), repeated stems and keys, and logs from 1 entry to past one bucket level.
  const entriesOf = (minCount: number, maxCount: number) =>
    fc
      .record({
        seed: fc.integer({ min: 1, max: 2 ** 31 }),
        count: fc.integer({ min: minCount, max: maxCount }),
        prefixes: fc.integer({ min: 1, max: 6 }),
        fixedBytes: fc.integer({ min: 0, max: 31 }),
        repeats: fc.integer({ min: 0, max: 30 }),
      })
      .map(({ seed, count, prefixes, fixedBytes, repeats }) => {
        const rand = prng(seed);
        const entries: Uint8Array[] = [];
        for (let i = 0; i < count; i++) {
          const e = rand(64);
          // Some keys share their first fixedBytes bytes with one of a few prefixes.
          if (i % 2 === 0) e.fill((i % prefixes) * 37, 0, fixedBytes);
          entries.push(e);
        }
        for (let i = 0; i < repeats; i++) {
          // A later write of an existing stem (another or the same subindex) with its own value.
          const e = rand(64);
          e.set(entries[rand(2)[0]! % count]!.subarray(0, i % 3 === 0 ? 32 : 31));
          entries.push(e);
        }
        return entries;
      });

  it("sorts a log in place by whole stems, equal stems in call order (300 runs)", () => {
    fc.assert(
      fc.property(entriesOf(1, 1200), (entries) => {
        expect(sortedInPlace(entries)).toEqual(referenceOrder(entries));
      }),
      { numRuns: 300 },
    );
  });

  it("the same past the first bucket levels: 2 to 8 top-bit buckets (30 runs)", () => {
    fc.assert(
      fc.property(entriesOf(1025, 4500), (entries) => {
        expect(sortedInPlace(entries)).toEqual(referenceOrder(entries));
      }),
      { numRuns: 30 },
    );
  });

  it("the same when every key shares its top 0 to 20 bits (a parallelRoot unit's log; 40 runs)", () => {
    // The log's buckets and digits then start below the shared bits.
    fc.assert(
      fc.property(
        entriesOf(1, 4500),
        fc.integer({ min: 0, max: 20 }),
        fc.integer({ min: 0, max: 2 ** 20 - 1 }),
        (entries, bits, prefix) => {
          for (const e of entries) {
            for (let b = 0; b < bits; b++) {
              const mask = 0x80 >>> (b & 7);
              if ((prefix >>> (19 - b)) & 1) e[b >>> 3]! |= mask;
              else e[b >>> 3]! &= ~mask;
            }
          }
          expect(sortedInPlace(entries)).toEqual(referenceOrder(entries));
        },
      ),
      { numRuns: 40 },
    );
  });

  it("sorts 20k entries (32 top-bit buckets), one run far longer than an insertion run", () => {
    const rand = prng(77);
    const entries: Uint8Array[] = [];
    for (let i = 0; i < 20_000; i++) {
      const e = rand(64);
      // A fifth share their first 3 bytes: one bucket and one sub-bucket of 4k entries.
      if (i % 5 === 0) e.fill(9, 0, 3);
      entries.push(e);
    }
    expect(sortedInPlace(entries)).toEqual(referenceOrder(entries));
  });
});

/** A hasher that counts the messages it is asked to hash. */
function counting(inner: Hasher): { hasher: Hasher; messages: () => number } {
  let messages = 0;
  const hasher: Hasher = {
    name: inner.name,
    digest: (m) => inner.digest(m),
    hash32Batch(src, so, n, dst, d) {
      messages += n;
      inner.hash32Batch(src, so, n, dst, d);
    },
    hash64Batch(src, so, n, dst, d) {
      messages += n;
      inner.hash64Batch(src, so, n, dst, d);
    },
    hashOneValueStems(src, so, n, dst, d) {
      messages += 10 * n;
      inner.hashOneValueStems!(src, so, n, dst, d);
    },
  };
  return { hasher, messages: () => messages };
}

/**
 * Builds `writes` into an empty arena as a tree's hash() does (the build hashes window by window
 * as it places, `window` stems at a time); returns the root and the messages a hash afterwards
 * still had to hash (none: the build left nothing stale). `hashNext` false: the build leaves the
 * hashing to the next hash (the layout path), for comparison.
 */
function buildWindowed(
  writes: readonly Write[],
  window: number,
  hashNext = true,
): { root: string; leftOver: number } {
  const arena = new Arena();
  const bulk = new BulkBuilder(arena, window);
  const { hasher, messages } = counting(getHasher("sha256"));
  const stale = new StaleHasher(arena, hasher, bulk);
  bulk.windows = stale;
  bulk.hashNext = hashNext;
  const log = new WriteLog();
  for (const [key, value] of writes) log.append(key, value);
  applyWriteLog(log, new TreeWalker(arena), arena, bulk);
  const before = messages();
  if (!hashNext) stale.hashStale();
  const afterBuild = messages();
  stale.hashStale();
  const out = new Uint8Array(32);
  arena.writeHash(arena.root, out, 0);
  return { root: hex(out), leftOver: hashNext ? messages() - before : messages() - afterBuild };
}

/** The shared workload's first n writes: key_i = sha256(be64(i)), value_i = sha256(key_i). */
function sharedWrites(n: number): Write[] {
  const index = Buffer.alloc(8);
  return Array.from({ length: n }, (_, i) => {
    index.writeBigUInt64BE(BigInt(i));
    const key = new Uint8Array(createHash("sha256").update(index).digest());
    return [key, new Uint8Array(createHash("sha256").update(key).digest())] as const;
  });
}

describe("a bulk build that hashes as it places", () => {
  it("any window size: the one-by-one root, nothing left stale (150 runs)", () => {
    fc.assert(
      fc.property(writesArb, fc.integer({ min: 1, max: 64 }), (writes, window) => {
        const reference = hex(oneByOne(writes).hash());
        const { root, leftOver } = buildWindowed(writes, window);
        expect(root).toBe(reference);
        expect(leftOver).toBe(0);
      }),
      { numRuns: 150 },
    );
  });

  it("writes to one stem only (the root is that stem): the one-by-one root, built by a hash or by a read", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 2 ** 31 }),
        fc.integer({ min: 2, max: 40 }),
        (seed, count) => {
          const rand = prng(seed);
          const stem = rand(31);
          const writes = Array.from({ length: count }, () => {
            const key = new Uint8Array(32);
            key.set(stem);
            key[31] = rand(1)[0]!;
            return [key, rand(32)] as const;
          });
          const reference = hex(oneByOne(writes).hash());
          expect(hex(bulk(writes).hash())).toBe(reference);
          const read = bulk(writes);
          read.get(writes[0]![0]);
          expect(hex(read.hash())).toBe(reference);
        },
      ),
      { numRuns: 50 },
    );
  });

  it("reaches geth's root of the 10k shared workload with runs across pool chunks (window 1000)", () => {
    // `geth-bintrie speed 10000` (go-ethereum 02b73d4ea7181464175e0a6cbecc0a3a2655a562, as in
    // parallel-root.test.ts), pinned.
    const { root, leftOver } = buildWindowed(sharedWrites(10_000), 1000);
    expect(root).toBe("0x18e08444214b1aeecfbb72f3a60da2e373f8efcb2d457287233b6315523d5333");
    expect(leftOver).toBe(0);
  });

  it("entries across write-log chunks (20k writes, some sharing stems): the layout path's and the one-by-one root", () => {
    const writes = sharedWrites(20_000);
    // Every 7th write also sets another subindex of an earlier stem: stems of two values break runs.
    for (let i = 0; i < 20_000; i += 7) {
      const key = writes[i]![0].slice();
      key[31] = key[31]! ^ 0x5a;
      writes.push([key, writes[i]![1]]);
    }
    const fused = buildWindowed(writes, 3000);
    expect(fused.leftOver).toBe(0);
    expect(fused.root).toBe(buildWindowed(writes, 3000, false).root);
    expect(fused.root).toBe(hex(oneByOne(writes).hash()));
  });
});
