import { describe, expect, it } from "vitest";
import { BinaryTree } from "../src/index.js";
import { bytes, hex, readTestdata } from "./helpers/shared.js";

interface TreeVector {
  name: string;
  ops: { op: string; key: string; value: string }[];
  expected_root: { blake3: string; sha256: string };
}

interface Reference {
  tree_vectors: TreeVector[];
  random_1000: {
    checkpoints: { inserted: number; expected_root: { blake3: string; sha256: string } }[];
  };
  clustered_1000: { expected_root: { blake3: string; sha256: string } };
}

const reference = readTestdata<Reference>("reference/eip7864-reference.json");
const HASHES = [
  ["sha256", "sha256-be"],
  ["blake3", "blake3-be"],
] as const;

describe("eip7864-reference tree_vectors", () => {
  for (const [hashName, scheme] of HASHES) {
    for (const vector of reference.tree_vectors) {
      it(`${vector.name} (${hashName})`, () => {
        const tree = new BinaryTree({ scheme });
        for (const op of vector.ops) {
          expect(op.op).toBe("insert");
          tree.put(bytes(op.key), bytes(op.value));
        }
        expect(hex(tree.hash())).toBe(vector.expected_root[hashName]);
        // Every inserted key reads back its last written value.
        const last = new Map(vector.ops.map((op) => [op.key, op.value]));
        for (const [key, value] of last) expect(hex(tree.get(bytes(key))!)).toBe(value);
      });
    }
  }
});

async function sha256(data: Uint8Array): Promise<Uint8Array> {
  const { sha256: h } = await import("@noble/hashes/sha2.js");
  return h(data);
}

function u64be(i: number): Uint8Array {
  const b = new Uint8Array(8);
  new DataView(b.buffer).setBigUint64(0, BigInt(i));
  return b;
}

describe("eip7864-reference random_1000 and clustered_1000", () => {
  for (const [hashName, scheme] of HASHES) {
    it(`random_1000 checkpoints (${hashName})`, async () => {
      const tree = new BinaryTree({ scheme });
      const checkpoints = new Map(
        reference.random_1000.checkpoints.map((c) => [c.inserted, c.expected_root[hashName]]),
      );
      let checked = 0;
      for (let i = 0; i < 1000; i++) {
        const key = await sha256(u64be(i));
        tree.put(key, await sha256(key));
        const expected = checkpoints.get(i + 1);
        if (expected !== undefined) {
          expect(hex(tree.hash())).toBe(expected);
          checked++;
        }
      }
      expect(checked).toBe(checkpoints.size);
    });

    it(`clustered_1000 (${hashName})`, async () => {
      const tree = new BinaryTree({ scheme });
      const enc = new TextEncoder();
      for (let i = 0; i < 1000; i++) {
        const stem = (
          await sha256(new Uint8Array([...enc.encode("stem"), ...u64be(Math.floor(i / 10))]))
        ).subarray(0, 31);
        const key = new Uint8Array(32);
        key.set(stem);
        key[31] = (i % 10) * 25;
        tree.put(key, await sha256(new Uint8Array([...enc.encode("val"), ...u64be(i)])));
      }
      expect(hex(tree.hash())).toBe(reference.clustered_1000.expected_root[hashName]);
    });
  }
});
