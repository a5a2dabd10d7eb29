import { sha256 } from "@noble/hashes/sha2.js";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  BinaryTree,
  decodeWitness,
  encodeWitness,
  MemoryStore,
  openTree,
  openWitness,
  TreeError,
  type Witness,
} from "../src/index.js";
import type { DeletionMode } from "../src/tree/binary-tree.js";
import { expectTypedError } from "./helpers/expect-error.js";
import { filledValueArb, keyArbAt } from "./helpers/key-arbitraries.js";

const hex = (b: Uint8Array | undefined) => (b === undefined ? "-" : Buffer.from(b).toString("hex"));

const keyArb = keyArbAt({
  0: fc.constantFrom(0x00, 0x01, 0x40, 0x80, 0xc0, 0xff),
  1: fc.constantFrom(0, 0x80),
  30: fc.constantFrom(0, 1),
  31: fc.constantFrom(0, 1, 7),
});
const valueArb = filledValueArb(1);

type BlockOp =
  | { op: "get"; key: Uint8Array }
  | { op: "put"; key: Uint8Array; value: Uint8Array }
  | { op: "delete"; key: Uint8Array };

const blockOpArb: fc.Arbitrary<BlockOp> = fc.oneof(
  fc.record({ op: fc.constant("get" as const), key: keyArb }),
  fc.record({ op: fc.constant("put" as const), key: keyArb, value: valueArb }),
  fc.record({ op: fc.constant("delete" as const), key: keyArb }),
);

/** Runs a block of operations; returns what the reads returned. */
function runBlock(tree: BinaryTree, ops: readonly BlockOp[]): string[] {
  const reads: string[] = [];
  for (const o of ops) {
    if (o.op === "get") reads.push(hex(tree.get(o.key)));
    else if (o.op === "put") tree.put(o.key, o.value);
    else tree.delete(o.key);
  }
  return reads;
}

/** path → blob of every node a full commit of a fresh tree with these contents stores. */
function storedBlobs(contents: Map<string, Uint8Array>, groupDepth: number): Map<string, string> {
  const tree = new BinaryTree({ groupDepth });
  for (const [k, v] of contents) tree.put(Uint8Array.from(Buffer.from(k, "hex")), v);
  const out = new Map<string, string>();
  for (const w of tree.commit().writes) out.set(hex(w.path), hex(w.blob));
  return out;
}

function checkReplay(
  witness: Witness,
  ops: readonly BlockOp[],
  reads: string[],
  postRoot: string,
  deletionMode: DeletionMode,
): void {
  const decoded = decodeWitness(encodeWitness(witness));
  expect(encodeWitness(decoded)).toEqual(encodeWitness(witness));
  const replay = openWitness(decoded, { deletionMode });
  expect(hex(replay.hash())).toBe(hex(witness.root));
  expect(runBlock(replay, ops)).toEqual(reads);
  expect(hex(replay.hash())).toBe(postRoot);
}

describe("witnesses: record, encode, open, replay", () => {
  for (const deletionMode of ["zero", "remove"] as const) {
    it(`every replay reaches the recorded post root, and witness blobs are the stored pre-state blobs (${deletionMode})`, () => {
      fc.assert(
        fc.property(
          fc.array(fc.tuple(keyArb, valueArb), { maxLength: 30 }),
          fc.array(blockOpArb, { minLength: 1, maxLength: 25 }),
          fc.constantFrom(0, 1, 2, 5),
          fc.boolean(),
          (pre, ops, groupDepth, dirtyPrestate) => {
            const tree = new BinaryTree({ groupDepth, deletionMode });
            const contents = new Map<string, Uint8Array>();
            for (const [k, v] of pre) {
              tree.put(k, v);
              contents.set(hex(k), v);
            }
            if (!dirtyPrestate) tree.commit();
            tree.beginWitness();
            const reads = runBlock(tree, ops);
            const witness = tree.endWitness();
            const postRoot = hex(tree.hash());
            const stored = storedBlobs(contents, groupDepth);
            for (const node of witness.nodes)
              expect(hex(node.blob)).toBe(stored.get(hex(node.path)));
            checkReplay(witness, ops, reads, postRoot, deletionMode);
          },
        ),
        // Collapses after splits and fills are where the recorder is subtle: more runs there.
        { numRuns: deletionMode === "remove" ? 150 : 60 },
      );
    });
  }

  it("records through the loading methods of a lazily opened tree (getMany/putMany/deleteMany)", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(keyArb, valueArb), { minLength: 1, maxLength: 30 }),
        fc.array(blockOpArb, { minLength: 1, maxLength: 20 }),
        fc.constantFrom(1, 5),
        fc.constantFrom("zero" as const, "remove" as const),
        fc.constantFrom(undefined, 1, 8),
        fc.boolean(),
        async (pre, ops, groupDepth, deletionMode, maxNodes, revertSome) => {
          const store = new MemoryStore();
          const built = new BinaryTree({ store, groupDepth, deletionMode });
          for (const [k, v] of pre) built.put(k, v);
          await built.persist();
          // A tight memory bound evicts and reloads nodes while the witness is recorded.
          const tree = await openTree(store, { deletionMode, maxNodes });
          tree.beginWitness();
          if (revertSome) {
            // Reverted work inside the window must not spoil the witness of what follows.
            tree.checkpoint();
            await tree.putMany(
              pre.slice(0, 3).map(([key]) => ({ key, value: new Uint8Array(32).fill(9) })),
            );
            await tree.deleteMany(pre.slice(3, 5).map(([key]) => key));
            tree.revertCheckpoint();
          }
          const reads: string[] = [];
          for (const o of ops) {
            if (o.op === "get") reads.push(hex((await tree.getMany([o.key]))[0]));
            else if (o.op === "put") await tree.putMany([{ key: o.key, value: o.value }]);
            else await tree.deleteMany([o.key]);
          }
          const witness = tree.endWitness();
          checkReplay(witness, ops, reads, hex(tree.hash()), deletionMode);
        },
      ),
      { numRuns: 40 },
    );
  });

  it("a block of 50 reads and 50 writes on a lazily opened 5,000-key tree replays from a witness under a quarter of the stored nodes", async () => {
    const store = new MemoryStore();
    const built = new BinaryTree({ store });
    const keys: Uint8Array[] = [];
    for (let i = 0; i < 5000; i++) {
      const key = sha256(Uint8Array.of(1, i >> 8, i & 0xff));
      keys.push(key);
      built.put(key, sha256(key));
    }
    await built.persist();
    const storedNodes = built.commit({ groupDepth: 5 }).writes.length; // nothing changed
    expect(storedNodes).toBe(0);
    let nodeCount = 0;
    for await (const [key] of store.entries()) if (key[0] === 0x76 && key[1] === 0x41) nodeCount++;

    const tree = await openTree(store);
    const ops: BlockOp[] = [];
    for (let i = 0; i < 50; i++) ops.push({ op: "get", key: keys[(i * 97) % 5000]! });
    for (let i = 0; i < 50; i++) {
      const key = i % 2 === 0 ? keys[(i * 31 + 7) % 5000]! : sha256(Uint8Array.of(2, i));
      ops.push({ op: "put", key, value: sha256(Uint8Array.of(3, i)) });
    }
    await tree.load(ops.map((o) => o.key));
    tree.beginWitness();
    const reads = runBlock(tree, ops);
    const witness = tree.endWitness();
    const postRoot = hex(tree.hash());
    expect(witness.nodes.length).toBeLessThan(nodeCount / 4);
    const bytes = encodeWitness(witness);
    const replay = openWitness(decodeWitness(bytes));
    expect(runBlock(replay, ops)).toEqual(reads);
    expect(hex(replay.hash())).toBe(postRoot);
  });
});

describe("witness errors", () => {
  function smallWitness(): { tree: BinaryTree; witness: Witness; other: Uint8Array } {
    const tree = new BinaryTree({ groupDepth: 1 });
    const keys = [0x00, 0x40, 0x80, 0xc0].map((b) => new Uint8Array(32).fill(b));
    for (const k of keys) tree.put(k, sha256(k));
    tree.beginWitness();
    tree.get(keys[0]!);
    return { tree, witness: tree.endWitness(), other: keys[3]! };
  }

  it("endWitness without beginWitness, and beginWitness twice", () => {
    const tree = new BinaryTree();
    expectTypedError(() => tree.endWitness(), TreeError, "WITNESS_NOT_STARTED", "beginWitness");
    tree.beginWitness();
    expectTypedError(() => tree.beginWitness(), TreeError, "WITNESS_ACTIVE", "already");
  });

  it("a read outside the witness is a coded error (sync and loading)", async () => {
    const { witness, other } = smallWitness();
    const replay = openWitness(witness);
    expectTypedError(() => replay.get(other), TreeError, "MISSING_NODE", "not loaded");
    await expect(replay.getMany([other])).rejects.toMatchObject({ code: "NOT_IN_WITNESS" });
    await expect(replay.persist()).rejects.toMatchObject({ code: "NOT_IN_WITNESS" });
  });

  it("the witness of no operation is the root alone: it hashes, and every read is outside it", async () => {
    const { tree, other } = smallWitness();
    tree.beginWitness();
    const empty = tree.endWitness();
    expect(empty.nodes).toEqual([]);
    const replay = openWitness(decodeWitness(encodeWitness(empty)));
    expect(hex(replay.hash())).toBe(hex(tree.hash()));
    expectTypedError(() => replay.get(other), TreeError, "MISSING_NODE", "not loaded");
    await expect(replay.getMany([other])).rejects.toMatchObject({ code: "NOT_IN_WITNESS" });
  });

  it("a tampered blob is a hash mismatch; unreachable nodes are refused", () => {
    const { witness } = smallWitness();
    const nodes = witness.nodes.map((n) => ({ path: n.path, blob: n.blob.slice() }));
    const last = nodes[nodes.length - 1]!.blob;
    last[last.length - 1]! ^= 1;
    expectTypedError(
      () => openWitness({ ...witness, nodes }),
      TreeError,
      "HASH_MISMATCH",
      "hashes to",
    );
    const extra = [
      ...witness.nodes,
      { path: Uint8Array.of(0xc0, 0x02), blob: witness.nodes[0]!.blob },
    ];
    expectTypedError(
      () => openWitness({ ...witness, nodes: extra }),
      TreeError,
      "MALFORMED_WITNESS",
      "not reachable",
    );
  });

  it("decodeWitness refuses every malformed or non-canonical encoding", () => {
    const { witness } = smallWitness();
    const bytes = encodeWitness(witness);
    const setByte = (at: number, value: number) => (b: Uint8Array) => {
      b[at] = value;
      return b;
    };
    const bad = (mutate: (b: Uint8Array) => Uint8Array, fragment: string) =>
      expectTypedError(
        () => decodeWitness(mutate(bytes.slice())),
        TreeError,
        "MALFORMED_WITNESS",
        fragment,
      );
    bad((b) => b.subarray(0, 10), "shorter than");
    bad(setByte(0, 0), "magic");
    bad(setByte(4, 2), "version 2");
    bad(setByte(5, 9), "scheme id 9");
    bad(setByte(6, 9), "group depth 9");
    bad((b) => b.subarray(0, b.length - 1), "truncated");
    bad((b) => Uint8Array.from([...b, 0]), "trailing");
    // Swap the count to claim one node more.
    bad(setByte(42, bytes[42]! + 1), "truncated");
    // Duplicate the first node (same path twice: not strictly increasing).
    const first = bytes.subarray(43, 43 + 1 + 0 + 4 + new DataView(bytes.buffer).getUint32(44));
    bad((b) => {
      const out = Uint8Array.from([...b.subarray(0, 43), ...first, ...b.subarray(43)]);
      out[42] = out[42]! + 1;
      return out;
    }, "strictly increasing");
    expect(decodeWitness(bytes)).toEqual(witness);
  });
});
