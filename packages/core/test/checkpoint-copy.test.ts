import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { BinaryTree, MemoryStore, type NodeSet, TreeError } from "../src/index.js";
import type { DeletionMode } from "../src/tree/binary-tree.js";
import { expectTypedError } from "./helpers/expect-error.js";
import { filledValueArb, keyArbAt } from "./helpers/key-arbitraries.js";

/** Keys from a small space: shared prefixes (deep splits), stems sharing values, collisions. */
const keyArb = keyArbAt({
  0: fc.constantFrom(0x00, 0x40, 0x41, 0xc0),
  30: fc.constantFrom(0, 1, 2),
  31: fc.constantFrom(0, 1, 255),
});
const valueArb = filledValueArb(0);

type Op =
  | { op: "put"; tree: number; key: Uint8Array; value: Uint8Array }
  | { op: "delete"; tree: number; key: Uint8Array }
  | { op: "checkpoint" | "revert" | "commitCheckpoint" | "copy" | "hash" | "commit"; tree: number }
  | { op: "persist" | "evict"; tree: number };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      op: fc.constant("put" as const),
      tree: fc.nat(3),
      key: keyArb,
      value: valueArb,
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({ op: fc.constant("delete" as const), tree: fc.nat(3), key: keyArb }),
  },
  {
    weight: 6,
    arbitrary: fc.record({
      op: fc.constantFrom(
        "checkpoint" as const,
        "revert" as const,
        "commitCheckpoint" as const,
        "copy" as const,
        "hash" as const,
        "commit" as const,
        "persist" as const,
        "evict" as const,
      ),
      tree: fc.nat(3),
    }),
  },
);

const hex = (b: Uint8Array) => Buffer.from(b).toString("hex");

interface Subject {
  tree: BinaryTree;
  store: MemoryStore;
  /** The model: current contents, and one snapshot per open checkpoint. */
  model: Map<string, Uint8Array>;
  saved: Map<string, Uint8Array>[];
}

function freshRoot(model: Map<string, Uint8Array>, groupDepth: number): string {
  const tree = new BinaryTree({ groupDepth });
  for (const [k, v] of model) tree.put(Uint8Array.from(Buffer.from(k, "hex")), v);
  return hex(tree.hash());
}

function describeSet(set: NodeSet): string[] {
  return [
    ...set.writes.map((w) => `w ${hex(w.path)} ${hex(w.blob)}`),
    ...set.deletes.map((d) => `d ${hex(d)}`),
  ];
}

async function runOps(ops: Op[], groupDepth: number, deletionMode: DeletionMode): Promise<void> {
  const first = new MemoryStore();
  const subjects: Subject[] = [
    {
      tree: new BinaryTree({ groupDepth, deletionMode, store: first }),
      store: first,
      model: new Map(),
      saved: [],
    },
  ];
  for (const o of ops) {
    const s = subjects[o.tree % subjects.length]!;
    switch (o.op) {
      case "put":
        await s.tree.putMany([{ key: o.key, value: o.value }]);
        s.model.set(hex(o.key), o.value);
        break;
      case "delete":
        await s.tree.deleteMany([o.key]);
        if (deletionMode === "zero") s.model.set(hex(o.key), new Uint8Array(32));
        else s.model.delete(hex(o.key));
        break;
      case "checkpoint":
        s.tree.checkpoint();
        s.saved.push(new Map(s.model));
        break;
      case "revert":
        if (s.saved.length === 0) {
          expect(() => s.tree.revertCheckpoint()).toThrow(TreeError);
          break;
        }
        s.tree.revertCheckpoint();
        s.model = s.saved.pop()!;
        break;
      case "commitCheckpoint":
        if (s.saved.length === 0) {
          expect(() => s.tree.commitCheckpoint()).toThrow(TreeError);
          break;
        }
        s.tree.commitCheckpoint();
        s.saved.pop();
        break;
      case "copy": {
        // A copy and the original must produce the same next node set, then diverge freely.
        const store = new MemoryStore();
        for await (const [k, v] of s.store.entries()) {
          await store.batch([{ type: "put", key: k, value: v }]);
        }
        const twin = s.tree.copy({ store });
        expect(twin.store).toBe(store);
        subjects.push({ tree: twin, store, model: new Map(s.model), saved: [] });
        expect(twin.checkpointDepth).toBe(0);
        break;
      }
      case "hash":
        expect(hex(s.tree.hash())).toBe(freshRoot(s.model, groupDepth));
        break;
      case "commit": {
        // A commit is flag changes (blob stale → persisted): a revert must restore them all, or a
        // later evict would drop nodes the store never got. A copy gives the same node set.
        const reference = s.tree.copy();
        s.tree.checkpoint();
        const set = s.tree.commit();
        s.tree.revertCheckpoint();
        expect(hex(set.root)).toBe(freshRoot(s.model, groupDepth));
        expect(describeSet(reference.commit())).toEqual(describeSet(set));
        break;
      }
      case "persist":
        if (s.saved.length > 0) {
          await expect(s.tree.persist()).rejects.toMatchObject({ code: "CHECKPOINT_OPEN" });
          break;
        }
        await s.tree.persist();
        break;
      case "evict":
        // Placeholders everywhere they are allowed: later ops reload (inside checkpoints too).
        s.tree.evict(1);
        break;
    }
  }
  for (const s of subjects) {
    const keys = [...s.model.keys()].map((k) => Uint8Array.from(Buffer.from(k, "hex")));
    const values = await s.tree.getMany(keys);
    for (let i = 0; i < keys.length; i++)
      expect(hex(values[i]!)).toBe(hex(s.model.get(hex(keys[i]!))!));
    expect(hex(s.tree.hash())).toBe(freshRoot(s.model, groupDepth));
    while (s.tree.checkpointDepth > 0) s.tree.commitCheckpoint();
    await s.tree.persist();
  }
}

describe("checkpoints and copies against a Map model", () => {
  for (const deletionMode of ["zero", "remove"] as const) {
    it(`random op sequences agree with the model and a fresh tree (${deletionMode})`, async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(opArb, { minLength: 1, maxLength: 40 }),
          fc.constantFrom(0, 1, 5),
          async (ops, groupDepth) => runOps(ops, groupDepth, deletionMode),
        ),
        { numRuns: 100 },
      );
    });
  }

  it("a revert restores the next commit's node set exactly (copy taken at the checkpoint as the reference)", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(keyArb, valueArb), { maxLength: 12 }),
        fc.array(fc.tuple(keyArb, valueArb, fc.boolean()), { minLength: 1, maxLength: 12 }),
        fc.constantFrom(0, 1, 5),
        fc.constantFrom("zero" as const, "remove" as const),
        fc.boolean(),
        async (before, inside, groupDepth, deletionMode, persistFirst) => {
          const store = new MemoryStore();
          const tree = new BinaryTree({ groupDepth, deletionMode, store });
          for (const [k, v] of before.slice(0, before.length >> 1)) tree.put(k, v);
          if (persistFirst) await tree.persist();
          for (const [k, v] of before.slice(before.length >> 1)) tree.put(k, v);
          if (before.length % 3 === 0) tree.hash();
          const reference = tree.copy();
          tree.checkpoint();
          for (const [k, v, del] of inside) {
            if (del) tree.delete(k);
            else tree.put(k, v);
          }
          tree.hash();
          tree.commit();
          tree.revertCheckpoint();
          expect(describeSet(tree.commit())).toEqual(describeSet(reference.commit()));
        },
      ),
      { numRuns: 120 },
    );
  });
});

describe("checkpoint errors", () => {
  it("unbalanced calls are coded TreeErrors", () => {
    const tree = new BinaryTree();
    expectTypedError(() => tree.revertCheckpoint(), TreeError, "NO_CHECKPOINT", "revertCheckpoint");
    expectTypedError(() => tree.commitCheckpoint(), TreeError, "NO_CHECKPOINT", "commitCheckpoint");
    tree.checkpoint();
    tree.commitCheckpoint();
    expectTypedError(() => tree.commitCheckpoint(), TreeError, "NO_CHECKPOINT", "no checkpoint");
  });

  it("checkpoint methods are refused while an async call is in flight", async () => {
    const store = new MemoryStore();
    const tree = new BinaryTree({ store });
    tree.put(new Uint8Array(32), new Uint8Array(32).fill(1));
    await tree.persist();
    tree.checkpoint();
    const pending = tree.getMany([new Uint8Array(32)]);
    expectTypedError(() => tree.revertCheckpoint(), TreeError, "BUSY", "await it first");
    expectTypedError(() => tree.checkpoint(), TreeError, "BUSY", "checkpoint");
    await pending;
    tree.revertCheckpoint();
    expect(tree.checkpointDepth).toBe(0);
  });

  it("persist is refused while a checkpoint is open, and works after it closes", async () => {
    const tree = new BinaryTree({ store: new MemoryStore() });
    tree.checkpoint();
    tree.put(new Uint8Array(32), new Uint8Array(32).fill(1));
    await expect(tree.persist()).rejects.toMatchObject({ code: "CHECKPOINT_OPEN" });
    tree.commitCheckpoint();
    await expect(tree.persist()).resolves.toBeInstanceOf(Uint8Array);
  });
});
