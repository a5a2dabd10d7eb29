import type { HashFunctionName } from "../hash/hasher.js";

/**
 * Stem blobs (01 ‖ stem ‖ bitmap ‖ values) back to back: blob i is
 * `bytes[offsets[i], offsets[i + 1])`, for i < count.
 */
export interface PackedStems {
  readonly bytes: Uint8Array;
  readonly offsets: Uint32Array;
  readonly count: number;
}

/** Packed stems with their hashes: stem i's hash is `hashes[32i, 32i + 32)`. */
export interface HashedStems {
  readonly stems: PackedStems;
  readonly hashes: Uint8Array;
}

/**
 * Hashes chunks of stems somewhere else (e.g. on worker threads) while the builder places the
 * previous chunk: stem hashes do not depend on the tree. `hash` may take the chunk's buffers
 * (transfer them to a worker): the caller uses the chunk it gets back, not the one it gave.
 * Chunks may be hashed concurrently; each promise resolves with its own chunk.
 */
export interface StemHashPool {
  /** The hash function the pool hashes with: a build refuses a pool whose function is not its own. */
  readonly hashFunction: HashFunctionName;
  hash(stems: PackedStems): Promise<HashedStems>;
}
