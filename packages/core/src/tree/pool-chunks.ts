import { MAX_POOL_INDEX } from "./node-ref.js";
import { TreeError } from "./tree-error.js";

/** Pools grow in fixed chunks so growth never copies existing nodes (and never doubles memory). */
export const CHUNK_BITS = 12;
export const CHUNK_SIZE = 1 << CHUNK_BITS;
export const CHUNK_MASK = CHUNK_SIZE - 1;

export function assertPoolIndex(pool: string, index: number, limit = MAX_POOL_INDEX): void {
  if (index > limit) {
    const bound = limit === MAX_POOL_INDEX ? "2^30 - 1" : String(limit);
    throw new TreeError("POOL_EXHAUSTED", `${pool} pool is full: index ${index} exceeds ${bound}`);
  }
}
