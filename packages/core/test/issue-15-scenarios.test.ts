// The six defects of issue 15, reproduced through the public API; each must end with exactly
// the intended content. Roots are checked against a fresh in-memory tree of the same entries
// (whose hashing is pinned to go-ethereum vectors in tree-vectors.test.ts).
import { describe, expect, it } from "vitest";
import { FaultyStore } from "../src/conformance/index.js";
import {
  BinaryTree,
  type KVStore,
  MemoryStore,
  openTree,
  StoreError,
  TreeError,
} from "../src/index.js";
import { hex } from "./helpers/shared.js";
import { prng } from "./helpers/tree-fixtures.js";

function entries(seed: number, n: number): { key: Uint8Array; value: Uint8Array }[] {
  const rand = prng(seed);
  return Array.from({ length: n }, () => ({ key: rand(32), value: rand(32) }));
}

function rootOf(model: Map<string, Uint8Array>, keys: Map<string, Uint8Array>, groupDepth = 5) {
  const fresh = new BinaryTree({ groupDepth });
  for (const [k, v] of model) fresh.put(keys.get(k)!, v);
  return hex(fresh.hash());
}

/** Reopens the store and checks root and every value against the model. */
async function expectStoreHolds(
  store: KVStore,
  model: Map<string, Uint8Array>,
  keys: Map<string, Uint8Array>,
): Promise<void> {
  const reopened = await openTree(store);
  expect(hex(reopened.hash())).toBe(rootOf(model, keys));
  const names = [...model.keys()];
  const got = await reopened.getMany(names.map((k) => keys.get(k)!));
  const wrong = names.filter((k, i) => got[i] === undefined || hex(got[i]!) !== hex(model.get(k)!));
  expect(wrong).toEqual([]);
}

class Model {
  readonly values = new Map<string, Uint8Array>();
  readonly keys = new Map<string, Uint8Array>();
  set(key: Uint8Array, value: Uint8Array): void {
    this.values.set(hex(key), value);
    this.keys.set(hex(key), key);
  }
}

describe("issue 15: a tree that never loses data", () => {
  it("1. a rejected batch, then persist() again: the store opens with every value", async () => {
    const inner = new MemoryStore();
    const store = new FaultyStore(inner);
    const tree = new BinaryTree({ store });
    const model = new Model();
    for (const e of entries(1, 2000)) {
      tree.put(e.key, e.value);
      model.set(e.key, e.value);
    }
    store.failNextBatches(1);
    await expect(tree.persist()).rejects.toMatchObject({ code: "STORE_IO" });
    expect(store.rejected).toBe(1);
    await tree.persist();
    await expectStoreHolds(inner, model.values, model.keys);
    // Again on a tree opened from the store, with updates and an extra operation in the batch.
    const reopened = await openTree(store);
    const updates = entries(2, 500);
    for (let i = 0; i < updates.length; i += 10) {
      await reopened.putMany(updates.slice(i, i + 10));
      for (const e of updates.slice(i, i + 10)) model.set(e.key, e.value);
    }
    store.failNextBatches(1);
    const extra = { type: "put" as const, key: Uint8Array.of(1), value: Uint8Array.of(2) };
    await expect(reopened.persist({ operations: [extra] })).rejects.toBeInstanceOf(StoreError);
    expect(await inner.get(extra.key)).toBeUndefined();
    await reopened.persist({ operations: [extra] });
    await expectStoreHolds(inner, model.values, model.keys);
  });

  // The run: 20k keys, maxNodes 2000; here half of both (same ratio), to stay fast.
  it("2. overlapping getMany/putMany/persist with maxNodes 1000 on 10k keys lose nothing", async () => {
    const inner = new MemoryStore();
    const writer = new BinaryTree({ store: inner });
    const model = new Model();
    const all = entries(3, 10_000);
    for (const e of all) {
      writer.put(e.key, e.value);
      model.set(e.key, e.value);
    }
    await writer.persist();
    const store = new FaultyStore(inner, { seed: 9, maxLatencyMs: 2 });
    const tree = await openTree(store, { maxNodes: 1000 });
    const rand = prng(4);
    const calls: Promise<unknown>[] = [];
    for (let round = 0; round < 10; round++) {
      const pick = Array.from(
        { length: 300 },
        () => all[((rand(2)[0]! << 8) | rand(1)[0]!) % all.length]!,
      );
      const expected = pick.map((e) => hex(model.values.get(hex(e.key))!));
      calls.push(
        tree.getMany(pick.map((e) => e.key)).then((got) => {
          expect(got.map((v) => hex(v!))).toEqual(expected);
        }),
      );
      const updates = pick.slice(0, 100).map((e) => ({ key: e.key, value: rand(32) }));
      for (const u of updates) model.set(u.key, u.value);
      calls.push(tree.putMany(updates));
      calls.push(tree.persist());
    }
    await Promise.all(calls);
    const { internal, stem } = tree.stats();
    expect(internal + stem).toBeLessThanOrEqual(1000);
    await expectStoreHolds(inner, model.values, model.keys);
  });

  it("3. a put() made while persist() is in flight is not lost (memory bound evicts after it)", async () => {
    const inner = new MemoryStore();
    const store = new FaultyStore(inner, { seed: 5, maxLatencyMs: 3 });
    const tree = new BinaryTree({ store, maxNodes: 200 });
    const model = new Model();
    const all = entries(6, 2000);
    for (const e of all.slice(0, 1000)) {
      tree.put(e.key, e.value);
      model.set(e.key, e.value);
    }
    const first = tree.persist();
    for (const e of all.slice(1000)) {
      tree.put(e.key, e.value);
      model.set(e.key, e.value);
    }
    tree.hash(); // applies the logged writes to the tree while the batch is in flight
    await first;
    await tree.persist();
    await expectStoreHolds(inner, model.values, model.keys);
  });

  it("4. overlapping persist() calls: batches land in call order, the newest root wins", async () => {
    const inner = new MemoryStore();
    const landed: string[] = [];
    /** Records the root of each root record as its batch reaches the store. */
    const recording: KVStore = {
      get: (k) => inner.get(k),
      getMany: (k) => inner.getMany(k),
      close: () => inner.close(),
      async batch(ops) {
        await inner.batch(ops);
        const record = ops.at(-1)!;
        if (record.type === "put") landed.push(hex(record.value.subarray(7, 39)));
      },
    };
    // Random latency before each batch: without ordering, later batches often land first.
    const store = new FaultyStore(recording, { seed: 3, maxLatencyMs: 8 });
    const tree = new BinaryTree({ store });
    const model = new Model();
    const all = entries(7, 600);
    const persists: Promise<Uint8Array>[] = [];
    for (let round = 0; round < 6; round++) {
      for (const e of all.slice(round * 100, round * 100 + 100)) {
        tree.put(e.key, e.value);
        model.set(e.key, e.value);
      }
      persists.push(tree.persist());
    }
    const roots = (await Promise.all(persists)).map(hex);
    expect(landed).toEqual(roots);
    expect(roots.at(-1)).toBe(rootOf(model.values, model.keys));
    await expectStoreHolds(inner, model.values, model.keys);
  });

  it("5. commit({ groupDepth }) with another depth is refused and changes nothing", async () => {
    const store = new MemoryStore();
    const tree = new BinaryTree({ store, groupDepth: 5 });
    const model = new Model();
    for (const e of entries(8, 500)) {
      tree.put(e.key, e.value);
      model.set(e.key, e.value);
    }
    expect(() => tree.commit({ groupDepth: 3 })).toThrow(TreeError);
    try {
      tree.commit({ groupDepth: 3 });
    } catch (error) {
      expect((error as TreeError).code).toBe("INVALID_OPTION");
      expect((error as TreeError).message).toContain("groupDepth 3");
    }
    await tree.persist();
    await expectStoreHolds(store, model.values, model.keys);
    // The tree's own depth is accepted.
    expect(tree.commit({ groupDepth: 5 }).writes).toEqual([]);
  });

  it("6. the memory bound counts bytes, holds after every call and stays near the budget", async () => {
    const store = new MemoryStore();
    const writer = new BinaryTree({ store });
    const all = entries(9, 20_000);
    for (const e of all) writer.put(e.key, e.value);
    await writer.persist();
    const maxBytes = 400_000;
    const tree = await openTree(store, { maxBytes });
    const rand = prng(10);
    let lowest = Number.POSITIVE_INFINITY;
    for (let i = 0; i < 2000; i++) {
      const e = all[((rand(2)[0]! << 8) | rand(1)[0]!) % all.length]!;
      const [got] = await tree.getMany([e.key]);
      expect(hex(got!)).toBe(hex(e.value));
      const { liveBytes } = tree.stats();
      expect(liveBytes).toBeLessThanOrEqual(maxBytes);
      if (i >= 1000) lowest = Math.min(lowest, liveBytes);
    }
    // Eviction goes down to the budget less 1/32, not far below it.
    expect(lowest).toBeGreaterThan(maxBytes * 0.9);
    // The pools reuse freed slots: the typed arrays stop growing under the bound.
    const held = tree.stats().arenaBytes;
    for (let i = 0; i < 500; i++) await tree.getMany([all[(i * 7919) % all.length]!.key]);
    expect(tree.stats().arenaBytes).toBe(held);
  });
});
