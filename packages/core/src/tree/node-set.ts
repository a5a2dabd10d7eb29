/** One node to store: its path key (packed bits + length byte), its hash and its blob. */
export interface NodeWrite {
  readonly path: Uint8Array;
  readonly hash: Uint8Array;
  readonly blob: Uint8Array;
}

/**
 * What a commit produces: the root, the nodes to write (children before parents) and the paths
 * whose stored blobs are no longer part of the tree.
 */
export interface NodeSet {
  readonly root: Uint8Array;
  readonly groupDepth: number;
  readonly writes: NodeWrite[];
  readonly deletes: Uint8Array[];
}
