// The smaller defects of issue 15 (one test each) and option validation.
import { encodeGroupBlob, encodeInternalBlob } from "@bintrie/codec";
import { describe, expect, it } from "vitest";
import { FaultyStore } from "../src/conformance/index.js";
import { getHasher } from "../src/hash/get-hasher.js";
import {
  BinaryTree,
  MemoryStore,
  openTree,
  ROOT_RECORD_KEY,
  SerialQueue,
  StoreError,
  TreeError,
} from "../src/index.js";
import { Arena } from "../src/tree/arena.js";
import { NodeLoader } from "../src/tree/node-loader.js";
import { StaleHasher } from "../src/tree/stale-hasher.js";
import { StemPool } from "../src/tree/stem-pool.js";
import { LOOKUP_ABSENT, TreeWalker } from "../src/tree/tree-walker.js";
import { applyWriteLog } from "../src/tree/write-flusher.js";
import { WriteLog } from "../src/tree/write-log.js";
import { expectTypedError } from "./helpers/expect-error.js";
import { hex } from "./helpers/shared.js";
import { prng } from "./helpers/tree-fixtures.js";

function keyWith(prefix: number[], last = 0): Uint8Array {
  const key = new Uint8Array(32);
  key.set(prefix);
  key[31] = last;
  return key;
}

describe("pool exhaustion", () => {
  it("a full pool throws POOL_EXHAUSTED without moving its counter; freed slots are reused", () => {
    const pool = new StemPool(3);
    const stem = new Uint8Array(31);
    for (let i = 0; i < 4; i++) expect(pool.alloc(stem, 0, 0, 0)).toBe(i);
    expectTypedError(
      () => pool.alloc(stem, 0, 0, 0),
      TreeError,
      "POOL_EXHAUSTED",
      "index 4 exceeds 3",
    );
    expect(pool.live).toBe(4);
    expectTypedError(() => pool.alloc(stem, 0, 0, 0), TreeError, "POOL_EXHAUSTED", "index 4");
    pool.release(2);
    expect(pool.alloc(stem, 0, 0, 0)).toBe(2);
  });

  it("a split that cannot allocate all its nodes leaves the tree exactly as it was", () => {
    const arena = new Arena({ internal: 40 });
    const walker = new TreeWalker(arena);
    const value = new Uint8Array(32).fill(1);
    walker.applyWrite(keyWith([0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0x00]), 0, value, 0);
    const root = arena.root;
    const mutations = arena.mutations;
    // Shares 44 bits with the stored stem: the split needs 45 internal nodes, the pool has 41.
    const deep = keyWith([0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0x08]);
    expectTypedError(
      () => walker.applyWrite(deep, 0, value, 0),
      TreeError,
      "POOL_EXHAUSTED",
      "internal pool is full",
    );
    expect(arena.root).toBe(root);
    expect(arena.internals.live).toBe(0);
    expect(arena.stems.live).toBe(1);
    expect(arena.stems.getDepth(0)).toBe(0);
    expect(arena.orphans).toEqual([]);
    expect(arena.mutations).toBe(mutations);
    // A split within the pool's room still works afterwards.
    walker.applyWrite(keyWith([0x2a]), 0, value, 0);
    expect(arena.internals.live).toBe(1);
  });
});

describe("write log", () => {
  it("a throw while applying keeps exactly the unapplied entries, in call order", () => {
    const arena = new Arena({ stem: 5 });
    const walker = new TreeWalker(arena);
    const log = new WriteLog();
    const rand = prng(3);
    const keys = Array.from({ length: 10 }, () => rand(32));
    for (const key of keys) log.append(key, new Uint8Array(32).fill(7));
    expect(() => applyWriteLog(log, walker, arena)).toThrow(TreeError);
    // Six stems fit (indexes 0..5); the other four entries stay.
    expect(arena.stems.live).toBe(6);
    expect(log.count).toBe(4);
    const kept = Array.from({ length: log.count }, (_, e) =>
      hex(log.bytes.subarray(e << 6, (e << 6) + 32)),
    );
    const unapplied = keys.filter((k) => walker.lookup(k) === LOOKUP_ABSENT).map(hex);
    expect(kept).toEqual(unapplied);
  });

  it("retained entries keep their relative order, so the later of two writes of a key wins", () => {
    const arena = new Arena({ stem: 1 });
    const walker = new TreeWalker(arena);
    const log = new WriteLog();
    const blocked = [keyWith([0x10]), keyWith([0x20]), keyWith([0x30])];
    log.append(blocked[2]!, new Uint8Array(32).fill(1));
    log.append(blocked[0]!, new Uint8Array(32).fill(2));
    log.append(blocked[1]!, new Uint8Array(32).fill(3));
    log.append(blocked[2]!, new Uint8Array(32).fill(4));
    expect(() => applyWriteLog(log, walker, arena)).toThrow(TreeError);
    const kept = Array.from({ length: log.count }, (_, e) => log.bytes[(e << 6) + 32]);
    // 0x10 and 0x20 went in (2 stems, pool limit 1 → indexes 0 and 1); 0x30 twice stays, 1 then 4.
    expect(kept).toEqual([1, 4]);
  });
});

describe("MISSING_NODE names the unloaded node's path", () => {
  it("put() through an unloaded group reports the group's path, not the last lookup's", async () => {
    const store = new MemoryStore();
    const writer = new BinaryTree({ store });
    const rand = prng(4);
    for (let i = 0; i < 300; i++) writer.put(rand(32), rand(32));
    await writer.persist();
    const tree = await openTree(store);
    const key = keyWith([0b10110_000]);
    expectTypedError(
      () => tree.put(key, new Uint8Array(32)),
      TreeError,
      "MISSING_NODE",
      "path 10110 (5 bits)",
    );
  });
});

describe("loading refuses impossible depths", () => {
  const hasher = getHasher("sha256");
  const loaderFor = (groupDepth: number) => {
    const arena = new Arena();
    return new NodeLoader(arena, new StaleHasher(arena, hasher), groupDepth);
  };
  const hash = new Uint8Array(32).fill(9);

  it("a flat internal node at depth 248 is CORRUPT_NODE", () => {
    const blob = encodeInternalBlob(hash, hash);
    expectTypedError(
      () => loaderFor(0).load(blob, 248, new Uint8Array(32), hash, 0),
      TreeError,
      "CORRUPT_NODE",
      "depth 248",
    );
  });

  it("a group whose inner nodes would reach depth 248 is CORRUPT_NODE", () => {
    const blob = encodeGroupBlob(5, 1, Uint16Array.of(0), Uint8Array.of(5), hash);
    expectTypedError(
      () => loaderFor(5).load(blob, 245, new Uint8Array(32), hash, 0),
      TreeError,
      "CORRUPT_NODE",
      "depth 249",
    );
  });
});

describe("a store holding another layout is refused", () => {
  for (const [name, options] of [
    ["group depth", { groupDepth: 3 }],
    ["key scheme", { scheme: "blake3-be" }],
  ] as const) {
    it(`persist() onto a tree of another ${name} throws ROOT_RECORD_MISMATCH and writes nothing`, async () => {
      const store = new MemoryStore();
      const first = new BinaryTree({ store });
      first.put(keyWith([1]), new Uint8Array(32).fill(1));
      await first.persist();
      const record = await store.get(ROOT_RECORD_KEY);
      const other = new BinaryTree({ store, ...options });
      other.put(keyWith([2]), new Uint8Array(32).fill(2));
      const error = await other.persist().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(StoreError);
      expect((error as StoreError).code).toBe("ROOT_RECORD_MISMATCH");
      expect((error as StoreError).message).toContain(name);
      expect(hex((await store.get(ROOT_RECORD_KEY))!)).toBe(hex(record!));
      // The same layout may replace the root record (a new tree over the same store).
      const same = new BinaryTree({ store });
      await same.persist();
    });
  }
});

describe("options are validated", () => {
  const cases: [string, () => unknown, string][] = [
    [
      "groupDepth: null",
      () => new BinaryTree({ groupDepth: null as unknown as number }),
      "groupDepth",
    ],
    ["groupDepth: 9", () => new BinaryTree({ groupDepth: 9 }), "groupDepth"],
    ["maxNodes: 1.5", () => new BinaryTree({ maxNodes: 1.5 }), "maxNodes"],
    ["maxNodes: 0", () => new BinaryTree({ maxNodes: 0 }), "maxNodes"],
    ["maxBytes: -1", () => new BinaryTree({ maxBytes: -1 }), "maxBytes"],
    ["an unknown key", () => new BinaryTree({ maxnodes: 5 } as never), "unknown option 'maxnodes'"],
    ["deletionMode", () => new BinaryTree({ deletionMode: "drop" as never }), "deletionMode"],
    ["keyPrefix", () => new BinaryTree({ keyPrefix: "vA" as never }), "keyPrefix"],
    ["store", () => new BinaryTree({ store: {} as never }), "store must be a KVStore"],
    [
      "commit: unknown key",
      () => new BinaryTree().commit({ depth: 3 } as never),
      "unknown option 'depth'",
    ],
    ["evict(1.5)", () => new BinaryTree().evict(1.5), "maxNodes"],
  ];
  for (const [name, make, fragment] of cases) {
    it(`${name} is INVALID_OPTION`, () =>
      expectTypedError(make, TreeError, "INVALID_OPTION", fragment));
  }

  it("openTree refuses unknown and ill-typed options too", async () => {
    const store = new MemoryStore();
    await expect(openTree(store, { maxNodes: 2.5 })).rejects.toMatchObject({
      code: "INVALID_OPTION",
    });
    await expect(openTree(store, { rooot: new Uint8Array(32) } as never)).rejects.toMatchObject({
      code: "INVALID_OPTION",
    });
  });

  it("maxNodes and maxBytes accept positive integers and Infinity", () => {
    const tree = new BinaryTree({ maxNodes: 10, maxBytes: Number.POSITIVE_INFINITY });
    expect(tree.maxNodes).toBe(10);
    expect(tree.maxBytes).toBe(Number.POSITIVE_INFINITY);
  });
});

describe("the serial queue", () => {
  it("runs operations one at a time in call order, past failures", async () => {
    const queue = new SerialQueue();
    const events: string[] = [];
    const op = (name: string, ms: number, fails = false) =>
      queue.run(async () => {
        events.push(`start ${name}`);
        await new Promise((r) => setTimeout(r, ms));
        events.push(`end ${name}`);
        if (fails) throw new Error(name);
        return name;
      });
    expect(queue.idle).toBe(true);
    const results = await Promise.allSettled([op("a", 5), op("b", 1, true), op("c", 0)]);
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    expect(events).toEqual(["start a", "end a", "start b", "end b", "start c", "end c"]);
    expect(queue.idle).toBe(true);
  });

  it("evict() while a call is in flight evicts nothing; the call enforces the bound at its end", async () => {
    const inner = new MemoryStore();
    const writer = new BinaryTree({ store: inner });
    const rand = prng(8);
    const keys = Array.from({ length: 2000 }, () => rand(32));
    for (const key of keys) writer.put(key, key);
    await writer.persist();
    const tree = await openTree(new FaultyStore(inner, { maxLatencyMs: 2 }), { maxNodes: 100 });
    const reading = tree.getMany(keys.slice(0, 500));
    expect(tree.evict(1)).toBe(0);
    const got = await reading;
    expect(got.map((v) => hex(v!))).toEqual(keys.slice(0, 500).map(hex));
    expect(tree.stats().internal + tree.stats().stem).toBeLessThanOrEqual(100);
  });
});
