/** A leaf position p = treeIndex * 256 + subIndex, as the key derivation sees it. */
export interface TreeLocation {
  /** Hashed with the address into the stem; up to 2^249 for main storage. */
  readonly treeIndex: bigint;
  /** Last key byte, 0..255. */
  readonly subIndex: number;
}
