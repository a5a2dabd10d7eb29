// Packed entries (one buffer of 64-byte records + their key order) into a store, with and without
// stem hash workers. The workers load the built worker script: this test imports core's dist.
import { createHash } from "node:crypto";
import { encodeStemBlobFromSlots, NODE_KEY_PREFIX, nodeDbKey } from "@bintrie/codec";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  BuilderError,
  buildTreeIntoStore,
  type PackedStems,
  StreamingBuilder,
} from "../dist/builder/index.js";
import { type BatchOperation, MemoryStore, openTree, ROOT_RECORD_KEY } from "../dist/index.js";
import {
  openPartitionWorkers,
  openStemHashWorkers,
  type PartitionWorkers,
  type StemHashWorkers,
} from "../dist/node/index.js";
// Not exported: the bundled dist has no stem-packer.js of its own.
import { StemPacker } from "../src/builder/stem-packer.js";
import { RecordingStore } from "./helpers/recording-store.js";
import { bytes, hex, readTestdata } from "./helpers/shared.js";

interface NodeSetCase {
  name: string;
  root: string;
  entries: { key: string; value: string }[];
  nodesets: Record<string, { path: string; hash: string; blob: string }[]>;
}
const { cases } = readTestdata<{ cases: NodeSetCase[] }>("geth/geth-nodesets.json");

let pool: StemHashWorkers;
let partitions: PartitionWorkers;
beforeAll(async () => {
  pool = await openStemHashWorkers({ workers: 1 });
  partitions = await openPartitionWorkers({ workers: 2 });
});
afterAll(async () => {
  await pool.close();
  await partitions.close();
});

/** Entries as packed records in a shuffled physical order, with the order that sorts them. */
function packed(entries: readonly { key: Uint8Array; value: Uint8Array }[], seed = 1) {
  // Later entries win, then strictly increasing keys.
  const byKey = new Map<string, { key: Uint8Array; value: Uint8Array }>();
  for (const e of entries) byKey.set(hex(e.key), e);
  const sorted = [...byKey.keys()].sort().map((k) => byKey.get(k)!);
  const slots = sorted.map((_, i) => i);
  let s = seed;
  for (let i = slots.length - 1; i > 0; i--) {
    s = (s * 1103515245 + 12345) >>> 0;
    const j = s % (i + 1);
    [slots[i], slots[j]] = [slots[j]!, slots[i]!];
  }
  const records = new Uint8Array(sorted.length * 64);
  const order = new Uint32Array(sorted.length);
  sorted.forEach((e, rank) => {
    const at = slots[rank]!;
    records.set(e.key, at * 64);
    records.set(e.value, at * 64 + 32);
    order[rank] = at;
  });
  return { records, order };
}

/** The same, receiving the builder's batches through the optional batchPacked. */
class PackedRecordingStore extends RecordingStore {
  packedCalls = 0;
  async batchPacked(bytes: Uint8Array, ends: Uint32Array, count: number) {
    this.packedCalls++;
    const ops: BatchOperation[] = [];
    let start = 0;
    for (let i = 0; i < count; i++) {
      const key = bytes.slice(start, ends[2 * i]);
      const value = bytes.slice(ends[2 * i], ends[2 * i + 1]);
      ops.push({ type: "put", key, value });
      start = ends[2 * i + 1]!;
    }
    await this.batch(ops);
  }
}

/** The node puts of a recorded build as {path, blob} hex, sorted by key. */
function nodePuts(store: RecordingStore): { path: string; blob: string }[] {
  const out: { path: string; blob: string }[] = [];
  for (const op of store.batches.flat()) {
    if (op.type !== "put" || hex(op.key) === hex(ROOT_RECORD_KEY)) continue;
    out.push({ path: hex(op.key.subarray(NODE_KEY_PREFIX.length)), blob: hex(op.value) });
  }
  return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

function sharedWorkload(n: number) {
  const index = Buffer.alloc(8);
  const entries: { key: Uint8Array; value: Uint8Array }[] = [];
  for (let i = 0; i < n; i++) {
    index.writeBigUInt64BE(BigInt(i));
    const key = createHash("sha256").update(index).digest();
    entries.push({ key, value: createHash("sha256").update(key).digest() });
  }
  return entries;
}

describe("packed entries into a store", () => {
  const modes = [
    ["on this thread", () => ({})],
    ["stems hashed by a worker", () => ({ stemHashPool: pool })],
    ["partitions built by workers", () => ({ partitionPool: partitions })],
  ] as const;

  for (const [mode, extra] of modes) {
    it(`${mode}: every geth node set, byte for byte`, async () => {
      let checked = 0;
      for (const c of cases) {
        const entries = c.entries.map((e) => ({ key: bytes(e.key), value: bytes(e.value) }));
        for (const [g, expected] of Object.entries(c.nodesets)) {
          const store = new RecordingStore();
          const result = await buildTreeIntoStore(store, packed(entries), {
            groupDepth: Number(g),
            ...extra(),
          });
          expect(hex(result.root), `${c.name} g=${g}`).toBe(c.root);
          const want = expected
            .map((n) => ({ path: n.path, blob: n.blob }))
            .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
          expect(nodePuts(store), `${c.name} g=${g}`).toEqual(want);
          checked += expected.length;
        }
      }
      expect(checked).toBeGreaterThan(1000);
    });

    it(`${mode}: geth's root of the 10k shared workload, and the store opens to it`, async () => {
      // `geth-bintrie speed 10000` (go-ethereum 02b73d4ea7181464175e0a6cbecc0a3a2655a562).
      const GETH_ROOT_10K = "0x18e08444214b1aeecfbb72f3a60da2e373f8efcb2d457287233b6315523d5333";
      const store = new MemoryStore();
      const entries = sharedWorkload(10_000);
      const result = await buildTreeIntoStore(store, packed(entries, 7), extra());
      expect(hex(result.root)).toBe(GETH_ROOT_10K);
      const tree = await openTree(store);
      expect(hex(tree.hash())).toBe(GETH_ROOT_10K);
      const [value] = await tree.getMany([entries[1234]!.key]);
      expect(hex(value!)).toBe(hex(entries[1234]!.value));
    });

    it(`${mode}: a repeated or out-of-order key fails with the addEntry codes, nothing committed`, async () => {
      const entries = sharedWorkload(6000);
      const { records, order } = packed(entries);
      const repeated = Uint32Array.from([...order.subarray(0, 5000), order[4999]!]);
      const swapped = order.slice();
      [swapped[5000], swapped[5001]] = [swapped[5001]!, swapped[5000]!];
      for (const [bad, code] of [
        [repeated, "DUPLICATE_KEY"],
        [swapped, "KEY_OUT_OF_ORDER"],
      ] as const) {
        const store = new RecordingStore();
        const failure = await buildTreeIntoStore(
          store,
          { records, order: bad },
          { maxBatchBytes: 4096, ...extra() },
        ).catch((e: unknown) => e);
        expect(failure).toBeInstanceOf(BuilderError);
        expect((failure as BuilderError).code).toBe(code);
        expect(await store.get(ROOT_RECORD_KEY)).toBeUndefined();
        expect(await store.get(NODE_KEY_PREFIX)).toBeUndefined();
      }
    });
  }

  it("equals the entry-by-entry builder for any key set (shared stems, chunk boundaries)", async () => {
    const key = fc
      .tuple(fc.constantFrom(0x00, 0x01, 0x80), fc.uint8Array({ minLength: 30, maxLength: 30 }))
      .chain(([top, rest]) =>
        fc
          .uniqueArray(fc.integer({ min: 0, max: 255 }), { minLength: 1, maxLength: 4 })
          .map((subs) =>
            subs.map((sub) => {
              const k = new Uint8Array(32);
              k[0] = top;
              k.set(rest, 1);
              k[31] = sub;
              return k;
            }),
          ),
      );
    await fc.assert(
      fc.asyncProperty(
        fc.array(key, { minLength: 1, maxLength: 60 }),
        fc.integer({ min: 0, max: 8 }),
        fc.constantFrom("none", "stems", "partitions"),
        fc.boolean(),
        async (groups, groupDepth, workers, packedStore) => {
          const entries = groups
            .flat()
            .map((k, i) => ({ key: k, value: new Uint8Array(32).fill(i % 251) }));
          const source = packed(entries, groups.length);
          // Reference: the same sorted entries through addEntry, records by onNode.
          const want: { path: string; blob: string }[] = [];
          const reference = new StreamingBuilder({
            groupDepth,
            onNode: (n) => want.push({ path: hex(n.path), blob: hex(n.blob) }),
          });
          for (const at of source.order) {
            reference.addEntry(
              source.records.subarray(at * 64, at * 64 + 32),
              source.records.subarray(at * 64 + 32, at * 64 + 64),
            );
          }
          const root = reference.finish();
          const store = packedStore ? new PackedRecordingStore() : new RecordingStore();
          const result = await buildTreeIntoStore(store, source, {
            groupDepth,
            maxBatchBytes: 512,
            ...(workers === "stems" ? { stemHashPool: pool } : {}),
            ...(workers === "partitions" ? { partitionPool: partitions } : {}),
          });
          expect(hex(result.root)).toBe(hex(root));
          if (store instanceof PackedRecordingStore) {
            expect(store.packedCalls).toBe(store.batches.length);
          }
          want.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
          expect(nodePuts(store)).toEqual(want);
          // The root node and the root record share the last batch; the others keep the bound.
          const last = store.batches.at(-1)!.map((op) => hex(op.key));
          expect(last).toContain(hex(ROOT_RECORD_KEY));
          expect(last).toContain(hex(NODE_KEY_PREFIX));
          for (const batch of store.batches.slice(0, -1)) {
            const size = batch.reduce(
              (n, op) => n + op.key.length + (op.type === "put" ? op.value.length : 0),
              0,
            );
            expect(size).toBeLessThanOrEqual(512);
          }
        },
      ),
      { numRuns: 100 },
    );
  });

  it("partition workers: equal the entry-by-entry builder with keys spread over the partitions", async () => {
    // First bytes from the whole range (lone stems in many partitions, the top merge places them)
    // and around partition edges (0x07/0x08, 0xf8: long prefixes shared across a boundary).
    const key = fc
      .tuple(
        fc.oneof(fc.integer({ min: 0, max: 255 }), fc.constantFrom(0x07, 0x08, 0xf8, 0xff)),
        fc.constantFrom(0x00, 0xff, 0x10),
        fc.uint8Array({ minLength: 30, maxLength: 30 }),
      )
      .map(([a, b, rest]) => {
        const k = new Uint8Array(32);
        k[0] = a;
        k[1] = b;
        k.set(rest.subarray(0, 29), 2);
        k[31] = rest[29]! & 3;
        return k;
      });
    let runs = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(key, { minLength: 1, maxLength: 80 }),
        fc.integer({ min: 0, max: 8 }),
        fc.integer({ min: 64, max: 4096 }),
        async (keys, groupDepth, maxBatchBytes) => {
          runs++;
          const entries = keys.map((k, i) => ({ key: k, value: new Uint8Array(32).fill(i % 253) }));
          const source = packed(entries, keys.length);
          const want: { path: string; blob: string }[] = [];
          const reference = new StreamingBuilder({
            groupDepth,
            onNode: (n) => want.push({ path: hex(n.path), blob: hex(n.blob) }),
          });
          for (const at of source.order) {
            reference.addEntry(
              source.records.subarray(at * 64, at * 64 + 32),
              source.records.subarray(at * 64 + 32, at * 64 + 64),
            );
          }
          const root = reference.finish();
          const store = new PackedRecordingStore();
          const result = await buildTreeIntoStore(store, source, {
            groupDepth,
            maxBatchBytes,
            partitionPool: partitions,
          });
          expect(hex(result.root)).toBe(hex(root));
          expect(result.nodes).toBe(want.length);
          expect(result.stems).toBe(reference.stemCount);
          want.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
          expect(nodePuts(store)).toEqual(want);
          const last = store.batches.at(-1)!.map((op) => hex(op.key));
          expect(last).toContain(hex(ROOT_RECORD_KEY));
          expect(last).toContain(hex(NODE_KEY_PREFIX));
          expect(hex((await openTree(store)).hash())).toBe(hex(root));
        },
      ),
      { numRuns: 150 },
    );
    expect(runs).toBe(150);
  });

  const pools = [
    ["stem hash workers", () => ({ stemHashPool: pool })],
    ["partition workers", () => ({ partitionPool: partitions })],
  ] as const;

  it.each(pools)(
    "%s: batches hold whole depth-8 subtrees: disjoint, increasing key ranges (LevelDB only moves files)",
    async (_, extra) => {
      const store = new RecordingStore();
      await buildTreeIntoStore(store, packed(sharedWorkload(10_000)), {
        maxBatchBytes: 64 * 1024,
        ...extra(),
      });
      const p = NODE_KEY_PREFIX.length;
      const depthOf = (key: Uint8Array) => (key.length > p ? key[key.length - 1]! : 0);
      const nodes = (batch: BatchOperation[]) =>
        batch.filter((op) => hex(op.key) !== hex(ROOT_RECORD_KEY));
      expect(store.batches.length).toBeGreaterThan(10);
      let previousMax = -1;
      for (const batch of store.batches.slice(0, -1)) {
        const ranges = nodes(batch).map((op) => {
          expect(depthOf(op.key)).toBeGreaterThanOrEqual(8);
          return op.key[p]!;
        });
        expect(Math.min(...ranges)).toBeGreaterThan(previousMax);
        previousMax = Math.max(...ranges);
      }
      // The records above depth 8 (their keys lie inside every range) come with the root.
      const last = nodes(store.batches.at(-1)!);
      expect(last.filter((op) => depthOf(op.key) < 8).length).toBe(
        store.batches
          .flat()
          .filter((op) => hex(op.key) !== hex(ROOT_RECORD_KEY) && depthOf(op.key) < 8).length,
      );
      expect(last.some((op) => op.key.length === p)).toBe(true);
    },
  );

  it.each(pools)(
    "%s: a failed write stops the build before its root record; the rerun completes it",
    async (_, extra) => {
      const entries = sharedWorkload(3000);
      const source = packed(entries);
      const store = new RecordingStore();
      store.failAt = 2;
      await expect(
        buildTreeIntoStore(store, source, { maxBatchBytes: 8192, ...extra() }),
      ).rejects.toThrow("simulated crash");
      expect(await store.get(ROOT_RECORD_KEY)).toBeUndefined();
      expect(await store.get(NODE_KEY_PREFIX)).toBeUndefined();
      store.failAt = -1;
      const result = await buildTreeIntoStore(store, source, {
        maxBatchBytes: 8192,
        ...extra(),
      });
      expect(hex((await openTree(store)).hash())).toBe(hex(result.root));
    },
  );

  it("a failing stem hash pool fails the build with its error; nothing is committed", async () => {
    const failing = {
      hashFunction: "sha256" as const,
      hash: () => Promise.reject(new BuilderError("WORKER_FAILED", "gone")),
    };
    const store = new RecordingStore();
    const failure = await buildTreeIntoStore(store, packed(sharedWorkload(20)), {
      stemHashPool: failing,
    }).catch((e: unknown) => e);
    expect((failure as BuilderError).code).toBe("WORKER_FAILED");
    expect(await store.get(ROOT_RECORD_KEY)).toBeUndefined();
  });

  it("a failing partition pool fails the build with its error; nothing is committed", async () => {
    const failing = { build: () => Promise.reject(new BuilderError("WORKER_FAILED", "gone")) };
    const store = new RecordingStore();
    const failure = await buildTreeIntoStore(store, packed(sharedWorkload(200)), {
      partitionPool: failing,
    }).catch((e: unknown) => e);
    expect((failure as BuilderError).code).toBe("WORKER_FAILED");
    expect(store.batches).toEqual([]);
  });

  it("a partition worker given a bad job rejects with WORKER_FAILED and keeps serving", async () => {
    // Keys out of order inside one partition: the worker's builder refuses them.
    const records = new Uint8Array(128);
    records[1] = 2;
    records[65] = 1;
    const job = {
      records,
      start: 0,
      end: 2,
      depth: 5,
      groupDepth: 5,
      scheme: "sha256-be",
      keyPrefix: NODE_KEY_PREFIX,
      maxBatchBytes: 1 << 20,
    } as const;
    const failure = await partitions.build(job).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(BuilderError);
    expect((failure as BuilderError).code).toBe("WORKER_FAILED");
    records[65] = 3;
    const good = await partitions.build(job);
    expect(good.kind).toBe(2);
    expect(good.stems).toBe(2);
  });

  it("a worker given a malformed stem blob rejects with WORKER_FAILED and keeps serving", async () => {
    const bad: PackedStems = {
      bytes: new Uint8Array(64).fill(7),
      offsets: Uint32Array.of(0, 64),
      count: 1,
    };
    const failure = await pool.hash(bad).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(BuilderError);
    expect((failure as BuilderError).code).toBe("WORKER_FAILED");
    const slots: (Uint8Array | undefined)[] = new Array(256);
    slots[3] = new Uint8Array(32).fill(9);
    const blob = encodeStemBlobFromSlots(new Uint8Array(31).fill(1), slots);
    const good = await pool.hash({
      bytes: blob.slice(),
      offsets: Uint32Array.of(0, blob.length),
      count: 1,
    });
    expect(good.hashes).toHaveLength(32);
    expect(hex(good.stems.bytes)).toBe(hex(blob));
  });
});

describe("StemPacker", () => {
  it("packs sorted entries into the codec's stem blobs, in chunks of any size", () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.uint8Array({ minLength: 2, maxLength: 2 }), {
          minLength: 1,
          maxLength: 80,
          selector: (k) => `${k[0]},${k[1]}`,
        }),
        fc.integer({ min: 1, max: 6 }),
        (shortKeys, maxStems) => {
          // key = k0 ‖ 29 zero bytes ‖ (k1 & 3) ‖ k1 : few stems, several values each.
          const keys = shortKeys
            .map(([a, b]) => {
              const k = new Uint8Array(32);
              k[0] = a!;
              k[30] = b! & 3;
              k[31] = b!;
              return k;
            })
            .sort((x, y) => (hex(x) < hex(y) ? -1 : 1));
          const records = new Uint8Array(keys.length * 64);
          keys.forEach((k, i) => {
            records.set(k, i * 64);
            records.fill(i + 1, i * 64 + 32, i * 64 + 64);
          });
          const packer = new StemPacker(maxStems);
          const chunks: PackedStems[] = [];
          for (let i = 0; i < keys.length; i++) {
            packer.add(records, i * 64);
            while (packer.ready) chunks.push(packer.takeReady());
          }
          chunks.push(packer.finish());
          const got = chunks.flatMap((c) =>
            Array.from({ length: c.count }, (_, s) =>
              hex(c.bytes.subarray(c.offsets[s]!, c.offsets[s + 1]!)),
            ),
          );
          // Reference: group by stem, encode with the codec.
          const want: string[] = [];
          let i = 0;
          while (i < keys.length) {
            const stem = keys[i]!.subarray(0, 31);
            const slots: (Uint8Array | undefined)[] = new Array(256);
            while (i < keys.length && hex(keys[i]!.subarray(0, 31)) === hex(stem)) {
              slots[keys[i]![31]!] = records.subarray(i * 64 + 32, i * 64 + 64);
              i++;
            }
            want.push(hex(encodeStemBlobFromSlots(stem, slots)));
          }
          expect(got).toEqual(want);
          for (const c of chunks.slice(0, -1)) expect(c.count).toBe(maxStems);
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe("StreamingBuilder record targets", () => {
  it("onRecord gets nodeDbKey(path) and the blob of each onNode record, in order", () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.uint8Array({ minLength: 32, maxLength: 32 }), {
          minLength: 1,
          maxLength: 40,
          selector: (k) => hex(k),
        }),
        fc.integer({ min: 0, max: 8 }),
        fc.uint8Array({ maxLength: 3 }),
        (keys, groupDepth, prefix) => {
          keys.sort((a, b) => (hex(a) < hex(b) ? -1 : 1));
          const value = new Uint8Array(32).fill(5);
          const nodes: string[] = [];
          const records: string[] = [];
          const a = new StreamingBuilder({
            groupDepth,
            onNode: (n) => nodes.push(`${hex(nodeDbKey(n.path, prefix))} ${hex(n.blob)}`),
          });
          const b = new StreamingBuilder({
            groupDepth,
            keyPrefix: prefix,
            onRecord: (key, blob) => records.push(`${hex(key)} ${hex(blob)}`),
          });
          const packedKeys = new Uint8Array(keys.length * 64);
          keys.forEach((k, i) => {
            a.addEntry(k, value);
            packedKeys.set(k, i * 64);
            packedKeys.set(value, i * 64 + 32);
            b.addEntryAt(packedKeys, i * 64);
          });
          expect(hex(b.finish())).toBe(hex(a.finish()));
          expect(records).toEqual(nodes);
        },
      ),
      { numRuns: 150 },
    );
  });

  it("refuses both or neither target, and a bad addEntryAt range", () => {
    const codeOf = (f: () => unknown) => {
      try {
        f();
      } catch (e) {
        return (e as BuilderError).code;
      }
      return "no error";
    };
    expect(codeOf(() => new StreamingBuilder({}))).toBe("INVALID_OPTION");
    expect(codeOf(() => new StreamingBuilder({ onNode: () => {}, onRecord: () => {} }))).toBe(
      "INVALID_OPTION",
    );
    const builder = new StreamingBuilder({ onRecord: () => {} });
    expect(codeOf(() => builder.addEntryAt(new Uint8Array(64), 1))).toBe("INVALID_INPUT");
    expect(codeOf(() => builder.addEntryAt(new Uint8Array(64), -64))).toBe("INVALID_INPUT");
    builder.addEntryAt(new Uint8Array(64).fill(2), 0);
    expect(codeOf(() => builder.addEntryAt(new Uint8Array(64).fill(2), 0))).toBe("DUPLICATE_KEY");
    expect(codeOf(() => builder.addEntryAt(new Uint8Array(64).fill(1), 0))).toBe(
      "KEY_OUT_OF_ORDER",
    );
  });
});
