/**
 * A NodeRef is a uint32: the top 2 bits say which pool (the node kind), the low 30 bits are the
 * index in that pool. No JavaScript object exists per node; this number is the node.
 */
export type NodeRef = number;

export const KIND_EMPTY = 0;
export const KIND_INTERNAL = 1;
export const KIND_STEM = 2;
export const KIND_HASHED = 3;

export const EMPTY_REF: NodeRef = 0;

/** Largest pool index a NodeRef can carry (2^30 - 1). */
export const MAX_POOL_INDEX = 0x3fffffff;

export function makeRef(kind: number, index: number): NodeRef {
  return ((kind << 30) | index) >>> 0;
}

export function refKind(ref: NodeRef): number {
  return ref >>> 30;
}

export function refIndex(ref: NodeRef): number {
  return ref & MAX_POOL_INDEX;
}

/** Node flags: hash stale = cached hash must be recomputed; blob stale = stored blob must be rewritten. */
export const FLAG_HASH_STALE = 1;
export const FLAG_BLOB_STALE = 2;
export const FLAGS_STALE = FLAG_HASH_STALE | FLAG_BLOB_STALE;
/** A blob for this node is stored at its current path (so moving or removing it orphans that path). */
export const FLAG_PERSISTED = 4;
/** Internal nodes: read since the eviction clock last passed (second chance before eviction). */
export const FLAG_REFERENCED = 8;
/** Internal nodes: the slot is on the free list (the eviction clock skips it). */
export const FLAG_FREE = 16;
/**
 * Internal nodes: GroupBlobCache.keep stored this group root's blob since
 * the node was allocated (a fresh or reused slot never has it, so an entry left by an earlier
 * occupant of the index is never trusted).
 */
export const FLAG_GROUP_CACHED = 32;
/**
 * Internal nodes: the child on the left (right) side may have a stale blob. Set whenever that
 * child gets one (a write's path, a split, a collapse, an allocation with FLAG_BLOB_STALE sets
 * both), cleared with the node's own blob-stale flag once a commit wrote everything below it. So
 * a clear hint means the child's blob is clean: the commit then skips the child without reading
 * its record (on a large tree nearly every such read is a cache miss).
 */
export const FLAG_STALE_LEFT = 64;
export const FLAG_STALE_RIGHT = 128;
export const FLAGS_STALE_CHILDREN = FLAG_STALE_LEFT | FLAG_STALE_RIGHT;
