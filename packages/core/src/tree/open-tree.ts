import type { KVStore } from "../store/kv-store.js";
import { decodeRootRecord, ROOT_RECORD_KEY, type RootRecord } from "../store/root-record.js";
import { StoreError } from "../store/store-error.js";
import { BinaryTree, type BinaryTreeOptions, DEFAULT_GROUP_DEPTH } from "./binary-tree.js";
import { BINARY_TREE_OPTION_KEYS, validateTreeOptions } from "./tree-options.js";

const OPEN_TREE_OPTION_KEYS = [...BINARY_TREE_OPTION_KEYS.filter((k) => k !== "store"), "root"];

export interface OpenTreeOptions extends Omit<BinaryTreeOptions, "store"> {
  /** The root to open. Default: the latest committed root from the store's root record. */
  readonly root?: Uint8Array;
}

/** The MPT empty root; geth treats it as an empty binary tree too. */
const MPT_EMPTY_ROOT = [
  0x56, 0xe8, 0x1f, 0x17, 0x1b, 0xcc, 0x55, 0xa6, 0xff, 0x83, 0x45, 0xe6, 0x92, 0xc0, 0xf8, 0x6e,
  0x5b, 0x48, 0xe0, 0x1b, 0x99, 0x6c, 0xad, 0xc0, 0x01, 0x62, 0x2f, 0xb5, 0xe3, 0x63, 0xb4, 0x21,
];

/**
 * Opens the tree stored in `store`: the root from options or from the root record, loading the
 * root node now and everything else on demand. Opening with a group depth or key scheme other
 * than the record's is a StoreError('ROOT_RECORD_MISMATCH'), never a silently wrong tree.
 */
export async function openTree(store: KVStore, options: OpenTreeOptions = {}): Promise<BinaryTree> {
  validateTreeOptions(options, "openTree", OPEN_TREE_OPTION_KEYS);
  const { root: rootOption, ...treeOptions } = options;
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

function isEmptyRoot(root: Uint8Array): boolean {
  let zero = true;
  let mpt = root.length === 32;
  for (let i = 0; i < root.length; i++) {
    if (root[i] !== 0) zero = false;
    if (root[i] !== MPT_EMPTY_ROOT[i]) mpt = false;
  }
  return zero || mpt;
}
