import { sha256 } from "@noble/hashes/sha2.js";
import { describe, expect, it } from "vitest";
import {
  BinaryTree,
  bytesToHex,
  type KVStore,
  MemoryStore,
  openTree,
  openWitness,
  StoreError,
} from "../src/index.js";

// The batch calls are all-or-nothing and serialisable: a store read failing at any point leaves
// the tree as it was (a retry completes the call), and writes made while one waits for the store
// come before the whole batch or after it, never between two of its keys. deleteMany in 'remove'
// mode is the hard case: a collapse may need a sibling no key's path passes through.

const u32 = (n: number) => new Uint8Array([n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255]);
/** Distinct stems, independent of our code: sha256 of a label and a counter. */
const keyOf = (i: number, sub = 0) => {
  const k = sha256(new Uint8Array([...new TextEncoder().encode("rm"), ...u32(i)]));
  k[31] = sub;
  return k;
};
const valueFor = (i: number, round = 0) => sha256(new Uint8Array([...u32(i), ...u32(round)]));

/** 400 one-value stems and 40 two-value stems: most removals empty a stem and collapse. */
function baseEntries(): Map<string, [Uint8Array, Uint8Array]> {
  const entries = new Map<string, [Uint8Array, Uint8Array]>();
  for (let i = 0; i < 440; i++) {
    entries.set(bytesToHex(keyOf(i)), [keyOf(i), valueFor(i)]);
    if (i >= 400) entries.set(bytesToHex(keyOf(i, 7)), [keyOf(i, 7), valueFor(i, 7)]);
  }
  return entries;
}

/** Every fifth key, plus both values of some two-value stems: sibling stems empty together. */
function batchKeys(): Uint8Array[] {
  const keys: Uint8Array[] = [];
  for (let i = 0; i < 440; i += 5) keys.push(keyOf(i));
  for (let i = 400; i < 440; i += 10) keys.push(keyOf(i, 7), keyOf(i + 1), keyOf(i + 1, 7));
  return keys;
}

/** The root of a tree built by inserts alone (no removal code involved). */
function rootOf(entries: Iterable<[Uint8Array, Uint8Array]>, groupDepth: number): string {
  const tree = new BinaryTree({ groupDepth });
  for (const [k, v] of entries) tree.put(k, v);
  return bytesToHex(tree.hash());
}

/** A store whose reads fail from the `failAt`-th getMany on, or run `onRead` first. */
class ScriptedStore implements KVStore {
  readonly inner: MemoryStore;
  reads = 0;
  failAt = Number.POSITIVE_INFINITY;
  onRead: (() => void) | undefined;
  constructor(inner: MemoryStore) {
    this.inner = inner;
  }
  get(key: Uint8Array) {
    return this.inner.get(key);
  }
  async getMany(keys: readonly Uint8Array[]) {
    this.reads++;
    this.onRead?.();
    if (this.reads >= this.failAt) throw new StoreError("STORE_IO", "read failed on purpose");
    await new Promise((resolve) => setTimeout(resolve, 0));
    return this.inner.getMany(keys);
  }
  batch(operations: Parameters<MemoryStore["batch"]>[0]) {
    return this.inner.batch(operations);
  }
  async close() {}
}

async function storedBase(groupDepth: number): Promise<{ store: MemoryStore; root: string }> {
  const store = new MemoryStore();
  const tree = new BinaryTree({ store, groupDepth, deletionMode: "remove" });
  for (const [k, v] of baseEntries().values()) tree.put(k, v);
  return { store, root: bytesToHex(await tree.persist()) };
}

/**
 * For n = 1, 2, …: opens the stored base over a store whose reads fail from the n-th on and runs
 * `call`, until it succeeds. Each failure must leave the root as it was (then `onFailure` looks
 * further, the store healed) and the retry, like the success, must reach `expected`. Returns how
 * many reads failed the call.
 */
async function sweepReadFailures(
  groupDepth: number,
  options: { maxNodes?: number },
  call: (tree: BinaryTree) => Promise<unknown>,
  expected: string,
  onFailure?: (tree: BinaryTree, error: unknown, store: MemoryStore) => Promise<void>,
): Promise<number> {
  const { root } = await storedBase(groupDepth);
  let failures = 0;
  for (let failAt = 1; ; failAt++) {
    const { store } = await storedBase(groupDepth);
    const scripted = new ScriptedStore(store);
    const tree = await openTree(scripted, { deletionMode: "remove", ...options });
    scripted.reads = 0;
    scripted.failAt = failAt;
    const outcome = await call(tree).then(
      () => "done",
      (error: unknown) => error,
    );
    scripted.failAt = Number.POSITIVE_INFINITY;
    if (outcome === "done") {
      expect(bytesToHex(tree.hash())).toBe(expected);
      return failures;
    }
    failures++;
    expect(bytesToHex(tree.hash()), `read ${failAt} failed`).toBe(root);
    await onFailure?.(tree, outcome, store);
    await call(tree);
    expect(bytesToHex(tree.hash())).toBe(expected);
  }
}

describe("batch calls are all-or-nothing", () => {
  for (const groupDepth of [1, 5, 8]) {
    it(`a read failing at any point changes nothing; a retry removes every key (group depth ${groupDepth})`, async () => {
      const remaining = baseEntries();
      const batch = batchKeys();
      for (const k of batch) remaining.delete(bytesToHex(k));
      const expected = rootOf(remaining.values(), groupDepth);
      const all = [...baseEntries().values()];
      const failures = await sweepReadFailures(
        groupDepth,
        {},
        (tree) => tree.deleteMany(batch),
        expected,
        async (tree, error, store) => {
          expect(error).toBeInstanceOf(StoreError);
          const values = await tree.getMany(all.map(([k]) => k));
          expect(values.map((v) => v && bytesToHex(v))).toEqual(all.map(([, v]) => bytesToHex(v)));
          // What a retry persists is the tree a fresh persist of the remaining keys stores.
          await tree.deleteMany(batch);
          await tree.persist();
          const reopened = await openTree(store, { deletionMode: "remove" });
          expect(bytesToHex(reopened.hash())).toBe(expected);
        },
      );
      // Reads after the paths loaded failed too: the collapses' sibling loads were exercised.
      expect(failures).toBeGreaterThan(2);
    });
  }

  it("writes made while it waits for a sibling come before the whole batch, never inside it", async () => {
    const batch = batchKeys();
    const first = batch[0]!;
    const last = batch[batch.length - 1]!;
    const remaining = baseEntries();
    for (const k of batch) remaining.delete(bytesToHex(k));
    const expected = rootOf(remaining.values(), 5);
    let fired = 0;
    // The n-th read after every key's path is in memory (a collapse's sibling) writes both ends
    // of the batch.
    for (let nth = 1; nth <= 8; nth++) {
      const { store } = await storedBase(5);
      const scripted = new ScriptedStore(store);
      const tree = await openTree(scripted, { deletionMode: "remove" });
      let seen = 0;
      scripted.onRead = () => {
        try {
          for (const k of batch) tree.get(k);
        } catch {
          return;
        }
        if (++seen !== nth) return;
        fired++;
        tree.put(first, valueFor(9000));
        tree.put(last, valueFor(9001));
      };
      await tree.deleteMany(batch);
      // Serial orders: puts then deleteMany (both gone), or deleteMany then puts (both present).
      const firstNow = tree.get(first);
      const lastNow = tree.get(last);
      if (firstNow === undefined || lastNow === undefined) {
        expect([firstNow, lastNow], `writes at read ${nth}`).toEqual([undefined, undefined]);
        expect(bytesToHex(tree.hash())).toBe(expected);
      } else {
        expect(bytesToHex(tree.hash())).toBe(
          rootOf([...remaining.values(), [first, valueFor(9000)], [last, valueFor(9001)]], 5),
        );
      }
    }
    expect(fired).toBeGreaterThan(1);
  });

  for (const groupDepth of [1, 5]) {
    it(`a witness of a batch that needed several store rounds replays it (group depth ${groupDepth})`, async () => {
      const { store } = await storedBase(groupDepth);
      const scripted = new ScriptedStore(store);
      const tree = await openTree(scripted, { deletionMode: "remove" });
      // One key's path first, so its collapse and its neighbours' need later rounds.
      await tree.getMany([keyOf(0)]);
      tree.beginWitness();
      scripted.reads = 0;
      const batch = batchKeys();
      await tree.deleteMany(batch);
      const witness = tree.endWitness();
      expect(scripted.reads).toBeGreaterThan(3);
      const replay = openWitness(witness, { deletionMode: "remove" });
      for (const k of batch) replay.delete(k);
      expect(bytesToHex(replay.hash())).toBe(bytesToHex(tree.hash()));
    });
  }

  it("putMany: a read failing at any point writes nothing; a retry writes every entry", async () => {
    const entries = Array.from({ length: 60 }, (_, n) => ({
      key: keyOf(n * 7, n % 3),
      value: valueFor(n, 9),
    }));
    const after = baseEntries();
    for (const e of entries) after.set(bytesToHex(e.key), [e.key, e.value]);
    const expected = rootOf(after.values(), 5);
    const failures = await sweepReadFailures(5, {}, (tree) => tree.putMany(entries), expected);
    expect(failures).toBeGreaterThan(0);
  });

  for (const maxNodes of [undefined, 40]) {
    it(`updateMany: deletes and puts land together or not at all (maxNodes ${maxNodes ?? "none"})`, async () => {
      const deletes = batchKeys();
      const puts = Array.from({ length: 30 }, (_, n) => ({
        key: keyOf(1000 + n, n % 4),
        value: valueFor(n, 3),
      }));
      const after = baseEntries();
      for (const k of deletes) after.delete(bytesToHex(k));
      for (const e of puts) after.set(bytesToHex(e.key), [e.key, e.value]);
      const expected = rootOf(after.values(), 5);
      const failures = await sweepReadFailures(
        5,
        maxNodes === undefined ? {} : { maxNodes },
        (tree) => tree.updateMany({ deletes, puts }),
        expected,
      );
      expect(failures).toBeGreaterThan(2);
    });
  }

  it("updateMany refuses changes that are not { deletes?, puts? }", async () => {
    const tree = new BinaryTree({ deletionMode: "remove" });
    await expect(tree.updateMany(null as never)).rejects.toMatchObject({
      code: "INVALID_OPTION",
    });
    await expect(tree.updateMany({ deletes: [new Uint8Array(3)] })).rejects.toMatchObject({
      code: "INVALID_KEY",
    });
  });
});
