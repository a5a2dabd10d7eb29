import { sha256 } from "@noble/hashes/sha2.js";
import { describe, expect, it } from "vitest";
import { hashStem } from "../src/hash/index.js";
import { BinaryTree, getHasher, type KeyScheme } from "../src/index.js";
import { prove, verifyProof } from "../src/proof/index.js";
import { proveSync } from "../src/proof/prove.js";
import { bytes, hex, readTestdata } from "./helpers/shared.js";

interface TreeVector {
  name: string;
  ops: { op: string; key: string; value: string }[];
  expected_root: { blake3: string; sha256: string };
}

interface Reference {
  tree_vectors: TreeVector[];
  random_1000: { checkpoints: { inserted: number; expected_root: Record<string, string> }[] };
  clustered_1000: { expected_root: { blake3: string; sha256: string } };
}

const reference = readTestdata<Reference>("reference/eip7864-reference.json");
const SCHEMES = [
  ["sha256", "sha256-be"],
  ["blake3", "blake3-be"],
] as const;

function u64be(i: number): Uint8Array {
  const b = new Uint8Array(8);
  new DataView(b.buffer).setBigUint64(0, BigInt(i));
  return b;
}

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** Keys near the present ones: same stem other subindex, stem with one bit flipped, random. */
function absentNeighbours(tree: BinaryTree, present: readonly Uint8Array[], seed: number) {
  const out: Uint8Array[] = [];
  let n = seed;
  for (const key of present) {
    const sameStem = key.slice();
    sameStem[31] = (sameStem[31]! + 1) & 0xff;
    const flipped = key.slice();
    const bit = n++ % 248;
    flipped[bit >>> 3]! ^= 0x80 >>> (bit & 7);
    out.push(sameStem, flipped, sha256(concat(key, u64be(n))));
  }
  out.push(new Uint8Array(32), new Uint8Array(32).fill(0xff));
  return out.filter((k) => tree.get(k) === undefined);
}

function expectVerified(
  tree: BinaryTree,
  scheme: KeyScheme,
  keys: readonly Uint8Array[],
  proof: Uint8Array,
) {
  const values = verifyProof(tree.hash(), keys, proof, { scheme });
  expect(values.length).toBe(keys.length);
  for (let i = 0; i < keys.length; i++) {
    const expected = tree.get(keys[i]!);
    expect(values[i] === undefined ? undefined : hex(values[i]!)).toBe(
      expected === undefined ? undefined : hex(expected),
    );
  }
  return values;
}

describe("proofs over the eip7864-reference tree vectors", () => {
  for (const [hashName, scheme] of SCHEMES) {
    for (const vector of reference.tree_vectors) {
      it(`${vector.name} (${hashName}): every key, present and absent, alone and together`, () => {
        const tree = new BinaryTree({ scheme });
        for (const op of vector.ops) tree.put(bytes(op.key), bytes(op.value));
        expect(hex(tree.hash())).toBe(vector.expected_root[hashName]);
        const last = new Map(vector.ops.map((op) => [op.key, op.value]));
        const present = [...last.keys()].map(bytes);
        const absent = absentNeighbours(tree, present, vector.ops.length);
        expect(absent.length).toBeGreaterThan(0);
        const all = [...present, ...absent];
        const values = expectVerified(tree, scheme, all, proveSync(tree, all));
        // The values are the vector's last writes, byte for byte.
        for (const [i, key] of present.entries()) expect(hex(values[i]!)).toBe(last.get(hex(key)));
        for (const key of all) expectVerified(tree, scheme, [key], proveSync(tree, [key]));
      });
    }

    it(`random_1000 (${hashName}): one proof for all keys plus 1,000 absent, and one per key`, () => {
      const tree = new BinaryTree({ scheme });
      const keys: Uint8Array[] = [];
      for (let i = 0; i < 1000; i++) {
        const key = sha256(u64be(i));
        keys.push(key);
        tree.put(key, sha256(key));
      }
      const last = reference.random_1000.checkpoints.find((c) => c.inserted === 1000);
      expect(hex(tree.hash())).toBe(last?.expected_root[hashName]);
      const absent = Array.from({ length: 1000 }, (_, i) => sha256(concat(u64be(i), u64be(7))));
      const all = [...keys, ...absent];
      const values = expectVerified(tree, scheme, all, proveSync(tree, all));
      for (let i = 0; i < 1000; i++) expect(hex(values[i]!)).toBe(hex(sha256(keys[i]!)));
      for (const key of keys) expectVerified(tree, scheme, [key], proveSync(tree, [key]));
    });

    it(`clustered_1000 (${hashName}): 100 stems x 10 values, with absent slots of the same stems`, () => {
      const tree = new BinaryTree({ scheme });
      const enc = new TextEncoder();
      const keys: Uint8Array[] = [];
      for (let i = 0; i < 1000; i++) {
        const stem = sha256(concat(enc.encode("stem"), u64be(Math.floor(i / 10)))).subarray(0, 31);
        const key = concat(stem, new Uint8Array([(i % 10) * 25]));
        keys.push(key);
        tree.put(key, sha256(concat(enc.encode("val"), u64be(i))));
      }
      expect(hex(tree.hash())).toBe(reference.clustered_1000.expected_root[hashName]);
      const absent = absentNeighbours(tree, keys, 3);
      const all = [...keys, ...absent];
      expectVerified(tree, scheme, all, proveSync(tree, all));
      for (let i = 0; i < keys.length; i += 7) {
        const group = [keys[i]!, absent[i]!, absent[i + 1]!];
        expectVerified(tree, scheme, group, proveSync(tree, group));
      }
    });
  }
});

describe("proof bytes (version 1), pinned", () => {
  const zeroKey = new Uint8Array(32);
  const ones = new Uint8Array(32).fill(1);
  const twos = new Uint8Array(32).fill(2);
  const digestOf = (...keys: Uint8Array[]) => sha256(concat(...keys)).subarray(0, 8);

  it("a present key in a one-stem tree: stem matched, 8 branch levels, the value", async () => {
    const tree = new BinaryTree();
    tree.put(zeroKey, ones);
    // shape: 10 (stem) 1 (a key's stem) 00000000 (levels 0..7 branch) 1 (present) 11111111
    // (the eight right siblings, zero, bottom-up) = 20 bits -> a0 1f f0.
    const expected = concat(
      new Uint8Array([0x01, 0x01]),
      digestOf(zeroKey),
      new Uint8Array([0x03, 0xa0, 0x1f, 0xf0]),
      ones,
    );
    expect(hex(proveSync(tree, [zeroKey]))).toBe(hex(expected));
    expect(hex(await prove(tree, [zeroKey]))).toBe(hex(expected));
    expect(verifyProof(tree.hash(), [zeroKey], expected)).toEqual([ones]);
  });

  it("an absent key at another stem: the stem, its lowest value and that value's path", () => {
    const tree = new BinaryTree();
    tree.put(zeroKey, ones);
    const other = new Uint8Array(32);
    other[0] = 0x80;
    // shape: 10 (stem) 0 (another stem) 11111111 (right siblings of subindex 0, zero) = 11 bits
    // -> 9f e0; data: the 31-byte stem, lowest subindex 0x00, its value.
    const expected = concat(
      new Uint8Array([0x01, 0x01]),
      digestOf(other),
      new Uint8Array([0x02, 0x9f, 0xe0]),
      new Uint8Array(31),
      new Uint8Array([0x00]),
      ones,
    );
    expect(hex(proveSync(tree, [other]))).toBe(hex(expected));
    expect(verifyProof(tree.hash(), [other], expected)).toEqual([undefined]);
  });

  it("two stems under the root: internal 0, the explored stem, then the sibling stem's hash", () => {
    const tree = new BinaryTree();
    const right = new Uint8Array(32);
    right[0] = 0x80;
    tree.put(zeroKey, ones);
    tree.put(right, twos);
    const hasher = getHasher("sha256");
    const rightStemHash = hashStem(hasher, right.subarray(0, 31), [twos]);
    // shape: 0 (internal) 10 1 00000000 1 11111111 (left: the one-stem proof above) 0 (a right
    // sibling hash) = 22 bits -> 50 0f f8.
    const expected = concat(
      new Uint8Array([0x01, 0x01]),
      digestOf(zeroKey),
      new Uint8Array([0x03, 0x50, 0x0f, 0xf8]),
      ones,
      rightStemHash,
    );
    expect(hex(proveSync(tree, [zeroKey]))).toBe(hex(expected));
    expect(verifyProof(tree.hash(), [zeroKey], expected)).toEqual([ones]);
  });

  it("the empty tree: one empty node (11), every key absent", () => {
    const tree = new BinaryTree();
    const expected = concat(
      new Uint8Array([0x01, 0x01]),
      digestOf(zeroKey),
      new Uint8Array([0x01, 0xc0]),
    );
    expect(hex(proveSync(tree, [zeroKey]))).toBe(hex(expected));
    expect(verifyProof(new Uint8Array(32), [zeroKey], expected)).toEqual([undefined]);
  });

  it("blake3 proofs say so in byte 1", () => {
    const tree = new BinaryTree({ scheme: "blake3-be" });
    tree.put(zeroKey, ones);
    const proof = proveSync(tree, [zeroKey]);
    expect(proof[1]).toBe(0x02);
    expect(verifyProof(tree.hash(), [zeroKey], proof, "blake3-be")).toEqual([ones]);
    expect(verifyProof(tree.hash(), [zeroKey], proof, { hash: "blake3" })).toEqual([ones]);
  });
});
