import { describeValue } from "@bintrie/codec";
import { describeBytes } from "../bytes/describe-bytes.js";
import { isStore, type KVStore } from "../store/kv-store.js";
import { decodeRootRecord, ROOT_RECORD_KEY, type RootRecord } from "../store/root-record.js";
import { StoreError } from "../store/store-error.js";
import { BinaryTree, type BinaryTreeOptions, DEFAULT_GROUP_DEPTH } from "./binary-tree.js";
import { isEmptyRoot } from "./empty-roots.js";
import { TreeError } from "./tree-error.js";
import { BINARY_TREE_OPTION_KEYS, validateTreeOptions } from "./tree-options.js";

const OPEN_TREE_OPTION_KEYS = [...BINARY_TREE_OPTION_KEYS.filter((k) => k !== "store"), "root"];

export interface OpenTreeOptions extends Omit<BinaryTreeOptions, "store"> {
  /** The root to open. Default: the latest committed root from the store's root record. */
  readonly root?: Uint8Array;
}

/**
 * Opens the tree stored in `store`: the root from options or from the root record, loading the
 * root node now and everything else on demand. Opening with a group depth or key scheme other
 * than the record's is a StoreError('ROOT_RECORD_MISMATCH'), never a silently wrong tree.
 *
 * @example
 * ```ts
 * import { BinaryTree, MemoryStore, openTree } from "@bintrie/core";
 *
 * const store = new MemoryStore();
 * const tree = new BinaryTree({ store, groupDepth: 5 });
 * tree.put(new Uint8Array(32).fill(1), new Uint8Array(32).fill(2));
 * const root = await tree.persist();
 * const again = await openTree(store); // the root record's root, depth and scheme
 * await again.getMany([new Uint8Array(32).fill(1)]); // [value], loaded on demand
 * ```
 */
export async function openTree(store: KVStore, options: OpenTreeOptions = {}): Promise<BinaryTree> {
  if (!isStore(store)) {
    throw new TreeError(
      "INVALID_OPTION",
      `openTree: store must be a KVStore (get, getMany, batch), got ${describeValue(store)}`,
    );
  }
  validateTreeOptions(options, "openTree", OPEN_TREE_OPTION_KEYS);
  const { root: rootOption, ...treeOptions } = options;
  if (rootOption !== undefined && !(rootOption instanceof Uint8Array && rootOption.length === 32)) {
    throw new TreeError(
      "INVALID_OPTION",
      `openTree: root must be 32 bytes, got ${describeBytes(rootOption)}`,
    );
  }
  const recordKey = options.rootRecordKey ?? ROOT_RECORD_KEY;
  const recordBytes = await store.get(recordKey);
  const record: RootRecord | undefined =
    recordBytes === undefined ? undefined : decodeRootRecord(recordBytes);
  if (record !== undefined) {
    if (options.groupDepth !== undefined && options.groupDepth !== record.groupDepth) {
      throw new StoreError(
        "ROOT_RECORD_MISMATCH",
        `the store was committed with group depth ${record.groupDepth}, not ${options.groupDepth}`,
      );
    }
    if (options.scheme !== undefined && options.scheme !== record.scheme) {
      throw new StoreError(
        "ROOT_RECORD_MISMATCH",
        `the store was committed with key scheme '${record.scheme}', not '${options.scheme}'`,
      );
    }
  }
  const tree = new BinaryTree({
    ...treeOptions,
    store,
    groupDepth: options.groupDepth ?? record?.groupDepth ?? DEFAULT_GROUP_DEPTH,
    scheme: options.scheme ?? record?.scheme,
  });
  const root = rootOption ?? record?.root;
  if (root !== undefined && !isEmptyRoot(root)) await tree.openRoot(root);
  return tree;
}
