import { SPAN_WORDS } from "../store/kv-store.js";

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

/**
 * Words per write in {@link PackedNodeSet.entries}: chunk, key start, hash start (the key's
 * end), blob start (hash start + 32), blob end. The store contract's span puts (SPAN_WORDS) have
 * this layout, so the entries go to `batchWithSpans` as they are.
 */
export const PACKED_ENTRY_WORDS = SPAN_WORDS;

/**
 * A commit's writes packed into a few large byte chunks instead of three arrays per node: each
 * write is `keyPrefix ‖ path ‖ hash (32) ‖ blob`, contiguous in one chunk, located by five words
 * of `entries`. The store key of a write is a view of the chunk, so writing the set allocates
 * no key or value buffers. The object view (`writes`) is built on first use, from views.
 */
export class PackedNodeSet implements NodeSet {
  readonly root: Uint8Array;
  readonly groupDepth: number;
  /** The store-key prefix every packed key starts with. */
  readonly keyPrefix: Uint8Array;
  readonly chunks: readonly Uint8Array[];
  /** [chunk, keyStart, hashStart, blobStart, blobEnd] per write (blobStart = hashStart + 32). */
  readonly entries: Uint32Array;
  readonly count: number;
  readonly deletes: Uint8Array[];
  #writes: NodeWrite[] | undefined;

  constructor(
    root: Uint8Array,
    groupDepth: number,
    keyPrefix: Uint8Array,
    chunks: readonly Uint8Array[],
    entries: Uint32Array,
    count: number,
    deletes: Uint8Array[],
  ) {
    this.root = root;
    this.groupDepth = groupDepth;
    this.keyPrefix = keyPrefix;
    this.chunks = chunks;
    this.entries = entries;
    this.count = count;
    this.deletes = deletes;
  }

  /** The writes as objects (views into the packed chunks), in emission order. */
  get writes(): NodeWrite[] {
    if (this.#writes === undefined) {
      const writes: NodeWrite[] = new Array(this.count);
      const skip = this.keyPrefix.length;
      for (let i = 0; i < this.count; i++) {
        const e = i * PACKED_ENTRY_WORDS;
        const chunk = this.chunks[this.entries[e]!]!;
        const hashStart = this.entries[e + 2]!;
        writes[i] = {
          path: chunk.subarray(this.entries[e + 1]! + skip, hashStart),
          hash: chunk.subarray(hashStart, hashStart + 32),
          blob: chunk.subarray(this.entries[e + 3]!, this.entries[e + 4]!),
        };
      }
      this.#writes = writes;
    }
    return this.#writes;
  }
}
