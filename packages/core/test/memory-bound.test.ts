import { describe, expect, it } from "vitest";
import { BinaryTree, MemoryStore, openTree } from "../src/index.js";
import { hex } from "./helpers/shared.js";
import { adversarialKeys, CountingStore, prng } from "./helpers/tree-fixtures.js";

describe("memory bound (maxNodes)", () => {
  for (const g of [0, 3, 5]) {
    it(`g=${g}: reads and updates a tree much larger than the budget, with exact results`, async () => {
      const store = new MemoryStore();
      const keys = adversarialKeys(99 + g, 4000, 48);
      const rand = prng(5);
      const values = keys.map(() => rand(32));
      const writer = new BinaryTree({ groupDepth: g, store });
      for (const [i, k] of keys.entries()) writer.put(k, values[i]!);
      await writer.persist();
      const full = writer.stats().internal + writer.stats().stem;

      const budget = 300;
      const counting = new CountingStore(store);
      const tree = await openTree(counting, { maxNodes: budget });
      for (let round = 0; round < 8; round++) {
        const batch = Array.from(
          { length: 200 },
          () => (rand(2)[0]! * 256 + rand(1)[0]!) % keys.length,
        );
        const got = await tree.getMany(batch.map((i) => keys[i]!));
        expect(got.map((v) => hex(v!))).toEqual(batch.map((i) => hex(values[i]!)));
        const { internal, stem } = tree.stats();
        // The budget holds after every call (the kept top of the tree is at most the budget).
        expect(internal + stem).toBeLessThanOrEqual(budget);
      }
      expect(full).toBeGreaterThan(10 * budget);

      // Updates through the bounded tree give the same root as an unbounded tree.
      const updates = Array.from({ length: 300 }, (_, j) => ({
        key: keys[(j * 13) % keys.length]!,
        value: rand(32),
      }));
      await tree.putMany(updates);
      const root = await tree.persist();
      expect(tree.stats().internal + tree.stats().stem).toBeLessThanOrEqual(budget);
      for (const u of updates) writer.put(u.key, u.value);
      expect(hex(root)).toBe(hex(writer.hash()));
      const reread = await openTree(store);
      const sample = updates.slice(-50);
      expect((await reread.getMany(sample.map((u) => u.key))).map((v) => hex(v!))).toEqual(
        sample.map((u) => hex(u.value)),
      );
    });
  }

  it("evict() on a tree with unsaved changes keeps every stale node", () => {
    const tree = new BinaryTree({ groupDepth: 2 });
    for (const k of adversarialKeys(1, 500)) tree.put(k, k);
    const before = tree.stats();
    expect(tree.evict(10)).toBe(0);
    expect(tree.stats()).toEqual(before);
  });
});
