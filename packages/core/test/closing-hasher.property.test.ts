import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { BinaryTree, getHasher, type Hasher } from "../src/index.js";
import { hex } from "./helpers/shared.js";
import { adversarialKeys } from "./helpers/tree-fixtures.js";
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

  it("keys sharing their first 4 bytes, written out of key order, come back to nodes already closed and hashed: those are hashed again", () => {
    // The log sorts by the first 4 key bytes only, so A, B, C stay in call order. A and D share
    // 45 bits (nodes down to depth 45), B leaves them at bit 32, C shares 47 bits with A: the
    // nodes at depths 33..45 close after A, are hashed, and C's write makes them stale again.
    const key = (byte4: number, byte5: number, last: number): Uint8Array => {
      const k = new Uint8Array(32);
      k.set([0x12, 0x34, 0x56, 0x78, byte4, byte5], 0);
      k[30] = last;
      return k;
    };
    const a = key(0x80, 0x01, 1);
    const d = key(0x80, 0x05, 2);
    const b = key(0x40, 0x00, 3);
    const c = key(0x80, 0x00, 4);
    const other = key(0x00, 0x00, 5);
    other[0] = 0xf0;
    const tree = new BinaryTree();
    const leaves = new Map<string, Uint8Array>();
    const write = (k: Uint8Array, v: number): void => {
      tree.put(k, value(v));
      leaves.set(bytesToHex(k), value(v));
    };
    write(a, 1);
    write(d, 2);
    write(other, 3);
    expect(hex(tree.hash())).toBe(hex(referenceRoot(sha256, leaves)));
    write(a, 4);
    write(b, 5);
    write(c, 6);
    expect(hex(tree.hash())).toBe(hex(referenceRoot(sha256, leaves)));
    // And the tree goes on from there: the next block's hash starts from nothing stale.
    write(d, 7);
    write(c, 8);
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
