import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { BinaryTree, type DeletionMode, MemoryStore, openTree, TreeError } from "../src/index.js";
import { bytes, hex, readTestdata } from "./helpers/shared.js";
import { adversarialKeys, freshNodes, prng, storedNodes } from "./helpers/tree-fixtures.js";

interface DeletionVector {
  name: string;
  base_description: string;
  deleted_keys: string[];
  expected_root_overwrite_with_zero: Record<string, string>;
  expected_root_removed: Record<string, string>;
}

const reference = readTestdata<{
  tree_vectors: { name: string; ops: { key: string; value: string }[] }[];
  deletion_vectors: { vectors: DeletionVector[] };
}>("reference/eip7864-reference.json");

async function sha256(data: Uint8Array): Promise<Uint8Array> {
  const { sha256: h } = await import("@noble/hashes/sha2.js");
  return h(data);
}

async function baseOps(description: string): Promise<[Uint8Array, Uint8Array][]> {
  if (description === "random_1000") {
    const ops: [Uint8Array, Uint8Array][] = [];
    for (let i = 0; i < 1000; i++) {
      const idx = new Uint8Array(8);
      new DataView(idx.buffer).setBigUint64(0, BigInt(i));
      const key = await sha256(idx);
      ops.push([key, await sha256(key)]);
    }
    return ops;
  }
  const name = /ops of tree vector (\w+)/.exec(description)![1];
  const vector = reference.tree_vectors.find((t) => t.name === name)!;
  return vector.ops.map((op) => [bytes(op.key), bytes(op.value)]);
}

describe("deletion_vectors: both readings", () => {
  for (const vector of reference.deletion_vectors.vectors) {
    for (const [hashName, scheme] of [
      ["sha256", "sha256-be"],
      ["blake3", "blake3-be"],
    ] as const) {
      for (const mode of ["zero", "remove"] as DeletionMode[]) {
        it(`${vector.name} (${hashName}, ${mode})`, async () => {
          const tree = new BinaryTree({ scheme, deletionMode: mode });
          for (const [k, v] of await baseOps(vector.base_description)) tree.put(k, v);
          for (const k of vector.deleted_keys) tree.delete(bytes(k));
          const expected =
            mode === "zero"
              ? vector.expected_root_overwrite_with_zero
              : vector.expected_root_removed;
          expect(hex(tree.hash())).toBe(expected[hashName]);
          for (const k of vector.deleted_keys) {
            const read = tree.get(bytes(k));
            if (mode === "zero") expect(hex(read!)).toBe(`0x${"00".repeat(32)}`);
            else expect(read).toBeUndefined();
          }
        });
      }
    }
  }
});

describe("'remove' mode never corrupts the tree (ethereumjs's failing scenarios)", () => {
  const k = (first: number, sub = 0) => {
    const key = new Uint8Array(32);
    key[0] = first;
    key[31] = sub;
    return key;
  };
  const v = (b: number) => new Uint8Array(32).fill(b);

  it("emptying a stem, then reading and writing it again", () => {
    const tree = new BinaryTree({ deletionMode: "remove" });
    tree.put(k(0x01), v(0xaa));
    tree.put(k(0x02), v(0xaa));
    tree.delete(k(0x02));
    expect(tree.get(k(0x02))).toBeUndefined();
    const single = new BinaryTree();
    single.put(k(0x01), v(0xaa));
    expect(hex(tree.hash())).toBe(hex(single.hash()));
    tree.put(k(0x02), v(0xbb));
    expect(hex(tree.get(k(0x02))!)).toBe(hex(v(0xbb)));
  });

  it("a stem directly under the root", () => {
    const tree = new BinaryTree({ deletionMode: "remove" });
    tree.put(k(0x00), v(1));
    tree.put(k(0x80), v(2));
    tree.delete(k(0x80));
    expect(tree.get(k(0x80))).toBeUndefined();
    const single = new BinaryTree();
    single.put(k(0x00), v(1));
    expect(hex(tree.hash())).toBe(hex(single.hash()));
  });

  it("deleting the only key gives the empty root; re-inserting after delete works", () => {
    const tree = new BinaryTree({ deletionMode: "remove" });
    tree.put(k(0x01), v(0xaa));
    tree.delete(k(0x01));
    expect(hex(tree.hash())).toBe(`0x${"00".repeat(32)}`);
    tree.put(k(0x01), v(0xab));
    expect(hex(tree.get(k(0x01))!)).toBe(hex(v(0xab)));
    const fresh = new BinaryTree();
    fresh.put(k(0x01), v(0xab));
    expect(hex(tree.hash())).toBe(hex(fresh.hash()));
  });

  it("deleting an absent key or an absent subindex changes nothing", () => {
    const tree = new BinaryTree({ deletionMode: "remove" });
    tree.put(k(0x01, 3), v(1));
    const before = hex(tree.hash());
    tree.delete(k(0x01, 4));
    tree.delete(k(0x77));
    expect(hex(tree.hash())).toBe(before);
  });

  it("rejects an unknown deletion mode", () => {
    expect(() => new BinaryTree({ deletionMode: "drop" as DeletionMode })).toThrowError(TreeError);
  });
});

describe("'remove' mode properties", () => {
  it("random insert/remove sequences give the root of a fresh build of the remaining set", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 2 ** 31 - 1 }),
        fc.integer({ min: 1, max: 80 }),
        fc.array(fc.tuple(fc.boolean(), fc.nat()), { maxLength: 150 }),
        (seed, n, ops) => {
          const keys = adversarialKeys(seed, n, 40);
          const rand = prng(seed);
          // A few keys share stems (same first 31 bytes, other subindex).
          for (let i = 0; i + 1 < keys.length; i += 7) keys[i + 1]!.set(keys[i]!.subarray(0, 31));
          const tree = new BinaryTree({ deletionMode: "remove" });
          const content = new Map<string, Uint8Array>();
          for (const [insert, pick] of ops) {
            const key = keys[pick % keys.length]!;
            if (insert) {
              const value = rand(32);
              tree.put(key, value);
              content.set(hex(key), value);
            } else {
              tree.delete(key);
              content.delete(hex(key));
            }
          }
          const fresh = new BinaryTree();
          for (const [key, value] of content) fresh.put(bytes(key), value);
          expect(hex(tree.hash())).toBe(hex(fresh.hash()));
          expect(tree.stats().stem).toBe(fresh.stats().stem);
          expect(tree.stats().internal).toBe(fresh.stats().internal);
        },
      ),
      { numRuns: 200 },
    );
  });

  it("commit → reopen → remove → commit: the store equals a fresh full commit (no stale paths)", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 2 ** 31 - 1 }),
        fc.constantFrom(0, 1, 2, 3, 4, 5, 8),
        fc.integer({ min: 1, max: 60 }),
        async (seed, g, n) => {
          const keys = adversarialKeys(seed, n, 30);
          const rand = prng(seed);
          const store = new MemoryStore();
          const tree = new BinaryTree({ groupDepth: g, store, deletionMode: "remove" });
          const content = new Map<string, Uint8Array>();
          for (const key of keys) {
            const value = rand(32);
            tree.put(key, value);
            content.set(hex(key), value);
          }
          await tree.persist();
          const reopened = await openTree(store, { deletionMode: "remove" });
          const doomed = keys.filter(() => rand(1)[0]! % 3 !== 0);
          await reopened.deleteMany(doomed);
          for (const key of doomed) content.delete(hex(key));
          await reopened.persist();
          expect(await storedNodes(store)).toEqual(freshNodes(content, bytes, g));
          const again = await openTree(store);
          const remaining = [...content.keys()].map(bytes);
          expect((await again.getMany(remaining)).map((x) => hex(x!))).toEqual(
            [...content.values()].map(hex),
          );
        },
      ),
      { numRuns: 80 },
    );
  });
});
