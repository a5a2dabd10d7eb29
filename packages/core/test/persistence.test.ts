import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { BinaryTree, MemoryStore, openTree, StoreError, TreeError } from "../src/index.js";
import { bytes, hex } from "./helpers/shared.js";
import {
  adversarialKeys,
  CountingStore,
  freshNodes,
  prng,
  storedNodes,
} from "./helpers/tree-fixtures.js";

const GROUP_DEPTHS = [0, 1, 2, 3, 4, 5, 6, 7, 8];

async function roundTrip(
  seed: number,
  g: number,
  n1: number,
  n2: number,
  updates: number,
): Promise<void> {
  const rand = prng(seed ^ 0x5bd1e995);
  const keys = adversarialKeys(seed, n1 + n2);
  const content = new Map<string, Uint8Array>();
  const store = new MemoryStore();
  const first = new BinaryTree({ groupDepth: g, store });
  for (const key of keys.slice(0, n1)) {
    const v = rand(32);
    first.put(key, v);
    content.set(hex(key), v);
  }
  const root1 = await first.persist();
  expect(await storedNodes(store)).toEqual(freshNodes(content, bytes, g));

  // Reopen with no shared memory: only the store connects the two trees.
  const second = await openTree(store);
  expect(hex(second.hash())).toBe(hex(root1));
  const changed: { key: Uint8Array; value: Uint8Array }[] = [];
  for (const key of keys.slice(n1)) changed.push({ key, value: rand(32) });
  for (let u = 0; u < updates && n1 > 0; u++) {
    changed.push({ key: keys[rand(1)[0]! % n1]!, value: rand(32) });
  }
  await second.putMany(changed);
  for (const { key, value } of changed) content.set(hex(key), value);
  const root2 = await second.persist();

  const expectedTree = new BinaryTree({ groupDepth: g });
  for (const [k, v] of content) expectedTree.put(bytes(k), v);
  expect(hex(root2)).toBe(hex(expectedTree.hash()));
  // The store holds exactly the node set of a fresh full commit: no stale path, no missing node.
  expect(await storedNodes(store)).toEqual(freshNodes(content, bytes, g));

  const third = await openTree(store);
  const values = await third.getMany([...content.keys()].map(bytes));
  expect(values.map((v) => hex(v!))).toEqual([...content.values()].map(hex));
}

describe("write → read invariant (store round trips)", () => {
  for (const g of GROUP_DEPTHS) {
    it(`g=${g}: commit, reopen, update, commit == fresh full commit (fixed seeds)`, async () => {
      for (const seed of [1, 2, 3]) await roundTrip(seed, g, 40, 25, 10);
    });
  }

  it("property: any seed, any group depth, any sizes", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 2 ** 31 - 1 }),
        fc.constantFrom(...GROUP_DEPTHS),
        fc.integer({ min: 0, max: 30 }),
        fc.integer({ min: 0, max: 30 }),
        fc.integer({ min: 0, max: 10 }),
        async (seed, g, n1, n2, updates) => roundTrip(seed, g, n1, n2, updates),
      ),
      { numRuns: 60 },
    );
  });

  it("insertion order never changes the root", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 2 ** 31 - 1 }),
        fc.integer({ min: 1, max: 60 }),
        (seed, n) => {
          const keys = adversarialKeys(seed, n, 40);
          const rand = prng(seed);
          const values = keys.map(() => rand(32));
          const a = new BinaryTree();
          for (const [i, k] of keys.entries()) a.put(k, values[i]!);
          const b = new BinaryTree();
          for (let i = keys.length - 1; i >= 0; i--) {
            // Later duplicates win in `a`; replay the same final map into `b` in reverse.
            const k = hex(keys[i]!);
            if (keys.findLastIndex((x) => hex(x) === k) === i) b.put(keys[i]!, values[i]!);
          }
          expect(hex(b.hash())).toBe(hex(a.hash()));
        },
      ),
      { numRuns: 100 },
    );
  });
});

describe("lazy loading", () => {
  it("loads each tree level in one store round, and none when everything is loaded", async () => {
    const store = new MemoryStore();
    const tree = new BinaryTree({ groupDepth: 4, store });
    const keys = adversarialKeys(7, 500);
    for (const k of keys) tree.put(k, k);
    await tree.persist();
    const counting = new CountingStore(store);
    const reopened = await openTree(counting);
    const before = counting.reads;
    const values = await reopened.getMany(keys);
    expect(values.map((v) => hex(v!))).toEqual(keys.map(hex));
    const rounds = counting.reads - before;
    // 500 stems: depth about log2(500)+small, so a handful of rounds of group depth 4.
    expect(rounds).toBeGreaterThan(1);
    expect(rounds).toBeLessThanOrEqual(12);
    const again = counting.reads;
    await reopened.getMany(keys);
    expect(counting.reads).toBe(again);
  });

  it("sync reads of unloaded nodes throw MISSING_NODE naming the path", async () => {
    const store = new MemoryStore();
    const tree = new BinaryTree({ store });
    for (const k of adversarialKeys(3, 50)) tree.put(k, k);
    await tree.persist();
    const reopened = await openTree(store);
    const key = adversarialKeys(3, 1)[0]!;
    expect(() => reopened.get(key)).toThrowError(TreeError);
    try {
      reopened.get(key);
    } catch (e) {
      expect((e as TreeError).code).toBe("MISSING_NODE");
      expect((e as TreeError).message).toMatch(/path [01]+ \(\d+ bits\)/);
    }
  });

  it("a tampered blob is rejected with HASH_MISMATCH naming its path", async () => {
    const store = new MemoryStore();
    const tree = new BinaryTree({ groupDepth: 2, store });
    const keys = adversarialKeys(11, 64);
    for (const k of keys) tree.put(k, k);
    await tree.persist();
    // Flip one value byte of some stem blob.
    let tampered = 0;
    for await (const [key, value] of store.entries()) {
      if (
        key[0] === 0x76 &&
        key[1] === 0x41 &&
        value[0] === 1 &&
        value.length > 64 &&
        tampered === 0
      ) {
        const bad = value.slice();
        bad[bad.length - 1]! ^= 1;
        await store.batch([{ type: "put", key, value: bad }]);
        tampered++;
      }
    }
    expect(tampered).toBe(1);
    const reopened = await openTree(store);
    await expect(reopened.getMany(keys)).rejects.toMatchObject({ code: "HASH_MISMATCH" });
  });

  it("opening with another group depth or scheme than the root record is refused", async () => {
    const store = new MemoryStore();
    const tree = new BinaryTree({ groupDepth: 5, store });
    tree.put(new Uint8Array(32), new Uint8Array(32).fill(1));
    await tree.persist();
    await expect(openTree(store, { groupDepth: 3 })).rejects.toBeInstanceOf(StoreError);
    await expect(openTree(store, { scheme: "blake3-be" })).rejects.toMatchObject({
      code: "ROOT_RECORD_MISMATCH",
    });
    const ok = await openTree(store, { groupDepth: 5 });
    expect(hex(ok.hash())).toBe(hex(tree.hash()));
  });
});

describe("orphaned paths", () => {
  for (const g of [1, 2, 3, 4, 5]) {
    it(`g=${g}: a stored stem that is updated and then split leaves no blob at its old path`, async () => {
      const store = new MemoryStore();
      const tree = new BinaryTree({ groupDepth: g, store });
      const a = new Uint8Array(32);
      const b = new Uint8Array(32);
      b[0] = 0x80; // a and b diverge at bit 0: both stems at depth 1
      tree.put(a, new Uint8Array(32).fill(1));
      tree.put(b, new Uint8Array(32).fill(2));
      await tree.persist();
      // Update a (its blob becomes stale) and then split it: c shares a's first 10 bits.
      tree.put(a, new Uint8Array(32).fill(3));
      const c = new Uint8Array(32);
      c[1] = 0x20;
      tree.put(c, new Uint8Array(32).fill(4));
      await tree.persist();
      const fresh = new BinaryTree({ groupDepth: g });
      fresh.put(a, new Uint8Array(32).fill(3));
      fresh.put(b, new Uint8Array(32).fill(2));
      fresh.put(c, new Uint8Array(32).fill(4));
      const expected = new Map(fresh.commit().writes.map((w) => [hex(w.path), hex(w.blob)]));
      expect(await storedNodes(store)).toEqual(expected);
    });
  }
});

describe("orphan deletes by depth", () => {
  // Stems a and b diverge at bit 0 (both at depth 1); c shares a's first 10 bits and pushes a
  // deeper. a's old path (depth 1) is then an orphan, deleted unless this commit writes that
  // path again: at g=1 the new internal node at depth 1 roots a group (written there), at g=5 it
  // is an inner node of the root group (nothing written at depth 1).
  const a = new Uint8Array(32);
  const b = new Uint8Array(32);
  b[0] = 0x80;
  const c = new Uint8Array(32);
  c[1] = 0x20;
  const depth1Key = Uint8Array.of(0x00, 1);
  for (const [g, deletes] of [
    [1, []],
    [5, [hex(depth1Key)]],
  ] as const) {
    for (const keyPrefix of [new Uint8Array(0), Uint8Array.of(0x6e, 0x01)]) {
      it(`g=${g}, prefix of ${keyPrefix.length} bytes: a stem pushed deeper deletes its old path unless it is rewritten`, async () => {
        const tree = new BinaryTree({ groupDepth: g, store: new MemoryStore(), keyPrefix });
        tree.put(a, new Uint8Array(32).fill(1));
        tree.put(b, new Uint8Array(32).fill(2));
        await tree.persist();
        tree.put(c, new Uint8Array(32).fill(3));
        const set = tree.commit();
        expect(set.deletes.map(hex)).toEqual(deletes);
        expect(set.writes.some((w) => hex(w.path) === hex(depth1Key))).toBe(g === 1);
      });
    }
  }

  it("a root stem pushed deeper: its old path (the root's, an empty key) is rewritten, not deleted", async () => {
    for (const g of [0, 5]) {
      for (const keyPrefix of [new Uint8Array(0), Uint8Array.of(0x6e, 0x01)]) {
        const tree = new BinaryTree({ groupDepth: g, store: new MemoryStore(), keyPrefix });
        tree.put(a, new Uint8Array(32).fill(1));
        await tree.persist();
        tree.put(b, new Uint8Array(32).fill(2));
        const set = tree.commit();
        expect(set.deletes).toEqual([]);
        expect(set.writes.at(-1)!.path.length).toBe(0);
      }
    }
  });
});

describe("node set chunks reused across persists", () => {
  it("blocks of persists leave the store as a fresh build, and a held commit() set never changes", async () => {
    const rand = prng(0x1eaf);
    const keys = adversarialKeys(77, 3000);
    const content = new Map<string, Uint8Array>();
    const store = new MemoryStore();
    const tree = new BinaryTree({ groupDepth: 5, store });
    let held: { path: string; blob: string }[] = [];
    let heldSet: { writes: { path: Uint8Array; blob: Uint8Array }[] } | undefined;
    for (let block = 0; block < 12; block++) {
      // New keys (splits, new stems) and updates of old ones: blobs of every size move.
      for (const key of keys.slice(block * 200, block * 200 + 200)) {
        const v = rand(32);
        tree.put(key, v);
        content.set(hex(key), v);
      }
      for (let u = 0; u < 100 && block > 0; u++) {
        const key = keys[Math.floor((rand(1)[0]! / 256) * block * 200)]!;
        const v = rand(32);
        tree.put(key, v);
        content.set(hex(key), v);
      }
      if (block === 4) {
        // A set the caller holds: later persists must not write into its chunks.
        const set = tree.commit();
        heldSet = set;
        held = set.writes.map((w) => ({ path: hex(w.path), blob: hex(w.blob) }));
        expect(held.length).toBeGreaterThan(0);
        await store.batch(tree.nodeSetOperations(set));
      } else {
        await tree.persist();
      }
      expect(await storedNodes(store)).toEqual(freshNodes(content, bytes, 5));
    }
    expect(heldSet!.writes.map((w) => ({ path: hex(w.path), blob: hex(w.blob) }))).toEqual(held);
  });

  it("commit() makes nodes clean as it collects them: the next commit writes nothing, and the sets rebuild the tree", async () => {
    const rand = prng(0xc0de);
    const keys = adversarialKeys(93, 3000);
    for (const g of [0, 5]) {
      const store = new MemoryStore();
      const content = new Map<string, Uint8Array>();
      const tree = new BinaryTree({ groupDepth: g });
      const commitToStore = async () => {
        const set = tree.commit();
        await store.batch(tree.nodeSetOperations(set));
        return set.writes.length;
      };
      for (const key of keys) {
        const v = rand(32);
        tree.put(key, v);
        content.set(hex(key), v);
      }
      expect(await commitToStore()).toBeGreaterThan(g === 0 ? 6000 : 3000);
      expect(tree.commit().writes).toEqual([]);
      for (const key of [...keys.slice(0, 700), ...adversarialKeys(94, 50)]) {
        const v = rand(32);
        tree.put(key, v);
        content.set(hex(key), v);
      }
      expect(await commitToStore()).toBeGreaterThan(700);
      expect(tree.commit().writes).toEqual([]);
      expect(await storedNodes(store)).toEqual(freshNodes(content, bytes, g));
    }
  });

  it("a persist leaves nothing stale: the next one writes only the root record", async () => {
    // Thousands of nodes: the clean marks and the store's span puts go in many runs of 64.
    class SpanCounting extends MemoryStore {
      writes = 0;
      override async batchWithSpans(
        ...args: Parameters<MemoryStore["batchWithSpans"]>
      ): Promise<void> {
        this.writes = args[1].count + args[0].length;
        return super.batchWithSpans(...args);
      }
    }
    const rand = prng(0x5eed);
    const keys = adversarialKeys(91, 3000);
    for (const g of [0, 5]) {
      const store = new SpanCounting();
      const tree = new BinaryTree({ groupDepth: g, store });
      for (const key of keys) tree.put(key, rand(32));
      await tree.persist();
      expect(store.writes).toBeGreaterThan(g === 0 ? 6000 : 3000);
      await tree.persist();
      expect(store.writes).toBe(1);
      for (const key of keys.slice(0, 700)) tree.put(key, rand(32));
      await tree.persist();
      expect(store.writes).toBeGreaterThan(700);
      await tree.persist();
      expect(store.writes).toBe(1);
    }
  });
});
