import { bytesToHex } from "../bytes/hex.js";
import {
  DEFAULT_KEY_SCHEME,
  hashFunctionOfScheme,
  type KeyScheme,
} from "../embedding/key-scheme.js";
import { getHasher } from "../hash/get-hasher.js";
import type { Hasher } from "../hash/hasher.js";
import type { KVStore } from "../store/kv-store.js";
import { encodeRootRecord } from "../store/root-record.js";
import { type PackedEntries, packedRecordOffset } from "./build-input.js";
import { BuilderError } from "./builder-error.js";
import { type PackedBatch, PackedRecords, writePackedBatch } from "./packed-records.js";
import { type PartitionOutput, partitionDepth } from "./partition-build.js";
import { PARTITION_STEM } from "./partition-kind.js";
import type { PartitionPool } from "./partition-pool.js";
import { emitTopRecords } from "./top-records.js";

/**
 * Partitions being built at once, at least: enough to keep two workers busy while outputs are
 * written. A pool that says how many jobs it runs at once gets twice that many.
 */
const MIN_PARTITIONS_IN_FLIGHT = 4;

export interface PartitionedBuildOptions {
  readonly groupDepth: number;
  readonly scheme?: KeyScheme;
  readonly hasher?: Hasher;
  readonly keyPrefix: Uint8Array;
  readonly rootRecordKey: Uint8Array;
  readonly maxBatchBytes: number;
}

export interface PartitionedBuildResult {
  readonly root: Uint8Array;
  readonly stems: number;
  readonly nodes: number;
  readonly batches: number;
}

/**
 * Packed entries into an empty store, the partitions built by `pool` (other threads) while this
 * thread writes what they return: each partition's records go out as they arrive, in key order;
 * the records above depth 8, the nodes above the partitions, the lone stems and the root record
 * go in the last batch. A failure anywhere stops before that batch, so the store holds no root
 * record and no root node (the build can be run again), as with the one-thread build.
 */
export async function buildPartitionedIntoStore(
  store: KVStore,
  source: PackedEntries,
  pool: PartitionPool,
  options: PartitionedBuildOptions,
): Promise<PartitionedBuildResult> {
  const scheme = options.scheme ?? DEFAULT_KEY_SCHEME;
  const hasher = options.hasher ?? getHasher(hashFunctionOfScheme(scheme));
  if (hasher.name !== hashFunctionOfScheme(scheme)) {
    throw new BuilderError(
      "INVALID_OPTION",
      `hasher '${hasher.name}' does not match key scheme '${scheme}'`,
    );
  }
  const { groupDepth, keyPrefix, maxBatchBytes } = options;
  const k = partitionDepth(groupDepth);
  const width = 1 << k;
  const records = inKeyOrder(source);
  const count = source.order.length;
  const bounds = partitionBounds(records, count, k);
  const kinds = new Uint8Array(width);
  const hashes = new Uint8Array(width * 32);
  const stemBlobs: (Uint8Array | undefined)[] = [];
  const final = new PackedRecords();
  let stems = 0;
  let nodes = 0;
  let batches = 0;
  const jobs: Promise<PartitionOutput>[] = [];
  let nextJob = 0;
  const jobsAtOnce = Math.max(MIN_PARTITIONS_IN_FLIGHT, 2 * (pool.workers ?? 0));
  const dispatch = () => {
    while (nextJob < width && jobs.length < jobsAtOnce) {
      const p = nextJob++;
      const start = bounds[p]!;
      const end = bounds[p + 1]!;
      if (start === end) continue;
      const built = pool.build({
        records,
        start,
        end,
        depth: k,
        groupDepth,
        scheme,
        keyPrefix,
        maxBatchBytes,
      });
      built.catch(() => {});
      jobs.push(built);
    }
  };
  let inFlight: Promise<void> | undefined;
  const write = async (batch: PackedBatch) => {
    const started = writePackedBatch(store, batch);
    started.catch(() => {});
    batches++;
    const previous = inFlight;
    inFlight = started;
    if (previous !== undefined) await previous;
  };
  try {
    dispatch();
    for (let p = 0; p < width; p++) {
      if (bounds[p] === bounds[p + 1]) continue;
      const out = await jobs.shift()!;
      dispatch();
      kinds[p] = out.kind;
      hashes.set(out.hash, p << 5);
      if (out.kind === PARTITION_STEM) stemBlobs[p] = out.stem;
      stems += out.stems;
      nodes += out.held.count;
      final.appendBatch(out.held);
      for (const batch of out.batches) {
        nodes += batch.count;
        await write(batch);
      }
    }
    const root = emitTopRecords(
      { depth: k, kinds, hashes, stems: stemBlobs },
      groupDepth,
      keyPrefix,
      hasher,
      (key, blob) => {
        nodes++;
        final.append(key, blob);
      },
    );
    final.append(options.rootRecordKey, encodeRootRecord({ root, groupDepth, scheme }));
    const last = final.take();
    const previous = inFlight;
    inFlight = undefined;
    await previous;
    batches++;
    await writePackedBatch(store, last);
    return { root, stems, nodes, batches };
  } finally {
    // After a failure: let the partitions still building and the write in flight settle.
    await Promise.allSettled([...jobs, ...(inFlight === undefined ? [] : [inFlight])]);
  }
}

/** The records in key order: the buffer itself when `order` is 0, 1, 2, …, else a gathered copy. */
function inKeyOrder({ records, order }: PackedEntries): Uint8Array {
  let identity = true;
  for (let i = 0; i < order.length && identity; i++) identity = order[i] === i;
  if (identity) return records;
  const out = new Uint8Array(order.length << 6);
  for (let i = 0; i < order.length; i++) {
    const from = packedRecordOffset({ records, order }, i);
    out.set(records.subarray(from, from + 64), i << 6);
  }
  return out;
}

/**
 * Checks that keys strictly increase (the builder's errors) and returns where each depth-k
 * partition starts: partition p is records bounds[p]..bounds[p + 1]-1.
 */
function partitionBounds(records: Uint8Array, count: number, k: number): Uint32Array {
  if (records.length < count << 6) {
    throw new BuilderError(
      "INVALID_INPUT",
      `packed entries: ${count} entries need ${count << 6} bytes of records, got ${records.length}`,
    );
  }
  const width = 1 << k;
  const bounds = new Uint32Array(width + 1);
  let p = 0;
  for (let i = 0; i < count; i++) {
    const at = i << 6;
    if (i > 0) {
      let order = 0;
      for (let b = 0; b < 32 && order === 0; b++) order = records[at + b]! - records[at - 64 + b]!;
      if (order <= 0) throwOrder(records, at, order === 0);
    }
    const part = records[at]! >>> (8 - k);
    while (p < part) bounds[++p] = i;
  }
  while (p < width) bounds[++p] = count;
  return bounds;
}

function throwOrder(records: Uint8Array, at: number, duplicate: boolean): never {
  const key = bytesToHex(records.subarray(at, at + 32));
  if (duplicate)
    throw new BuilderError("DUPLICATE_KEY", `duplicate key ${key}: it was already added`);
  throw new BuilderError(
    "KEY_OUT_OF_ORDER",
    `key ${key} does not follow the previous key ${bytesToHex(records.subarray(at - 64, at - 32))} (keys must strictly increase)`,
  );
}
