import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { BinaryTree } from "../src/index.js";
import { hex } from "./helpers/shared.js";
import { adversarialKeys } from "./helpers/tree-fixtures.js";

type Mode = "zero" | "remove";
type Op =
  | { kind: "put"; key: number; value: number }
  | { kind: "delete"; key: number }
  | { kind: "hash" }
  | { kind: "checkpoint" }
  | { kind: "revert" }
  | { kind: "keep" }
  | { kind: "copy" };

const KEYS = adversarialKeys(77, 64, 40);

const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.record({
      kind: fc.constant("put" as const),
      key: fc.nat(63),
      value: fc.nat(255),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("delete" as const), key: fc.nat(63) }) },
  { weight: 3, arbitrary: fc.constant({ kind: "hash" as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: "checkpoint" as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: "revert" as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: "keep" as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: "copy" as const }) },
);

/** The root of a fresh tree holding `model`, each write flushed on its own (no log, no bulk build). */
function referenceRoot(model: Map<number, number>, mode: Mode): string {
  const tree = new BinaryTree({ groupDepth: 3, deletionMode: mode });
  for (const [key, value] of model) {
    tree.put(KEYS[key]!, new Uint8Array(32).fill(value));
    tree.get(KEYS[key]!);
  }
  return hex(tree.hash());
}

function run(ops: readonly Op[], mode: Mode): void {
  let tree = new BinaryTree({ groupDepth: 3, deletionMode: mode });
  let model = new Map<number, number>();
  const saved: Map<number, number>[] = [];
  for (const op of ops) {
    if (op.kind === "put") {
      tree.put(KEYS[op.key]!, new Uint8Array(32).fill(op.value));
      model.set(op.key, op.value);
    } else if (op.kind === "delete") {
      tree.delete(KEYS[op.key]!);
      if (mode === "remove") model.delete(op.key);
      else model.set(op.key, 0);
    } else if (op.kind === "hash") {
      expect(hex(tree.hash())).toBe(referenceRoot(model, mode));
    } else if (op.kind === "checkpoint") {
      tree.checkpoint();
      saved.push(new Map(model));
    } else if (op.kind === "revert" && saved.length > 0) {
      tree.revertCheckpoint();
      model = saved.pop()!;
    } else if (op.kind === "keep" && saved.length > 0) {
      tree.commitCheckpoint();
      saved.pop();
    } else if (op.kind === "copy") {
      // Carry on with the copy; the original must keep its own root.
      const before = referenceRoot(model, mode);
      const copy = tree.copy();
      copy.put(KEYS[0]!, new Uint8Array(32).fill(0xee));
      expect(hex(tree.hash())).toBe(before);
      copy.put(KEYS[0]!, new Uint8Array(32).fill(model.get(0) ?? 0));
      if (!model.has(0) && mode === "remove") copy.delete(KEYS[0]!);
      else if (!model.has(0)) model.set(0, 0);
      tree = copy;
      saved.length = 0;
    }
  }
  expect(hex(tree.hash())).toBe(referenceRoot(model, mode));
}

describe("hashing from the stale nodes the writes recorded", () => {
  for (const mode of ["zero", "remove"] as const) {
    it(`writes, hashes, checkpoints, reverts and copies in any order: every root is a fresh tree's (${mode}, 150 runs)`, () => {
      fc.assert(
        fc.property(fc.array(opArb, { minLength: 1, maxLength: 80 }), (ops) => run(ops, mode)),
        { numRuns: 150 },
      );
    });
  }
});
