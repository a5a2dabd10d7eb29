import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { BinaryTree, getHasher, type Hasher } from "../src/index.js";
import { hex } from "./helpers/shared.js";
import { adversarialKeys, prng } from "./helpers/tree-fixtures.js";
import { bytesToHex, referenceRoot } from "./helpers/vectors.js";

// hash() after writes to a hashed tree hashes the nodes the sorted writes close as it applies
// them (ClosingHasher). Every root here is checked against the independent recursive reference
// (helpers/vectors.ts), never against the tree's own output.

const sha256 = getHasher("sha256");

/**
 * Keys whose stems share long prefixes (splits inside a block, stems at every depth), many of
 * them sharing their first 4 bytes (the write log sorts by those only), and keys of the same stem.
 */
function keyPool(seed: number, count: number): Uint8Array[] {
  const keys = adversarialKeys(seed, count, 56);
  for (let i = 0; i < count; i += 5) {
    const sibling = keys[i]!.slice();
    sibling[31] = sibling[31]! ^ 0x5a;
    keys.push(sibling);
  }
  return keys;
}

const KEYS = keyPool(4243, 150);

function value(v: number): Uint8Array {
  const out = new Uint8Array(32);
  out[0] = v & 0xff;
  out[31] = (v >>> 8) & 0xff;
  return out;
}

function reference(model: Map<number, number>): string {
  const leaves = new Map<string, Uint8Array>();
  for (const [k, v] of model) leaves.set(bytesToHex(KEYS[k]!), value(v));
  return hex(referenceRoot(sha256, leaves));
}

type Op =
  | { kind: "block"; writes: { key: number; value: number }[] }
  | { kind: "get"; key: number }
  | { kind: "delete"; key: number }
  | { kind: "checkpoint" }
  | { kind: "revert" }
  | { kind: "copy" };

const keyArb = fc.nat(KEYS.length - 1);
const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.record({
      kind: fc.constant("block" as const),
      writes: fc.array(fc.record({ key: keyArb, value: fc.nat(0xffff) }), { maxLength: 200 }),
    }),
  },
  // A read between writes flushes them without hashing: the next hash finds them stale.
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("get" as const), key: keyArb }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("delete" as const), key: keyArb }) },
  { weight: 1, arbitrary: fc.constant({ kind: "checkpoint" as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: "revert" as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: "copy" as const }) },
);

function run(initial: number, ops: readonly Op[]): void {
  let tree = new BinaryTree({ groupDepth: 4, deletionMode: "remove" });
  let model = new Map<number, number>();
  for (let k = 0; k < initial; k++) {
    tree.put(KEYS[k]!, value(k));
    model.set(k, k);
  }
  expect(hex(tree.hash())).toBe(reference(model));
  const saved: Map<number, number>[] = [];
  for (const op of ops) {
    if (op.kind === "block") {
      for (const w of op.writes) {
        tree.put(KEYS[w.key]!, value(w.value));
        model.set(w.key, w.value);
      }
      expect(hex(tree.hash())).toBe(reference(model));
    } else if (op.kind === "get") {
      const got = tree.get(KEYS[op.key]!);
      expect(got === undefined ? undefined : hex(got)).toBe(
        model.has(op.key) ? hex(value(model.get(op.key)!)) : undefined,
      );
    } else if (op.kind === "delete") {
      tree.delete(KEYS[op.key]!);
      model.delete(op.key);
    } else if (op.kind === "checkpoint") {
      tree.checkpoint();
      saved.push(new Map(model));
    } else if (op.kind === "revert" && saved.length > 0) {
      tree.revertCheckpoint();
      model = saved.pop()!;
    } else if (op.kind === "copy") {
      tree = tree.copy();
      saved.length = 0;
    }
  }
  expect(hex(tree.hash())).toBe(reference(model));
}

/** A hasher that records which batch entry point each call used (s: stems, i: 64-byte). */
function tracingHasher(base: Hasher): { hasher: Hasher; calls: string[] } {
  const calls: string[] = [];
  const hasher: Hasher = {
    name: base.name,
    digest: (message) => base.digest(message),
    hash32Batch(src, so, count, dst, dq) {
      calls.push("v");
      base.hash32Batch(src, so, count, dst, dq);
    },
    hash64Batch(src, so, count, dst, dq) {
      calls.push("i");
      base.hash64Batch(src, so, count, dst, dq);
    },
    hashOneValueStems(src, so, count, dst, dq) {
      calls.push("s");
      base.hashOneValueStems!(src, so, count, dst, dq);
    },
  };
  return { hasher, calls };
}

describe("hashing the nodes sorted writes close, window by window", () => {
  it("blocks of writes on a hashed tree, with reads, removals, checkpoints, reverts and copies between: every root is the independent reference's (60 runs)", () => {
    fc.assert(
      fc.property(
        fc.nat(KEYS.length),
        fc.array(opArb, { minLength: 1, maxLength: 8 }),
        (initial, ops) => run(initial, ops),
      ),
      { numRuns: 60 },
    );
  });

  it("keys sharing their first 4 bytes, out of stem order in the log, at every offset to a window: the root is the reference's", () => {
    // The log sorts by the first 4 bytes only, so a1, b, a2, a3 stay in call order. a2 and a3
    // share 60 bits (nodes down to depth 60), a1 leaves them at bit 40, b at bit 32. Applied in
    // that order, a1's nodes at depths 33..40 close at b, a2 comes back below them, and a window
    // ending after a2 would hash them while a3 is still to be written under them; a3's marking
    // stops at a2's stale nodes, so they would keep that hash.
    const p = [0xff, 0xff, 0xff, 0x00];
    const key = (bytes: number[], last: number): Uint8Array => {
      const k = new Uint8Array(32);
      k.set([...p, ...bytes], 0);
      k[30] = last;
      return k;
    };
    const a1 = key([0x00, 0x80], 1);
    const a2 = key([0x00, 0x00, 0x00, 0x00], 2);
    const a3 = key([0x00, 0x00, 0x00, 0x08], 3);
    const b = key([0x80], 4);
    for (let before = 0; before < 70; before++) {
      const rand = prng(before + 1);
      const other = (): Uint8Array => {
        const k = rand(32);
        k[0] = k[0]! % 0xff;
        return k;
      };
      const { tree, leaves, write } = trackedTree();
      for (let i = 0; i < 40; i++) write(other(), i);
      write(a1, 1);
      write(a2, 2);
      write(a3, 3);
      tree.hash();
      for (let i = 0; i < before; i++) write(other(), 100 + i);
      write(a1, 11);
      write(b, 12);
      write(a2, 13);
      write(a3, 14);
      expect(hex(tree.hash())).toBe(hex(referenceRoot(sha256, leaves)));
    }
  });

  for (const [run, label] of [
    [60, "sorted by stem"],
    [150, "too long to sort: the block is hashed after the flush"],
  ] as const) {
    it(`a run of ${run} keys sharing their first 4 bytes, in shuffled call order, at every offset to the windows (${label}): the root is the reference's`, () => {
      // The log sorts by the first 4 bytes only. Unsorted, the run's keys would come back below
      // nodes an earlier key of the run closed in the same window, still to be written under.
      for (let before = 0; before < 64; before += 9) {
        const rand = prng(run * 64 + before);
        const prefixed = (): Uint8Array => {
          const k = rand(32);
          k.set([0x80, 0x00, 0x00, 0x01], 0);
          // Long shared prefixes inside the run: deep nodes, splits.
          k[4] = k[4]! & 0x81;
          return k;
        };
        const { tree, leaves, write } = trackedTree();
        const old = Array.from({ length: run >> 1 }, prefixed);
        for (let i = 0; i < 100; i++) write(rand(32), i);
        for (const [i, k] of old.entries()) write(k, i);
        expect(hex(tree.hash())).toBe(hex(referenceRoot(sha256, leaves)));
        const block = [...old, ...Array.from({ length: run - old.length }, prefixed)];
        for (let i = block.length - 1; i > 0; i--) {
          const j = rand(1)[0]! % (i + 1);
          [block[i], block[j]] = [block[j]!, block[i]!];
        }
        // `before` keys ahead of the run in the log's order (first byte below 0x80).
        for (let i = 0; i < before; i++) {
          const k = rand(32);
          k[0] = k[0]! & 0x7f;
          write(k, 1000 + i);
        }
        for (const [i, k] of block.entries()) write(k, 2000 + i);
        expect(hex(tree.hash())).toBe(hex(referenceRoot(sha256, leaves)));
      }
    });
  }

  it("writes of one batch that meet, at their paths' ends, the stems and splits earlier writes of the batch made: every root is the reference's", () => {
    // The flush walks the descents of 16 writes before applying any of them; a later write of
    // the batch finds the node its descent ended at changed: a stem made in an empty slot, a
    // stem split into a chain (then deeper again), a second value in a stem made just before.
    const key = (bytes: number[], last = 0): Uint8Array => {
      const k = new Uint8Array(32);
      k.set(bytes, 0);
      k[31] = last;
      return k;
    };
    const { tree, leaves, write } = trackedTree();
    write(key([0x00]), 1);
    write(key([0x80]), 2);
    tree.hash();
    // All left of the root: every descent of the batch ends at the stem 0x00.., which the first
    // write (0x00000001, first in stem order) splits; each later write goes below what the
    // writes before it made.
    write(key([0x40]), 3);
    write(key([0x41]), 4);
    write(key([0x41, 0x80]), 5);
    write(key([0x41, 0x80], 7), 6);
    write(key([0x41, 0x80, 0x01]), 7);
    write(key([0x00, 0x00, 0x00, 0x01]), 8);
    expect(hex(tree.hash())).toBe(hex(referenceRoot(sha256, leaves)));
    // Into an empty slot: right of 0x80.. is a stem; 0xc0 splits it, 0xe0 and 0xe0‖1 follow.
    write(key([0xc0]), 9);
    write(key([0xe0]), 10);
    write(key([0xe0], 1), 11);
    write(key([0xe0, 0x01]), 12);
    write(key([0x40]), 13);
    expect(hex(tree.hash())).toBe(hex(referenceRoot(sha256, leaves)));
  });

  it("a block on a hashed tree hashes as its writes go: stem hashes follow internal ones, window after window", () => {
    const { hasher, calls } = tracingHasher(sha256);
    const tree = new BinaryTree({ hasher });
    const leaves = new Map<string, Uint8Array>();
    const keys = keyPool(99, 2000);
    for (let i = 0; i < 2000; i++) {
      tree.put(keys[i]!, value(i));
      leaves.set(bytesToHex(keys[i]!), value(i));
    }
    tree.hash();
    calls.length = 0;
    for (let i = 0; i < 1000; i++) {
      const k = keys[(i * 7919) % keys.length]!;
      tree.put(k, value(i + 5000));
      leaves.set(bytesToHex(k), value(i + 5000));
    }
    expect(hex(tree.hash())).toBe(hex(referenceRoot(sha256, leaves)));
    // Hashed after the flush, all stems would come first, then every internal level.
    const trace = calls.join("");
    expect(trace.indexOf("s", trace.indexOf("i"))).toBeGreaterThan(0);
    // A read between the writes and the hash flushes them unhashed: the hash then comes after.
    calls.length = 0;
    for (let i = 0; i < 1000; i++) tree.put(keys[(i * 104729) % keys.length]!, value(i));
    tree.get(keys[0]!);
    tree.hash();
    const after = calls.join("");
    expect(after.indexOf("s", after.indexOf("i"))).toBe(-1);
  });
});

/** An empty tree and the leaves written to it, for the reference root. */
function trackedTree(): {
  tree: BinaryTree;
  leaves: Map<string, Uint8Array>;
  write: (k: Uint8Array, v: number) => void;
} {
  const tree = new BinaryTree();
  const leaves = new Map<string, Uint8Array>();
  const write = (k: Uint8Array, v: number): void => {
    tree.put(k, value(v));
    leaves.set(bytesToHex(k), value(v));
  };
  return { tree, leaves, write };
}
