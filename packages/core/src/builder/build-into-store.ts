import { NODE_KEY_PREFIX, nodeDbKey } from "@bintrie/codec";
import { bytesToHex } from "../bytes/hex.js";
import { DEFAULT_KEY_SCHEME } from "../embedding/key-scheme.js";
import type { BatchOperation, KVStore } from "../store/kv-store.js";
import { encodeRootRecord, ROOT_RECORD_KEY } from "../store/root-record.js";
import type { NodeWrite } from "../tree/node-set.js";
import type { BuildSource } from "./build-input.js";
import { type BuildResult, type BuildTreeOptions, buildTree } from "./build-tree.js";
import { BuilderError } from "./builder-error.js";

/** Default bound on the bytes (keys + values) of one store batch. */
export const DEFAULT_MAX_BATCH_BYTES = 4 * 1024 * 1024;

export interface BuildIntoStoreOptions extends BuildTreeOptions {
  /** Prefix of node keys. Default "vA" (go-ethereum's pathdb layout). */
  readonly keyPrefix?: Uint8Array;
  /** Store key of the root record. Default "bintrie:root". */
  readonly rootRecordKey?: Uint8Array;
  /** Upper bound on the key + value bytes of one store batch. Default 4 MiB. */
  readonly maxBatchBytes?: number;
}

export interface BuildIntoStoreResult extends BuildResult {
  /** Store batches written, the last one holding the root node and the root record. */
  readonly batches: number;
}

/**
 * Streams sorted input into `store` as a committed tree: node records go out in atomic batches
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
  source: BuildSource,
  options: BuildIntoStoreOptions = {},
): Promise<BuildIntoStoreResult> {
  const keyPrefix = options.keyPrefix ?? NODE_KEY_PREFIX;
  const rootRecordKey = options.rootRecordKey ?? ROOT_RECORD_KEY;
  const maxBatchBytes = options.maxBatchBytes ?? DEFAULT_MAX_BATCH_BYTES;
  if (!Number.isSafeInteger(maxBatchBytes) || maxBatchBytes < 1) {
    throw new BuilderError(
      "INVALID_OPTION",
      `maxBatchBytes must be a positive integer, got ${String(maxBatchBytes)}`,
    );
  }
  await assertNoCommittedTree(store, keyPrefix, rootRecordKey);

  let ops: BatchOperation[] = [];
  let bytes = 0;
  let batches = 0;
  // One batch in flight while the builder hashes the next one (the store writes in the
  // background); a rejection surfaces at the next flush, and the final batch (root node + root
  // record) goes only after every earlier batch resolved.
  let inFlight: Promise<void> | undefined;
  const flush = async (last: boolean): Promise<void> => {
    const batch = ops;
    ops = [];
    bytes = 0;
    batches++;
    if (inFlight !== undefined) await inFlight;
    inFlight = undefined;
    if (last) await store.batch(batch);
    else {
      const pending = store.batch(batch);
      // Handled here so a rejection is not unhandled before the next flush awaits it.
      pending.catch(() => {});
      inFlight = pending;
    }
  };
  const sink = {
    async write(nodes: NodeWrite[]): Promise<void> {
      for (const node of nodes) {
        const key = nodeDbKey(node.path, keyPrefix);
        const size = key.length + node.blob.length;
        // Flush before adding, never after: the last node (the root) always stays for the
        // final batch with the root record.
        if (ops.length > 0 && bytes + size > maxBatchBytes) await flush(false);
        ops.push({ type: "put", key, value: node.blob });
        bytes += size;
      }
    },
  };
  let result: BuildResult;
  try {
    result = await buildTree(source, sink, options);
  } catch (error) {
    // Do not leave a batch running behind a failed build.
    if (inFlight !== undefined) await inFlight.catch(() => {});
    throw error;
  }
  ops.push({
    type: "put",
    key: rootRecordKey,
    value: encodeRootRecord({
      root: result.root,
      groupDepth: result.groupDepth,
      scheme: options.scheme ?? DEFAULT_KEY_SCHEME,
    }),
  });
  await flush(true);
  return { ...result, batches };
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
