// The commit skips a child whose parent has no stale hint on its side (FLAG_STALE_LEFT/RIGHT)
// without reading it, so a blob-stale node under a parent without that hint would never be
// written. After any sequence of writes, deletes (collapses), hashes, commits, persists,
// checkpoints, reverts and copies, every blob-stale node's parent has the hint toward it; and the
// persisted store equals a fresh build of its contents (nothing was skipped).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { BinaryTree, MemoryStore } from "../src/index.js";
import type { Arena } from "../src/tree/arena.js";
import { arenaOf, type DeletionMode } from "../src/tree/binary-tree.js";
import {
  FLAG_BLOB_STALE,
  FLAG_STALE_LEFT,
  FLAG_STALE_RIGHT,
  KIND_INTERNAL,
  KIND_STEM,
  refIndex,
  refKind,
} from "../src/tree/node-ref.js";
import { bytes, hex } from "./helpers/shared.js";
import { adversarialKeys, freshNodes, storedNodes } from "./helpers/tree-fixtures.js";

const KEYS = adversarialKeys(4242, 48);

type Op =
  | { op: "put"; key: number; value: number }
  | { op: "delete"; key: number }
  | { op: "hash" | "commit" | "persist" | "checkpoint" | "revert" | "keep" | "copy" };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 10,
    arbitrary: fc.record({
      op: fc.constant("put" as const),
      key: fc.integer({ min: 0, max: KEYS.length - 1 }),
      value: fc.integer({ min: 1, max: 255 }),
    }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      op: fc.constant("delete" as const),
      key: fc.integer({ min: 0, max: KEYS.length - 1 }),
    }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      op: fc.constantFrom(
        "hash" as const,
        "commit" as const,
        "persist" as const,
        "checkpoint" as const,
        "revert" as const,
        "keep" as const,
        "copy" as const,
      ),
    }),
  },
);

/** Every blob-stale node below an internal parent has the parent's hint toward it. */
function assertHints(arena: Arena): void {
  const { internals, stems } = arena;
  const stack = [arena.root];
  while (stack.length > 0) {
    const ref = stack.pop()!;
    if (refKind(ref) !== KIND_INTERNAL) continue;
    const index = refIndex(ref);
    const flags = internals.getFlags(index);
    for (let side = 0; side < 2; side++) {
      const child = internals.getChild(index, side);
      const kind = refKind(child);
      const childFlags =
        kind === KIND_INTERNAL
          ? internals.getFlags(refIndex(child))
          : kind === KIND_STEM
            ? stems.getFlags(refIndex(child))
            : 0;
      if ((childFlags & FLAG_BLOB_STALE) !== 0) {
        expect(flags & (side === 0 ? FLAG_STALE_LEFT : FLAG_STALE_RIGHT)).not.toBe(0);
      }
      stack.push(child);
    }
  }
}

describe("stale hints", () => {
  for (const deletionMode of ["zero", "remove"] as DeletionMode[]) {
    it(`every blob-stale node is hinted from its parent (${deletionMode}, 120 runs)`, async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(opArb, { minLength: 1, maxLength: 60, size: "medium" }),
          async (ops) => {
            const store = new MemoryStore();
            let tree = new BinaryTree({ groupDepth: 2, store, deletionMode });
            const saved: number[] = [];
            for (const o of ops) {
              if (o.op === "put") {
                const v = new Uint8Array(32).fill(o.value);
                tree.put(KEYS[o.key]!, v);
              } else if (o.op === "delete") {
                tree.delete(KEYS[o.key]!);
              } else if (o.op === "hash") tree.hash();
              else if (o.op === "commit") {
                // Not inside a checkpoint: a revert would leave the store ahead of the tree.
                if (saved.length === 0) await store.batch(tree.nodeSetOperations(tree.commit()));
              } else if (o.op === "persist") {
                if (saved.length === 0) await tree.persist();
              } else if (o.op === "checkpoint") {
                tree.checkpoint();
                saved.push(0);
              } else if (o.op === "revert") {
                if (saved.length === 0) continue;
                tree.revertCheckpoint();
                saved.pop();
              } else if (o.op === "keep") {
                if (saved.length === 0) continue;
                tree.commitCheckpoint();
                saved.pop();
              } else if (o.op === "copy") {
                if (saved.length === 0) tree = tree.copy();
              }
              assertHints(arenaOf(tree));
            }
            while (saved.length > 0) {
              tree.commitCheckpoint();
              saved.pop();
            }
            await tree.persist();
            // The store equals a fresh build of the tree's contents: no stale node was skipped.
            const entries = new Map<string, Uint8Array>();
            for (const [k, v] of tree.entriesSync()) entries.set(hex(k), v);
            expect(await storedNodes(store)).toEqual(freshNodes(entries, bytes, 2));
          },
        ),
        { numRuns: 120 },
      );
    });
  }
});
