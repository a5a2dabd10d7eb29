import { sha256 } from "@noble/hashes/sha2.js";
import { describe, expect, it } from "vitest";
import {
  BinaryTree,
  decodeWitness,
  encodeWitness,
  MemoryStore,
  type NodeSet,
  openTree,
  openWitness,
} from "../src/index.js";
import { bytes, hex, readTestdata } from "./helpers/shared.js";

/** geth's roots and node sets for the fixed sequences (testdata/client/PROVENANCE.md). */
interface ClientSequences {
  rootA: string;
  rootAB: string;
  rootAD: string;
  dbA: Record<string, string>;
  commitD: { writes: Record<string, string>; deletes: string[] };
}
const geth = readTestdata<ClientSequences>("client/client-sequences.json");

function keyOf(i: number): Uint8Array {
  const be = new Uint8Array(8);
  new DataView(be.buffer).setBigUint64(0, BigInt(i));
  return sha256(be);
}
const range = (from: number, to: number) => Array.from({ length: to - from }, (_, k) => from + k);
const A = range(0, 40).map((i) => ({ key: keyOf(i), value: sha256(keyOf(i)) }));
const B = [
  ...range(100, 120).map((i) => ({ key: keyOf(i), value: sha256(keyOf(i)) })),
  ...range(0, 10).map((i) => ({ key: keyOf(i), value: sha256(Uint8Array.from([...keyOf(i), 1])) })),
];
const D = range(200, 212).map((i) => ({ key: keyOf(i), value: sha256(keyOf(i)) }));

function putAll(tree: BinaryTree, entries: { key: Uint8Array; value: Uint8Array }[]): void {
  for (const { key, value } of entries) tree.put(key, value);
}

function asGethSet(set: NodeSet): { writes: Record<string, string>; deletes: string[] } {
  const writes: Record<string, string> = {};
  for (const w of set.writes) writes[hex(w.path)] = hex(w.blob);
  return { writes, deletes: set.deletes.map(hex).sort() };
}

async function storedNodes(store: MemoryStore): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for await (const [key, value] of store.entries()) {
    if (key[0] === 0x76 && key[1] === 0x41) out[hex(key.subarray(2))] = hex(value);
  }
  return out;
}

describe("checkpoints, copies, iteration and witnesses on fixed sequences, against geth", () => {
  it("nested checkpoints revert to geth's exact roots; persisting after a revert stores geth's node set and reads back", async () => {
    const store = new MemoryStore();
    const tree = new BinaryTree({ store, groupDepth: 5 });
    putAll(tree, A);
    expect(hex(await tree.persist())).toBe(geth.rootA);
    expect(await storedNodes(store)).toEqual(geth.dbA);

    tree.checkpoint();
    putAll(tree, B);
    expect(hex(tree.hash())).toBe(geth.rootAB);
    tree.checkpoint();
    putAll(tree, D);
    tree.delete(A[3]!.key);
    tree.hash();
    tree.revertCheckpoint();
    expect(hex(tree.hash())).toBe(geth.rootAB);
    tree.revertCheckpoint();
    expect(hex(tree.hash())).toBe(geth.rootA);
    expect(tree.get(B[0]!.key)).toBeUndefined();
    expect(hex(tree.get(A[0]!.key)!)).toBe(hex(A[0]!.value));

    putAll(tree, D);
    const set = tree.commit();
    expect(hex(set.root)).toBe(geth.rootAD);
    const want = { writes: geth.commitD.writes, deletes: [...geth.commitD.deletes].sort() };
    expect(asGethSet(set)).toEqual(want);
    await store.batch(tree.nodeSetOperations(set));

    const reopened = await openTree(store);
    expect(hex(reopened.hash())).toBe(geth.rootAD);
    const values = await reopened.getMany([...A, ...D].map((e) => e.key));
    expect(values.map((v) => hex(v!))).toEqual([...A, ...D].map((e) => hex(e.value)));
  });

  it("a copy takes writes without touching the original, and back", () => {
    const original = new BinaryTree({ groupDepth: 5 });
    putAll(original, A);
    expect(hex(original.hash())).toBe(geth.rootA);
    const copy = original.copy();
    putAll(copy, B);
    expect(hex(copy.hash())).toBe(geth.rootAB);
    expect(hex(original.hash())).toBe(geth.rootA);
    putAll(original, D);
    expect(hex(original.hash())).toBe(geth.rootAD);
    expect(hex(copy.hash())).toBe(geth.rootAB);
  });

  it("entries() of the lazily opened A tree are A's keys in order", async () => {
    const store = new MemoryStore();
    const tree = new BinaryTree({ store, groupDepth: 5 });
    putAll(tree, A);
    await tree.persist();
    const lazy = await openTree(store);
    const got: string[] = [];
    for await (const [key, value] of lazy.entries()) {
      got.push(hex(key));
      expect(hex(value)).toBe(hex(sha256(key)));
    }
    expect(got).toEqual(A.map((e) => hex(e.key)).sort());
  });

  it("a witness of reads and writes on A holds geth's stored blobs and replays to geth's post root", async () => {
    const store = new MemoryStore();
    const built = new BinaryTree({ store, groupDepth: 5 });
    putAll(built, A);
    await built.persist();
    const tree = await openTree(store);
    tree.beginWitness();
    const reads = await tree.getMany(A.slice(0, 10).map((e) => e.key));
    await tree.putMany(D);
    const witness = tree.endWitness();
    expect(hex(tree.hash())).toBe(geth.rootAD);
    expect(hex(witness.root)).toBe(geth.rootA);
    for (const node of witness.nodes) expect(hex(node.blob)).toBe(geth.dbA[hex(node.path)]);
    expect(witness.nodes.length).toBeLessThan(Object.keys(geth.dbA).length);

    const replay = openWitness(decodeWitness(encodeWitness(witness)));
    expect(A.slice(0, 10).map((e) => hex(replay.get(e.key)!))).toEqual(reads.map((v) => hex(v!)));
    putAll(replay, D);
    expect(hex(replay.hash())).toBe(geth.rootAD);
    expect(bytes(geth.rootAD)).toEqual(replay.hash());
  });
});
