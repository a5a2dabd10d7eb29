// The commit collector keeps the blobs of large groups and patches only the hashes under
// written paths (GroupBlobCache). Every blob it writes must equal the blob a fresh tree of the
// same contents writes at that path — the full-gather path, which the geth node-set vectors
// pin (commit-nodesets.test.ts). The key space makes top groups full (one first byte per
// position) and causes splits and collapses inside cached groups (shared second bytes).
import { createHash } from "node:crypto";
import { nodeDbKey } from "@bintrie/codec";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { BinaryTree, MemoryStore, type NodeSet, openTree } from "../src/index.js";
import type { DeletionMode } from "../src/tree/binary-tree.js";
import { filledValueArb, keyArbAt } from "./helpers/key-arbitraries.js";
import { writesDigest } from "./helpers/node-set-digest.js";
import { readTestdata } from "./helpers/shared.js";

const keyArb = keyArbAt({
  0: fc.integer({ min: 0, max: 255 }),
  1: fc.constantFrom(0x00, 0x01, 0x80),
  30: fc.constantFrom(0, 1),
  31: fc.constantFrom(0, 7),
});
const valueArb = filledValueArb(1);

// `pick` (when set) chooses a key already written instead: updates and deletes that hit.
type Op =
  | { op: "put"; key: Uint8Array; value: Uint8Array; pick: number | null }
  | { op: "delete"; key: Uint8Array; pick: number | null }
  | { op: "commit" | "checkpoint" | "revert" | "commitCheckpoint" | "copy" | "reopen" };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 10,
    arbitrary: fc.record({
      op: fc.constant("put" as const),
      key: keyArb,
      value: valueArb,
      pick: fc.option(fc.nat()),
    }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      op: fc.constant("delete" as const),
      key: keyArb,
      pick: fc.option(fc.nat(), { freq: 3 }),
    }),
  },
  { weight: 4, arbitrary: fc.constant({ op: "commit" as const }) },
  { weight: 1, arbitrary: fc.constant({ op: "checkpoint" as const }) },
  { weight: 1, arbitrary: fc.constant({ op: "revert" as const }) },
  { weight: 1, arbitrary: fc.constant({ op: "commitCheckpoint" as const }) },
  { weight: 1, arbitrary: fc.constant({ op: "copy" as const }) },
  { weight: 1, arbitrary: fc.constant({ op: "reopen" as const }) },
);

const hex = (b: Uint8Array) => Buffer.from(b).toString("hex");
const ZERO = new Uint8Array(32);

/** What the tree should hold: key → value (zero-mode deletes keep a zero value). */
type Model = Map<string, Uint8Array>;

/**
 * Every node blob of a fresh tree holding `model`, by store key. The tree has a memory bound,
 * which turns the group blob cache off: its blobs come from the plain gather and encode, with
 * no cache code involved (an unbounded tree's first commit already encodes into the cache).
 */
async function freshStore(model: Model, groupDepth: number): Promise<Map<string, string>> {
  const store = new MemoryStore();
  const tree = new BinaryTree({ groupDepth, store, maxNodes: 1_000_000_000 });
  for (const [k, v] of model) tree.put(Uint8Array.from(Buffer.from(k, "hex")), v);
  await tree.persist();
  expect(tree.stats().groupCacheBytes).toBe(0);
  const out = new Map<string, string>();
  for await (const [k, v] of store.entries()) out.set(hex(k), hex(v));
  return out;
}

/** Each write of `set` is exactly the fresh tree's blob at that path. */
function expectWritesMatch(set: NodeSet, fresh: Map<string, string>, where: string): void {
  for (const w of set.writes) {
    const key = hex(nodeDbKey(w.path));
    expect(fresh.get(key), `${where}: blob at path key ${key}`).toBe(hex(w.blob));
  }
}

async function run(
  ops: Op[],
  groupDepth: number,
  deletionMode: DeletionMode,
  seeds: Uint8Array[],
): Promise<void> {
  const store = new MemoryStore();
  let tree = new BinaryTree({ groupDepth, deletionMode, store });
  let model: Model = new Map();
  // Enough keys that the top groups start full (and cached).
  const written = [...seeds];
  const keyOf = (op: { key: Uint8Array; pick: number | null }) =>
    op.pick === null ? op.key : written[op.pick % written.length]!;
  for (const [i, key] of seeds.entries()) {
    tree.put(key, new Uint8Array(32).fill(i + 1));
    model.set(hex(key), new Uint8Array(32).fill(i + 1));
  }
  await tree.persist();
  const saved: Model[] = [];
  // The store holds what the tree says it does while every commit's node set reached it (a
  // commit inside a checkpoint that may be reverted is not written: see below).
  let storeUsable = true;
  const commit = async (where: string) => {
    const set = tree.commit();
    expectWritesMatch(set, await freshStore(model, groupDepth), where);
    if (saved.length === 0) await store.batch(tree.nodeSetOperations(set));
    else storeUsable = false;
  };
  for (const [step, op] of ops.entries()) {
    const where = `step ${step} (${op.op}, g=${groupDepth}, ${deletionMode})`;
    switch (op.op) {
      case "put": {
        const key = keyOf(op);
        await tree.putMany([{ key, value: op.value }]);
        model.set(hex(key), op.value);
        written.push(key);
        break;
      }
      case "delete": {
        const key = keyOf(op);
        await tree.deleteMany([key]);
        if (deletionMode === "zero") model.set(hex(key), ZERO);
        else model.delete(hex(key));
        break;
      }
      case "commit":
        await commit(where);
        break;
      case "checkpoint":
        tree.checkpoint();
        saved.push(new Map(model));
        break;
      case "revert":
        if (saved.length === 0) break;
        tree.revertCheckpoint();
        model = saved.pop()!;
        break;
      case "commitCheckpoint":
        if (saved.length === 0) break;
        tree.commitCheckpoint();
        saved.pop();
        break;
      case "copy":
        // Carry on with the copy; the original goes on living (and committing) beside it.
        // (the copy has no open checkpoints: it starts from the current state).
        await commit(where);
        tree = tree.copy();
        saved.length = 0;
        break;
      case "reopen":
        // A tree loaded lazily from the store: its groups come from stored blobs.
        if (saved.length > 0 || !storeUsable) break;
        await tree.persist();
        tree = await openTree(store, { deletionMode });
        break;
    }
  }
  while (saved.length > 0) {
    tree.commitCheckpoint();
    saved.pop();
  }
  const fresh = await freshStore(model, groupDepth);
  const set = tree.commit();
  expectWritesMatch(set, fresh, "final commit");
  const reference = new BinaryTree({ groupDepth });
  for (const [k, v] of model) reference.put(Uint8Array.from(Buffer.from(k, "hex")), v);
  expect(hex(set.root)).toBe(hex(reference.hash()));
}

describe("group blob cache: blobs patched in place equal a fresh tree's", () => {
  for (const groupDepth of [3, 5, 8]) {
    for (const deletionMode of ["remove", "zero"] as const) {
      it(`g=${groupDepth}, ${deletionMode} mode: random writes, deletes, commits, checkpoints, copies, reopens`, async () => {
        await fc.assert(
          fc.asyncProperty(
            fc.array(opArb, { minLength: 5, maxLength: 40 }),
            fc.uniqueArray(keyArb, { minLength: 20, maxLength: 80, selector: hex }),
            async (ops, seeds) => run(ops, groupDepth, deletionMode, seeds),
          ),
          { numRuns: groupDepth === 5 ? 60 : 30 },
        );
      });
    }
  }
});

describe("group blob cache: a rejected persist", () => {
  it("leaves every cached blob right for the next commit, which rewrites what the rejected one had", async () => {
    // The collection patches a cached blob as it emits the group: a collection whose batch is
    // rejected has patched blobs the tree still holds as stale, so the next one patches them again.
    class Rejecting extends MemoryStore {
      reject = false;
      override async batch(...args: Parameters<MemoryStore["batch"]>): Promise<void> {
        if (this.reject) throw new Error("store down");
        return super.batch(...args);
      }
      override async batchWithSpans(
        ...args: Parameters<MemoryStore["batchWithSpans"]>
      ): Promise<void> {
        if (this.reject) throw new Error("store down");
        return super.batchWithSpans(...args);
      }
    }
    const keyOf = (i: number) => Uint8Array.from(sha(Uint8Array.of(i >>> 8, i & 255)));
    const valueAt = (i: number, round: number) =>
      new Uint8Array(32).fill(((i * 7 + round) % 255) + 1);
    const store = new Rejecting();
    const tree = new BinaryTree({ groupDepth: 5, store });
    const model: Model = new Map();
    const put = (i: number, round: number) => {
      tree.put(keyOf(i), valueAt(i, round));
      model.set(hex(keyOf(i)), valueAt(i, round));
    };
    for (let i = 0; i < 3000; i++) put(i, 0);
    await tree.persist();
    expect(tree.stats().groupCacheBytes).toBeGreaterThan(0);
    for (let i = 0; i < 3300; i += 10) put(i, 1);
    store.reject = true;
    await expect(tree.persist()).rejects.toThrow();
    store.reject = false;
    for (let i = 5; i < 3400; i += 17) put(i, 2);
    const set = tree.commit();
    const fresh = await freshStore(model, 5);
    expectWritesMatch(set, fresh, "commit after a rejected persist");
    // Everything the rejected batch held is written again: the store ends up as a fresh build.
    await store.batch(tree.nodeSetOperations(set));
    const stored = new Map<string, string>();
    for await (const [k, v] of store.entries()) stored.set(hex(k), hex(v));
    expect(stored).toEqual(fresh);
  });
});

// ---- against go-ethereum ---------------------------------------------------------------

const sha = (...parts: Uint8Array[]) => {
  const h = createHash("sha256");
  for (const p of parts) h.update(p);
  return new Uint8Array(h.digest());
};
const be64 = (i: number) => {
  const b = new Uint8Array(8);
  new DataView(b.buffer).setBigUint64(0, BigInt(i));
  return b;
};
const workloadKey = (i: number) => sha(be64(i));

/** The three commits of testdata/geth/geth-multi-commit.json (its `inputs` field). */
function multiCommitInputs(): [Uint8Array, Uint8Array][][] {
  const commits: [Uint8Array, Uint8Array][][] = [[], [], []];
  for (let i = 0; i < 200; i++) commits[0]!.push([workloadKey(i), sha(workloadKey(i))]);
  for (let i = 0; i < 30; i++)
    commits[1]!.push([workloadKey(i), sha(workloadKey(i), Uint8Array.of(2))]);
  for (let i = 200; i < 210; i++) commits[1]!.push([workloadKey(i), sha(workloadKey(i))]);
  for (let i = 10; i < 50; i++)
    commits[2]!.push([workloadKey(i), sha(workloadKey(i), Uint8Array.of(3))]);
  for (let i = 210; i < 215; i++) commits[2]!.push([workloadKey(i), sha(workloadKey(i))]);
  for (let i = 50; i < 55; i++) commits[2]!.push([workloadKey(i), new Uint8Array(32)]);
  return commits;
}

/**
 * The five commits of testdata/geth/geth-random-blocks.json (its `inputs` field): a 3,000-key
 * tree, then four blocks of 200 random updates and 40 new keys.
 */
function randomBlocksInputs(): [Uint8Array, Uint8Array][][] {
  let seed = 7;
  const rand = () => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return seed / 2 ** 32;
  };
  const commits: [Uint8Array, Uint8Array][][] = [[]];
  for (let i = 0; i < 3000; i++) commits[0]!.push([workloadKey(i), sha(workloadKey(i))]);
  let fresh = 3000;
  for (let b = 0; b < 4; b++) {
    const block: [Uint8Array, Uint8Array][] = [];
    for (let u = 0; u < 200; u++) {
      const i = Math.floor(rand() * fresh);
      block.push([workloadKey(i), sha(workloadKey(i), Uint8Array.of(b))]);
    }
    for (let u = 0; u < 40; u++) block.push([workloadKey(fresh), sha(workloadKey(fresh++))]);
    commits.push(block);
  }
  return commits;
}

interface MultiCommitVector {
  groupDepths: Record<string, { root: string; writes: number; writesDigest: string }[]>;
}

/** Commits `inputs` one after the other into a tree of group depth `g`: each commit's digest. */
function commitDigests(g: number, inputs: [Uint8Array, Uint8Array][][]) {
  const tree = new BinaryTree({ groupDepth: g });
  const digests = inputs.map((commit) => {
    for (const [k, v] of commit) tree.put(k, v);
    const set = tree.commit();
    return {
      root: `0x${hex(set.root)}`,
      writes: set.writes.length,
      writesDigest: writesDigest(set),
    };
  });
  return { tree, digests };
}

describe("group blob cache: successive commits of one tree equal go-ethereum's", () => {
  const vector = readTestdata<MultiCommitVector>("geth/geth-multi-commit.json");
  for (const [g, expected] of Object.entries(vector.groupDepths)) {
    it(`g=${g}: three commits, updates, inserts and zero writes (vendored geth digests)`, () => {
      const { tree, digests } = commitDigests(Number(g), multiCommitInputs());
      expect(digests).toEqual(expected);
      // The second and third commits went through the cache (top groups have ≥ 8 entries).
      expect(tree.stats().groupCacheBytes).toBeGreaterThan(0);
    });
  }

  const blocks = readTestdata<MultiCommitVector>("geth/geth-random-blocks.json");
  it("random blocks on a 3,000-key tree, g = 1..8: every commit equals geth's (vendored digests)", () => {
    expect(Object.keys(blocks.groupDepths)).toEqual(["1", "2", "3", "4", "5", "6", "7", "8"]);
    const inputs = randomBlocksInputs();
    for (const [g, expected] of Object.entries(blocks.groupDepths)) {
      const { tree, digests } = commitDigests(Number(g), inputs);
      expect(digests, `g=${g}`).toEqual(expected);
      // Groups are cached from CACHED_GROUP_MIN_ENTRIES (8) entries on: only g ≥ 3 has them.
      if (Number(g) >= 3) expect(tree.stats().groupCacheBytes, `g=${g}`).toBeGreaterThan(0);
      else expect(tree.stats().groupCacheBytes, `g=${g}`).toBe(0);
    }
  });
});
