import { NODE_KEY_PREFIX } from "@bintrie/codec";
import { compareBytes } from "../store/bytes-order.js";
import type { KVStore } from "../store/kv-store.js";
import { MemoryStore } from "../store/memory-store.js";
import { BinaryTree, type DeletionMode } from "../tree/binary-tree.js";
import { openTree } from "../tree/open-tree.js";
import { equalValue, fail, hex } from "./conformance-assert.js";
import { FaultyStore } from "./faulty-store.js";
import { sleep } from "./sleep.js";

/**
 * One call of an overlap scenario. Keys and values are small numbers (see `scenarioKey`,
 * `scenarioValue`). Async calls are issued without waiting for the ones before.
 */
export type ScenarioOp =
  | { readonly op: "putMany"; readonly entries: readonly (readonly [number, number])[] }
  | { readonly op: "getMany"; readonly keys: readonly number[] }
  | { readonly op: "deleteMany"; readonly keys: readonly number[] }
  /** `fail`: the next batch the store receives rejects (it may be an earlier queued persist's). */
  | { readonly op: "persist"; readonly fail?: boolean }
  /** A synchronous put and get, on a key no async call of the scenario touches. */
  | { readonly op: "put"; readonly key: number; readonly value: number }
  /** Waits for every call in flight. */
  | { readonly op: "settle" };

export interface OverlapScenario {
  readonly groupDepth: number;
  readonly deletionMode?: DeletionMode;
  readonly maxNodes?: number;
  readonly maxBytes?: number;
  /** Random latency per store call (out-of-order completion). Default 0. */
  readonly latencyMs?: number;
  readonly seed?: number;
  /** Keys 0..initialKeys-1 are committed to the store first; the scenario then reopens it. */
  readonly initialKeys: number;
  /** Async calls use keys 0..keySpace-1; synchronous puts use keySpace..2*keySpace-1. */
  readonly keySpace: number;
  readonly ops: readonly ScenarioOp[];
}

/**
 * Key number i: pseudo-random bytes, where some keys share a long prefix or the whole stem
 * with key i-1, so stems sit at many depths and splits and collapses happen.
 */
export function scenarioKey(i: number): Uint8Array {
  const key = bytesOf(i * 2654435761 + 12345, 32);
  if (i > 0 && i % 3 !== 0) {
    const previous = scenarioKey(i - 1);
    const shared = i % 5 === 0 ? 31 : i % 3 === 1 ? 2 : 4;
    key.set(previous.subarray(0, shared));
    if (shared === 31 && key[31] === previous[31]) key[31] = (key[31]! + 1) & 0xff;
  }
  return key;
}

/** Value number v (1..255): 32 bytes, never all zero. */
export function scenarioValue(v: number): Uint8Array {
  const out = new Uint8Array(32).fill(v & 0xff || 1);
  out[0] = 0xa5;
  return out;
}

/** A deterministic random scenario: `count` calls over `keySpace` keys. */
export function randomScenarioOps(
  seed: number,
  count: number,
  keySpace: number,
  options: { syncPuts?: boolean; failures?: boolean } = {},
): ScenarioOp[] {
  const next = numbers(seed);
  const keys = (n: number) => Array.from({ length: 1 + (next() % n) }, () => next() % keySpace);
  const ops: ScenarioOp[] = [];
  for (let i = 0; i < count; i++) {
    const r = next() % 20;
    if (r < 6) ops.push({ op: "putMany", entries: keys(40).map((k) => [k, 1 + (next() % 255)]) });
    else if (r < 11) ops.push({ op: "getMany", keys: keys(60) });
    else if (r < 13) ops.push({ op: "deleteMany", keys: keys(20) });
    else if (r < 16)
      ops.push({ op: "persist", fail: options.failures === true && next() % 3 === 0 });
    else if (r < 19 && options.syncPuts === true) {
      ops.push({ op: "put", key: keySpace + (next() % keySpace), value: 1 + (next() % 255) });
    } else ops.push({ op: "settle" });
  }
  return ops;
}

/**
 * Runs the scenario against `store` and checks it: every getMany returns what the calls made
 * before it (in call order) imply, every persist that resolves returns the root of that state,
 * exactly the armed batches reject, and at the end the store holds exactly the intended
 * content — its root equals a fresh in-memory tree of the model's entries (an independent
 * path: a new tree, no loads, no eviction), every value reads back, and, when the store is
 * ordered, its node blobs equal those of that fresh tree persisted to a new MemoryStore.
 */
export async function runOverlapScenario(store: KVStore, s: OverlapScenario): Promise<void> {
  const mode = s.deletionMode ?? "zero";
  const layout = { groupDepth: s.groupDepth, deletionMode: mode };
  const model = new Map<number, Uint8Array>();
  if (s.initialKeys > 0) {
    const writer = new BinaryTree({ ...layout, store });
    for (let i = 0; i < s.initialKeys; i++) {
      writer.put(scenarioKey(i), scenarioValue(i));
      model.set(i, scenarioValue(i));
    }
    await writer.persist();
  }
  const faulty = new FaultyStore(store, { seed: s.seed, maxLatencyMs: s.latencyMs });
  const bounds = { maxNodes: s.maxNodes, maxBytes: s.maxBytes };
  const tree =
    s.initialKeys > 0
      ? await openTree(faulty, { ...layout, ...bounds })
      : new BinaryTree({ ...layout, ...bounds, store: faulty });
  const hasSyncPuts = s.ops.some((o) => o.op === "put");
  const inFlight: Promise<void>[] = [];
  let armed = 0;
  let rejected = 0;
  for (const [n, op] of s.ops.entries()) {
    const what = `call ${n} (${op.op})`;
    if (op.op === "putMany") {
      const entries = op.entries.map(([k, v]) => ({
        key: scenarioKey(k),
        value: scenarioValue(v),
      }));
      for (const [k, v] of op.entries) model.set(k, scenarioValue(v));
      inFlight.push(tree.putMany(entries));
    } else if (op.op === "getMany") {
      const expected = op.keys.map((k) => model.get(k));
      const read = tree.getMany(op.keys.map(scenarioKey)).then((got) => {
        for (let i = 0; i < expected.length; i++)
          equalValue(got[i], expected[i], `${what} key ${op.keys[i]}`);
      });
      inFlight.push(read);
    } else if (op.op === "deleteMany") {
      for (const k of op.keys) {
        if (mode === "zero") model.set(k, new Uint8Array(32));
        else model.delete(k);
      }
      inFlight.push(tree.deleteMany(op.keys.map(scenarioKey)));
    } else if (op.op === "persist") {
      if (op.fail === true) {
        faulty.failNextBatches(1);
        armed++;
      }
      const expected = hasSyncPuts ? undefined : freshTree(model, layout).hash();
      const persisted = tree.persist().then(
        (root) => {
          if (expected !== undefined) equalValue(root, expected, `${what}: root`);
        },
        (error: unknown) => {
          if ((error as { code?: unknown }).code !== "STORE_IO") throw error;
          rejected++;
        },
      );
      inFlight.push(persisted);
    } else if (op.op === "put") {
      // Let the calls in flight run up to their next store await, so the put lands mid-call.
      await sleep(1);
      try {
        tree.put(scenarioKey(op.key), scenarioValue(op.value));
        model.set(op.key, scenarioValue(op.value));
        // Read back at once: this also applies the write to the tree now, in the middle of
        // whatever call is in flight (a persist's batch, a load round).
        equalValue(tree.get(scenarioKey(op.key)), scenarioValue(op.value), `${what}: read back`);
      } catch (error) {
        // A bounded tree may not hold the key's path: the put refuses (never a silent loss).
        if ((error as { code?: unknown }).code !== "MISSING_NODE") throw error;
      }
    } else {
      await Promise.all(inFlight.splice(0));
    }
  }
  await Promise.all(inFlight);
  if (rejected !== armed)
    fail(`${armed} batches were made to reject, ${rejected} persists rejected`);
  await checkFinalContent(store, tree, model, layout);
}

async function checkFinalContent(
  store: KVStore,
  tree: BinaryTree,
  model: Map<number, Uint8Array>,
  layout: { groupDepth: number; deletionMode: DeletionMode },
): Promise<void> {
  const expected = freshTree(model, layout);
  const root = await tree.persist();
  equalValue(
    root,
    expected.hash(),
    "root of the final persist vs a fresh tree of the same entries",
  );
  const reopened = await openTree(store, layout);
  equalValue(reopened.hash(), expected.hash(), "root reopened from the store");
  const numbers = [...model.keys()];
  const values = await reopened.getMany(numbers.map(scenarioKey));
  for (let i = 0; i < numbers.length; i++) {
    equalValue(values[i], model.get(numbers[i]!), `value of key ${numbers[i]} after reopening`);
  }
  if (store.entries === undefined) return;
  const reference = new MemoryStore();
  const fresh = freshTree(model, layout, reference);
  await fresh.persist();
  const [have, want] = [await nodeEntries(store), await nodeEntries(reference)];
  if (have.length !== want.length || have.some((line, i) => line !== want[i])) {
    const extra = have.filter((line) => !want.includes(line)).slice(0, 3);
    const missing = want.filter((line) => !have.includes(line)).slice(0, 3);
    fail(
      `the store holds ${have.length} node blobs, a fresh tree of the same entries ${want.length}; stray: ${extra.join(" ")}; missing: ${missing.join(" ")}`,
    );
  }
}

function freshTree(
  model: Map<number, Uint8Array>,
  layout: { groupDepth: number; deletionMode: DeletionMode },
  store?: KVStore,
): BinaryTree {
  const tree = new BinaryTree({ ...layout, store });
  for (const [k, v] of model) tree.put(scenarioKey(k), v);
  return tree;
}

/** "key=value" lines (hex) of every node blob, in key order. */
async function nodeEntries(store: KVStore): Promise<string[]> {
  const out: string[] = [];
  const gte = NODE_KEY_PREFIX;
  const lt = NODE_KEY_PREFIX.slice();
  lt[lt.length - 1]!++;
  for await (const [key, value] of store.entries!({ gte, lt })) {
    if (compareBytes(key, gte) >= 0) out.push(`${hex(key)}=${hex(value)}`);
  }
  return out;
}

function numbers(seed: number): () => number {
  let x = seed >>> 0 || 0x9e3779b9;
  return () => {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return x;
  };
}

function bytesOf(seed: number, n: number): Uint8Array {
  const next = numbers(seed);
  return Uint8Array.from({ length: n }, () => next() & 0xff);
}
