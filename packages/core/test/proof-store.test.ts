import { describe, expect, it } from "vitest";
import { BinaryTree, MemoryStore, openTree, TreeError } from "../src/index.js";
import { prove, verifyProof } from "../src/proof/index.js";
import { proveSync } from "../src/proof/prove.js";
import { hex } from "./helpers/shared.js";
import { adversarialKeys, prng } from "./helpers/tree-fixtures.js";

async function persisted(groupDepth: number) {
  const store = new MemoryStore();
  const rand = prng(31 + groupDepth);
  const keys = adversarialKeys(1234 + groupDepth, 3000, 48);
  const writer = new BinaryTree({ groupDepth, store });
  for (const key of keys) writer.put(key, rand(32));
  const root = await writer.persist();
  const absent = Array.from({ length: 200 }, () => rand(32));
  return { store, keys, writer, root, absent };
}

describe("proofs of stored trees", () => {
  for (const g of [0, 5, 8]) {
    it(`g=${g}: prove() loads the paths it needs and gives the same bytes as the full tree`, async () => {
      const { store, keys, writer, root, absent } = await persisted(g);
      const query = [...keys.filter((_, i) => i % 37 === 0), ...absent];
      const tree = await openTree(store);
      const stats = tree.stats();
      expect(stats.internal + stats.stem).toBeLessThan(300); // only the root group is in memory
      const proof = await prove(tree, query);
      expect(hex(proof)).toBe(hex(proveSync(writer, query)));
      const values = verifyProof(root, query, proof);
      expect(values.map((v) => (v === undefined ? undefined : hex(v)))).toEqual(
        query.map((k) => {
          const v = writer.get(k);
          return v === undefined ? undefined : hex(v);
        }),
      );
    });
  }

  it("proveSync on paths still in the store throws TreeError('MISSING_NODE')", async () => {
    const { store, keys } = await persisted(5);
    const tree = await openTree(store);
    let error: unknown;
    try {
      proveSync(tree, [keys[0]!]);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(TreeError);
    expect((error as TreeError).code).toBe("MISSING_NODE");
    await tree.load([keys[0]!]);
    expect(verifyProof(tree.hash(), [keys[0]!], proveSync(tree, [keys[0]!]))).toHaveLength(1);
  });

  it("a memory-bounded tree proves keys far beyond its budget", async () => {
    const { store, keys, writer, root } = await persisted(5);
    const tree = await openTree(store, { maxNodes: 200 });
    for (let round = 0; round < 5; round++) {
      const query = keys.filter((_, i) => i % 50 === round);
      const proof = await prove(tree, query);
      expect(verifyProof(root, query, proof).map((v) => hex(v!))).toEqual(
        query.map((k) => hex(writer.get(k)!)),
      );
      await tree.getMany(keys.slice(round * 100, round * 100 + 100)); // evicts again
    }
  });

  it("proofs follow updates: an old proof fails against the new root, a new one verifies", async () => {
    const { store, keys, root } = await persisted(5);
    const tree = await openTree(store);
    const query = keys.slice(0, 10);
    const before = await prove(tree, query);
    await tree.putMany([{ key: keys[0]!, value: new Uint8Array(32).fill(9) }]);
    const newRoot = tree.hash();
    expect(() => verifyProof(newRoot, query, before)).toThrowError(/different root/);
    const after = await prove(tree, query);
    expect(verifyProof(newRoot, query, after)[0]).toEqual(new Uint8Array(32).fill(9));
    expect(verifyProof(root, query, before)).toHaveLength(10);
  });
});
