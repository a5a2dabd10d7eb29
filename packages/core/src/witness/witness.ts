import type { KeyScheme } from "../embedding/key-scheme.js";

/** One stored node of a witness: its path key (packed bits + length byte) and its stored blob. */
export interface WitnessNode {
  readonly path: Uint8Array;
  readonly blob: Uint8Array;
}

/**
 * What a stateless replay needs: the pre-state root and the stored blobs (as `commit()` and
 * go-ethereum store them, at `groupDepth`) of every node the recorded reads and writes used,
 * in path-key order.
 */
export interface Witness {
  readonly root: Uint8Array;
  readonly groupDepth: number;
  readonly scheme: KeyScheme;
  readonly nodes: readonly WitnessNode[];
}
