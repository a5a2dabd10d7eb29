import {
  assertKnownOptions,
  describeValue,
  MAX_GROUP_DEPTH,
  NODE_KEY_PREFIX,
  nodeDbKey,
} from "@bintrie/codec";
import { bytesToHex } from "../bytes/hex.js";
import { DEFAULT_KEY_SCHEME, hashFunctionOfScheme } from "../embedding/key-scheme.js";
import { optionKeys } from "../options/known-options.js";
import { isStore, type KVStore } from "../store/kv-store.js";
import { encodeRootRecord, ROOT_RECORD_KEY } from "../store/root-record.js";
import { DEFAULT_GROUP_DEPTH } from "../tree/binary-tree.js";
import { recordKeyClash } from "../tree/record-key-clash.js";
import { BatchWriter } from "./batch-writer.js";
import {
  type BuildInput,
  type BuildSource,
  type PackedEntries,
  packedRecordOffset,
} from "./build-input.js";
import { buildPartitionedIntoStore } from "./build-partitioned.js";
import { addInput, type BuildResult, type BuildTreeOptions } from "./build-tree.js";
import { BuilderError } from "./builder-error.js";
import type { PartitionPool } from "./partition-pool.js";
import type { HashedStems, StemHashPool } from "./stem-hash-pool.js";
import { StemPacker } from "./stem-packer.js";
import { assertStemBatchSize, StreamingBuilder } from "./streaming-builder.js";

/** Default bound on the bytes (keys + values) of one store batch. */
export const DEFAULT_MAX_BATCH_BYTES = 16 * 1024 * 1024;

export interface BuildIntoStoreOptions extends BuildTreeOptions {
  /** Prefix of node keys. Default "vA" (go-ethereum's pathdb layout). */
  readonly keyPrefix?: Uint8Array;
  /** Store key of the root record. Default "bintrie:root". */
  readonly rootRecordKey?: Uint8Array;
  /** Upper bound on the key + value bytes of one store batch. Default 16 MiB. */
  readonly maxBatchBytes?: number;
  /**
   * Hashes the stems of packed entries elsewhere (e.g. `openStemHashWorkers()` from
   * `@bintrie/core/node`) while this thread places them, emits nodes and writes batches.
   * Other sources ignore it. Default: stems are hashed on this thread.
   */
  readonly stemHashPool?: StemHashPool;
  /**
   * Builds whole partitions of packed entries elsewhere (e.g. `openPartitionWorkers()` from
   * `@bintrie/core/node`): stem hashing, node placement, internal hashing and record encoding
   * all leave this thread, which only writes the partitions' batches and merges the top. Takes
   * precedence over `stemHashPool`; other sources ignore it. The nodes, root and root record are
   * the same as without it (batches differ: one or more per partition).
   */
  readonly partitionPool?: PartitionPool;
}

const BUILD_INTO_STORE_OPTION_KEYS = optionKeys<BuildIntoStoreOptions>()([
  "groupDepth",
  "scheme",
  "hasher",
  "stemBatchSize",
  "keyPrefix",
  "rootRecordKey",
  "maxBatchBytes",
  "stemHashPool",
  "partitionPool",
]);

export interface BuildIntoStoreResult extends BuildResult {
  /** Store batches written, the last one holding the root node and the root record. */
  readonly batches: number;
}

/**
 * Streams sorted input (entries or stems, or packed entries: one buffer of 64-byte records and
 * their key order) into `store` as a committed tree: node records go out in atomic batches
 * of at most `maxBatchBytes`, and the last batch holds the root node together with the same
 * root record a commit writes, so `openTree(store)` opens the result like any committed tree.
 *
 * Safety: nodes are stored by path, so writing a new tree over a committed one in several
 * batches could, if interrupted, leave the old root pointing at overwritten nodes. The builder
 * therefore only writes where no tree is committed: if the store holds a root record at
 * `rootRecordKey` or a root node under `keyPrefix`, it refuses with
 * BuilderError('STORE_NOT_EMPTY') before writing anything. An interrupted build leaves neither
 * (both go in the final batch), so it can simply be run again; the nodes it left behind are
 * unreachable and are overwritten by the rerun. To build next to a live tree, use a fresh
 * `keyPrefix` and `rootRecordKey` and switch readers over once the build returns.
 *
 * @example
 * ```ts
 * import { MemoryStore, openTree } from "@bintrie/core";
 * import { buildTreeIntoStore } from "@bintrie/core/builder";
 *
 * const store = new MemoryStore();
 * const key = new Uint8Array(32).fill(1);
 * const { root } = await buildTreeIntoStore(store, [{ key, value: new Uint8Array(32).fill(2) }]);
 * (await openTree(store)).hash(); // equals root
 * ```
 */
export async function buildTreeIntoStore(
  store: KVStore,
  source: BuildSource | PackedEntries,
  options: BuildIntoStoreOptions = {},
): Promise<BuildIntoStoreResult> {
  if (!isStore(store)) {
    throw new BuilderError(
      "INVALID_OPTION",
      `buildTreeIntoStore: store must be a KVStore (get, getMany, batch), got ${describeValue(store)}`,
    );
  }
  assertKnownOptions(options, BUILD_INTO_STORE_OPTION_KEYS, "buildTreeIntoStore", BuilderError);
  const keyPrefix = options.keyPrefix ?? NODE_KEY_PREFIX;
  const rootRecordKey = options.rootRecordKey ?? ROOT_RECORD_KEY;
  for (const [name, bytes] of [
    ["keyPrefix", keyPrefix],
    ["rootRecordKey", rootRecordKey],
  ] as const) {
    if (!(bytes instanceof Uint8Array)) {
      throw new BuilderError(
        "INVALID_OPTION",
        `buildTreeIntoStore: ${name} must be a Uint8Array, got ${describeValue(bytes)}`,
      );
    }
  }
  const clash = recordKeyClash(keyPrefix, rootRecordKey);
  if (clash !== undefined) throw new BuilderError("INVALID_OPTION", `buildTreeIntoStore: ${clash}`);
  const maxBatchBytes = options.maxBatchBytes ?? DEFAULT_MAX_BATCH_BYTES;
  if (!Number.isSafeInteger(maxBatchBytes) || maxBatchBytes < 1) {
    throw new BuilderError(
      "INVALID_OPTION",
      `maxBatchBytes must be a positive integer, got ${String(maxBatchBytes)}`,
    );
  }
  assertPools(options);
  await assertNoCommittedTree(store, keyPrefix, rootRecordKey);
  if (options.partitionPool !== undefined && isPackedEntries(source)) {
    const groupDepth = options.groupDepth ?? DEFAULT_GROUP_DEPTH;
    assertGroupDepthOption(groupDepth);
    // Not used on this path (the workers batch their own stems), but refused alike when bad.
    if (options.stemBatchSize !== undefined) assertStemBatchSize(options.stemBatchSize);
    const built = await buildPartitionedIntoStore(store, source, options.partitionPool, {
      groupDepth,
      ...(options.scheme === undefined ? {} : { scheme: options.scheme }),
      ...(options.hasher === undefined ? {} : { hasher: options.hasher }),
      keyPrefix,
      rootRecordKey,
      maxBatchBytes,
    });
    return {
      root: built.root,
      groupDepth,
      stems: built.stems,
      nodes: built.nodes,
      batches: built.batches,
    };
  }
  const writer = new BatchWriter(store, maxBatchBytes, keyPrefix.length);
  const builder = new StreamingBuilder({
    ...(options.groupDepth === undefined ? {} : { groupDepth: options.groupDepth }),
    ...(options.scheme === undefined ? {} : { scheme: options.scheme }),
    ...(options.hasher === undefined ? {} : { hasher: options.hasher }),
    ...(options.stemBatchSize === undefined ? {} : { stemBatchSize: options.stemBatchSize }),
    keyPrefix,
    onRecord: (key, blob) => writer.add(key, blob),
  });
  let root: Uint8Array;
  try {
    if (isPackedEntries(source)) {
      if (options.stemHashPool === undefined) await addPacked(builder, source, writer);
      else await addPackedHashed(builder, source, writer, options.stemHashPool);
    } else if (isAsyncIterable(source)) {
      for await (const item of source) {
        addInput(builder, item);
        if (writer.ready) await writer.writeReady();
      }
    } else if (isIterable(source)) {
      for (const item of source) {
        addInput(builder, item);
        if (writer.ready) await writer.writeReady();
      }
    } else {
      throw new BuilderError(
        "INVALID_INPUT",
        `buildTreeIntoStore: source must be an iterable, an async iterable or packed entries, got ${describeValue(source)}`,
      );
    }
    root = builder.finish();
  } catch (error) {
    // Do not leave a batch running behind a failed build.
    await writer.abandon();
    throw error;
  }
  const batches = await writer.finish(
    rootRecordKey,
    encodeRootRecord({
      root,
      groupDepth: builder.groupDepth,
      scheme: options.scheme ?? DEFAULT_KEY_SCHEME,
    }),
  );
  return {
    root,
    groupDepth: builder.groupDepth,
    stems: builder.stemCount,
    nodes: builder.nodeCount,
    batches,
  };
}

/** Feeds packed sorted records, handing full batches to the writer between entries. */
async function addPacked(
  builder: StreamingBuilder,
  source: PackedEntries,
  writer: BatchWriter,
): Promise<void> {
  const { records, order } = source;
  for (let i = 0; i < order.length; i++) {
    builder.addEntryAt(records, order[i]! * 64);
    if (writer.ready) await writer.writeReady();
  }
}

/** Stems per chunk sent to a stem hash pool. */
const POOL_CHUNK_STEMS = 4096;
/** Chunks hashing at once: one being hashed while the next is packed and sent. */
const POOL_CHUNKS_IN_FLIGHT = 3;

/**
 * Packed entries with the stem hashes from a pool: chunks of stems go out to be hashed while
 * earlier chunks are placed (addHashedStem) and written, a few chunks in flight.
 */
async function addPackedHashed(
  builder: StreamingBuilder,
  source: PackedEntries,
  writer: BatchWriter,
  pool: StemHashPool,
): Promise<void> {
  const { records, order } = source;
  const packer = new StemPacker(POOL_CHUNK_STEMS);
  const inFlight: Promise<HashedStems>[] = [];
  const send = (stems: Parameters<StemHashPool["hash"]>[0]) => {
    const hashed = pool.hash(stems);
    // Awaited in order below; handled here so a later chunk's failure is not unhandled meanwhile.
    hashed.catch(() => {});
    inFlight.push(hashed);
  };
  const place = async ({ stems, hashes }: HashedStems): Promise<void> => {
    const { bytes, offsets, count } = stems;
    for (let s = 0; s < count; s++) {
      builder.addHashedStem(
        bytes.subarray(offsets[s]!, offsets[s + 1]!),
        hashes.subarray(s << 5, (s << 5) + 32),
      );
      if (writer.ready) await writer.writeReady();
    }
  };
  try {
    for (let i = 0; i < order.length; i++) {
      // The packer reads the record as it is (no checks of its own): bounds first.
      packer.add(records, packedRecordOffset(source, i));
      if (packer.ready) {
        send(packer.takeReady());
        if (inFlight.length >= POOL_CHUNKS_IN_FLIGHT) await place(await inFlight.shift()!);
      }
    }
    const last = packer.finish();
    if (last.count > 0) send(last);
    while (inFlight.length > 0) await place(await inFlight.shift()!);
  } finally {
    // After a failure: let the chunks still hashing finish before the caller moves on.
    await Promise.allSettled(inFlight);
  }
}

/**
 * The worker pools, when given: the right shape, and a stem hash pool hashing with the build's
 * own function (stems hashed with another would be stored under this build's root record).
 */
function assertPools(options: BuildIntoStoreOptions): void {
  const { stemHashPool, partitionPool } = options;
  if (partitionPool !== undefined) {
    if (partitionPool === null || typeof partitionPool.build !== "function") {
      throw new BuilderError(
        "INVALID_OPTION",
        `buildTreeIntoStore: partitionPool must be a PartitionPool (build(job)), got ${describeValue(partitionPool)}`,
      );
    }
  }
  if (stemHashPool === undefined) return;
  if (stemHashPool === null || typeof stemHashPool.hash !== "function") {
    throw new BuilderError(
      "INVALID_OPTION",
      `buildTreeIntoStore: stemHashPool must be a StemHashPool (hashFunction, hash(stems)), got ${describeValue(stemHashPool)}`,
    );
  }
  const buildHash =
    options.hasher?.name ?? hashFunctionOfScheme(options.scheme ?? DEFAULT_KEY_SCHEME);
  if (stemHashPool.hashFunction !== buildHash) {
    throw new BuilderError(
      "INVALID_OPTION",
      `buildTreeIntoStore: stemHashPool hashes with ${String(stemHashPool.hashFunction)}, this build with ${buildHash} (open the pool with the build's scheme)`,
    );
  }
}

function isPackedEntries(x: unknown): x is PackedEntries {
  return (
    x !== null &&
    typeof x === "object" &&
    (x as PackedEntries).records instanceof Uint8Array &&
    (x as PackedEntries).order instanceof Uint32Array
  );
}

function isAsyncIterable(x: unknown): x is AsyncIterable<BuildInput> {
  return x !== null && typeof x === "object" && Symbol.asyncIterator in x;
}

function isIterable(x: unknown): x is Iterable<BuildInput> {
  return x !== null && typeof x === "object" && Symbol.iterator in x;
}

async function assertNoCommittedTree(
  store: KVStore,
  keyPrefix: Uint8Array,
  rootRecordKey: Uint8Array,
): Promise<void> {
  const rootNodeKey = nodeDbKey(new Uint8Array(0), keyPrefix);
  const [record, rootNode] = await store.getMany([rootRecordKey, rootNodeKey]);
  if (record !== undefined) {
    throw new BuilderError(
      "STORE_NOT_EMPTY",
      `the store already holds a root record at ${bytesToHex(rootRecordKey)}: building over a committed tree could break it if interrupted; use an empty store or a fresh keyPrefix and rootRecordKey`,
    );
  }
  if (rootNode !== undefined) {
    throw new BuilderError(
      "STORE_NOT_EMPTY",
      `the store already holds a root node at ${bytesToHex(rootNodeKey)}: building over a committed tree could break it if interrupted; use an empty store or a fresh keyPrefix`,
    );
  }
}

function assertGroupDepthOption(groupDepth: number): void {
  if (!Number.isInteger(groupDepth) || groupDepth < 0 || groupDepth > MAX_GROUP_DEPTH) {
    throw new BuilderError(
      "INVALID_OPTION",
      `group depth must be an integer 0..${MAX_GROUP_DEPTH}, got ${String(groupDepth)}`,
    );
  }
}
