import { describe, expect, it } from "vitest";
import { BinaryTree } from "../src/index.js";
import { PACKED_ENTRY_WORDS, PackedNodeSet } from "../src/tree/node-set.js";
import { bytes, hex, readTestdata } from "./helpers/shared.js";

interface NodeSetCase {
  name: string;
  entries: { key: string; value: string }[];
  root: string;
  nodesets: Record<string, { path: string; hash: string; blob: string }[]>;
}

const { cases } = readTestdata<{ cases: NodeSetCase[] }>("geth/geth-nodesets.json");

describe("geth-nodesets: full commit node sets, byte for byte and in emission order", () => {
  let checkedNodes = 0;
  for (const c of cases) {
    for (const [g, expected] of Object.entries(c.nodesets)) {
      it(`${c.name} g=${g} (${expected.length} nodes)`, () => {
        const tree = new BinaryTree({ groupDepth: Number(g) });
        for (const e of c.entries) tree.put(bytes(e.key), bytes(e.value));
        const set = tree.commit();
        expect(hex(set.root)).toBe(c.root);
        const actual = set.writes.map((w) => ({
          path: hex(w.path),
          hash: hex(w.hash),
          blob: hex(w.blob),
        }));
        expect(actual).toEqual(expected);
        expect(set.deletes).toEqual([]);
        checkedNodes += expected.length;
        // Nothing changed: a second commit writes nothing.
        expect(tree.commit().writes).toEqual([]);
      });
    }
  }
  it("covered every node of the vector file", () => {
    const total = cases.reduce(
      (n, c) => n + Object.values(c.nodesets).reduce((m, s) => m + s.length, 0),
      0,
    );
    expect(checkedNodes).toBe(total);
  });
});

describe("packed node sets: word-aligned writes under any key prefix", () => {
  // Key prefixes of 0..5 bytes move every write's hash by another amount off a word: the padding
  // the packer puts before a key must keep each span exact and the bytes geth's.
  // The largest case that stays quick: many stems and groups of every shape.
  const size = (x: NodeSetCase) => Object.values(x.nodesets).reduce((n, w) => n + w.length, 0);
  const c = cases.filter((x) => size(x) <= 1500).sort((a, b) => size(b) - size(a))[0]!;
  for (const [g, expected] of Object.entries(c.nodesets)) {
    for (let prefixLength = 0; prefixLength <= 5; prefixLength++) {
      it(`${c.name} g=${g}, prefix of ${prefixLength} bytes`, () => {
        const keyPrefix = Uint8Array.from({ length: prefixLength }, (_, i) => 0xa0 + i);
        const tree = new BinaryTree({ groupDepth: Number(g), keyPrefix });
        for (const e of c.entries) tree.put(bytes(e.key), bytes(e.value));
        const set = tree.commit();
        expect(set).toBeInstanceOf(PackedNodeSet);
        const packed = set as PackedNodeSet;
        expect(packed.count).toBe(expected.length);
        let previousEnd = -1;
        let previousChunk = -1;
        for (let i = 0; i < packed.count; i++) {
          const e = i * PACKED_ENTRY_WORDS;
          const [chunk, keyStart, hashStart, blobStart, blobEnd] = packed.entries.subarray(
            e,
            e + 5,
          );
          // In order, apart, inside the chunk; the hash on a word, the blob right after it.
          if (chunk === previousChunk) expect(keyStart).toBeGreaterThanOrEqual(previousEnd);
          expect(blobEnd).toBeLessThanOrEqual(packed.chunks[chunk!]!.length);
          expect(hashStart! % 4).toBe(0);
          expect(blobStart).toBe(hashStart! + 32);
          const bytesOf = (from: number, to: number) =>
            hex(packed.chunks[chunk!]!.subarray(from, to));
          expect(bytesOf(keyStart!, hashStart!)).toBe(
            hex(keyPrefix) + expected[i]!.path.replace(/^0x/, ""),
          );
          expect(bytesOf(hashStart!, blobStart!)).toBe(expected[i]!.hash);
          expect(bytesOf(blobStart!, blobEnd!)).toBe(expected[i]!.blob);
          previousChunk = chunk!;
          previousEnd = blobEnd!;
        }
      });
    }
  }
});
