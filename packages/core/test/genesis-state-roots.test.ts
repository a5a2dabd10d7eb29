import { describe, expect, it } from "vitest";
import { applyGenesisAlloc, BinaryTree, type GenesisAlloc, KEY_SCHEMES } from "../src/index.js";
import { writesDigest } from "./helpers/node-set-digest.js";
import { hex, readTestdata } from "./helpers/shared.js";

interface StateVector {
  name: string;
  alloc: GenesisAlloc;
  expected_root: Record<string, string>;
  leaf_count: number;
  leaves_sha256_be?: Record<string, string> | { key: string; value: string }[];
}

const { vectors } = readTestdata<{ state_root_vectors: { vectors: StateVector[] } }>(
  "reference/eip7864-reference.json",
).state_root_vectors;

describe("state_root_vectors: genesis alloc → binary-tree root, every key scheme", () => {
  for (const vector of vectors) {
    for (const scheme of KEY_SCHEMES) {
      it(`${vector.name} (${scheme})`, () => {
        const tree = new BinaryTree({ scheme });
        applyGenesisAlloc(tree, vector.alloc);
        expect(hex(tree.hash())).toBe(vector.expected_root[scheme]);
      });
    }
  }

  it("the geth genesis fixture file yields geth's TestBinaryGenesisCommit root", () => {
    const genesis = readTestdata<{ alloc: GenesisAlloc; expectedStateRoot: string }>(
      "geth/TestBinaryGenesisCommit.genesis.json",
    );
    const tree = new BinaryTree({ groupDepth: 5 });
    applyGenesisAlloc(tree, genesis.alloc);
    expect(hex(tree.hash())).toBe(genesis.expectedStateRoot);
    const set = tree.commit();
    // geth also asserts a root node at DB key "vA" + "" (the empty path).
    expect(set.writes.at(-1)!.path.length).toBe(0);
  });

  it("a random alloc's stored nodes at group depths 1..8 are geth's (vendored digests)", () => {
    // Code past 128 chunks with push data across chunk edges, header, main and hashed slots,
    // zero values, nonce 2^64 − 1, balance 2^128 − 1, a precompile's address.
    const genesis = readTestdata<{
      alloc: GenesisAlloc;
      groupDepths: Record<string, { root: string; nodes: number; nodesDigest: string }>;
    }>("geth/geth-random-genesis.json");
    expect(Object.keys(genesis.groupDepths)).toEqual(["1", "2", "3", "4", "5", "6", "7", "8"]);
    for (const [g, expected] of Object.entries(genesis.groupDepths)) {
      const tree = new BinaryTree({ groupDepth: Number(g) });
      applyGenesisAlloc(tree, genesis.alloc);
      const set = tree.commit();
      expect(
        { root: hex(set.root), nodes: set.writes.length, nodesDigest: writesDigest(set) },
        `g=${g}`,
      ).toEqual(expected);
    }
  });

  it("an address or slot spelled twice is read as geth reads it: the last one wins whole", () => {
    const genesis = readTestdata<{ alloc: GenesisAlloc; expectedStateRoot: string }>(
      "geth/duplicate-spellings.genesis.json",
    );
    const tree = new BinaryTree({ groupDepth: 5 });
    const summary = applyGenesisAlloc(tree, genesis.alloc);
    expect(hex(tree.hash())).toBe(genesis.expectedStateRoot);
    // abc (balance 2, slot 3) and dd (balance 3, slot 2 = 8; slot 1's last value is zero).
    expect(summary).toEqual({ accounts: 2, storageSlots: 2, codeBytes: 0 });
  });
});
