/**
 * What a depth-k partition (the stems whose first k key bits are one value) holds: the parallel
 * root (node/) and the partitioned streaming build (builder/) both merge partitions by it.
 */
export const PARTITION_EMPTY = 0;
/**
 * Exactly one stem: its hash does not depend on its depth, but where it ends up does (the
 * neighbouring partitions decide), so the merge of the top places it.
 */
export const PARTITION_STEM = 1;
/** Two or more stems: an internal node at depth k, its subtree complete. */
export const PARTITION_SUBTREE = 2;
