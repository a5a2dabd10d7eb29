import { BinaryTree, getHasher, type KVStore, openTree } from "@bintrie/core";
import { hex } from "./bytes.js";
import { type Sha256, sharedUpdate, sharedWorkloadWith } from "./shared-workload.js";

/**
 * The store benchmark on the project's shared workload (key_i = sha256(uint64_be(i)),
 * value_i = sha256(key_i), then 1,000 updates; shared/spec/peer-ethereumjs.md §2): commit the
 * N-key tree into a fresh store, reopen it and read keys back. Prints one line per phase.
 */
export interface StoreBenchOptions {
  readonly label: string;
  readonly n: number;
  /** Opens the same (initially empty) store again; called once to write and once to reopen. */
  readonly open: () => Promise<KVStore>;
}

export interface StoreBenchResult {
  readonly lines: string[];
  readonly rootAfterInsert: string;
  readonly rootAfterUpdates: string;
  readonly mismatches: number;
}

const hasher = getHasher("sha256");
const sha256: Sha256 = (data) => hasher.digest(data);

function rate(count: number, ms: number): string {
  const perSecond = (count / ms) * 1000;
  return perSecond >= 1e6
    ? `${(perSecond / 1e6).toFixed(2)}M/s`
    : `${Math.round(perSecond / 1000)}k/s`;
}

function mbps(bytes: number, ms: number): string {
  return `${(bytes / 1024 / 1024 / (ms / 1000)).toFixed(1)} MiB/s`;
}

/** Wraps a store to add up the time and keys of its getMany calls. */
function timeReads(inner: KVStore): {
  store: KVStore;
  reset(): void;
  snapshot(): { ms: number; keys: number; calls: number };
} {
  let ms = 0;
  let keys = 0;
  let calls = 0;
  const store: KVStore = {
    get: (key) => inner.get(key),
    async getMany(list) {
      const start = performance.now();
      const out = await inner.getMany(list);
      ms += performance.now() - start;
      keys += list.length;
      calls++;
      return out;
    },
    batch: (operations) => inner.batch(operations),
    close: () => inner.close(),
  };
  return {
    store,
    reset() {
      ms = 0;
      keys = 0;
      calls = 0;
    },
    snapshot: () => ({ ms, keys, calls }),
  };
}

export async function runStoreBench(options: StoreBenchOptions): Promise<StoreBenchResult> {
  const { label, n } = options;
  const lines: string[] = [];
  const say = (line: string) => lines.push(`${label} | ${line}`);
  const { keys, values } = sharedWorkloadWith(sha256, n);

  const store = await options.open();
  const tree = new BinaryTree({ store });
  let t = performance.now();
  for (let i = 0; i < n; i++) tree.put(keys[i]!, values[i]!);
  const putMs = performance.now() - t;

  t = performance.now();
  const set = tree.commit();
  const commitMs = performance.now() - t;
  const ops = tree.nodeSetOperations(set);
  let bytes = 0;
  for (const op of ops) bytes += op.key.length + (op.type === "put" ? op.value.length : 0);
  t = performance.now();
  await store.batch(ops);
  const writeMs = performance.now() - t;
  const nodes = set.writes.length;
  say(`insert ${n} keys in memory: ${putMs.toFixed(0)} ms`);
  say(
    `persist = commit ${commitMs.toFixed(0)} ms (hash + encode) + store batch ${writeMs.toFixed(0)} ms: ${nodes} nodes, ${(bytes / 1024 / 1024).toFixed(1)} MiB`,
  );
  say(
    `  store write: ${rate(nodes, writeMs)} nodes, ${mbps(bytes, writeMs)}; whole persist: ${rate(nodes, commitMs + writeMs)} nodes, ${mbps(bytes, commitMs + writeMs)}`,
  );
  const rootAfterInsert = hex(set.root);
  await store.close();

  t = performance.now();
  const reopenedStore = await options.open();
  const timed = timeReads(reopenedStore);
  const reopened = await openTree(timed.store);
  const openMs = performance.now() - t;
  const sample = Math.min(10_000, n);
  timed.reset();
  t = performance.now();
  const got = await reopened.getMany(keys.slice(0, sample));
  const sampleMs = performance.now() - t;
  const sampleReads = timed.snapshot();
  let mismatches = 0;
  for (let i = 0; i < sample; i++) if (hex(got[i]!) !== hex(values[i]!)) mismatches++;
  say(
    `reopen ${openMs.toFixed(0)} ms, then getMany of ${sample} keys (cold): ${sampleMs.toFixed(0)} ms = ${rate(sample, sampleMs)} keys`,
  );
  say(
    `  of which in store.getMany: ${sampleReads.ms.toFixed(0)} ms for ${sampleReads.keys} node reads in ${sampleReads.calls} calls = ${rate(sampleReads.keys, sampleReads.ms)} reads`,
  );

  timed.reset();
  t = performance.now();
  const rest = await reopened.getMany(keys.slice(sample));
  const restMs = performance.now() - t;
  const restReads = timed.snapshot();
  for (let i = sample; i < n; i++) if (hex(rest[i - sample]!) !== hex(values[i]!)) mismatches++;
  say(
    `getMany of the other ${n - sample} keys: ${restMs.toFixed(0)} ms = ${rate(n - sample, restMs)} keys (store.getMany ${restReads.ms.toFixed(0)} ms for ${restReads.keys} node reads = ${rate(restReads.keys, restReads.ms)} reads)`,
  );

  const updates = [];
  for (let k = 0; k < 1000; k++) {
    const { j, value } = sharedUpdate(sha256, k, n, values);
    updates.push({ key: keys[j]!, value });
  }
  t = performance.now();
  await reopened.putMany(updates);
  const rootAfterUpdates = hex(await reopened.persist());
  const updateMs = performance.now() - t;
  say(`1,000 updates + persist: ${updateMs.toFixed(0)} ms`);

  if (typeof reopenedStore.entries === "function") {
    let scanned = 0;
    let scannedBytes = 0;
    t = performance.now();
    for await (const [key, value] of reopenedStore.entries()) {
      scanned++;
      scannedBytes += key.length + value.length;
    }
    const scanMs = performance.now() - t;
    say(
      `entries() scan: ${scanned} entries in ${scanMs.toFixed(0)} ms = ${rate(scanned, scanMs)}, ${mbps(scannedBytes, scanMs)}`,
    );
  }
  await reopenedStore.close();
  say(`root ${rootAfterInsert}, after updates ${rootAfterUpdates}, value mismatches ${mismatches}`);
  return { lines, rootAfterInsert, rootAfterUpdates, mismatches };
}
