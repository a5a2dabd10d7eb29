import type { GroupBlob } from "@bintrie/codec";
import type { Hasher } from "@bintrie/core";

/**
 * Hashes group blobs level by level: the internal nodes a group rebuilds are hashed with one
 * batch call per level (at most g calls per group) instead of one call per node. The result is
 * the plain binary-Merkle hash of the subtree, as `groupBlobHash` defines it. Reuses its scratch
 * buffers; not reentrant.
 */
export class GroupHasher {
  readonly #hasher: Hasher;
  // Up to 256 nodes per level (g = 8): prefixes and their hashes, for two levels.
  #prefixes = new Uint16Array(256);
  #nextPrefixes = new Uint16Array(256);
  #hashes = new Uint8Array(256 * 32);
  #nextHashes = new Uint8Array(256 * 32);
  readonly #pairs = new Uint8Array(128 * 64);

  constructor(hasher: Hasher) {
    this.#hasher = hasher;
  }

  /** The group's hash (32 zero bytes for a group without entries), in a new array. */
  hash(group: GroupBlob): Uint8Array {
    const g = group.groupDepth;
    const { positions, depthOffsets, hashes, count } = group;
    if (count === 0) return new Uint8Array(32);
    let n = 0; // nodes on the current level, in increasing prefix order
    for (let level = g; level >= 1; level--) {
      // Merge the entries that sit on this level with the nodes computed from the level below.
      const merged = this.#nextPrefixes;
      const mergedHashes = this.#nextHashes;
      let m = 0;
      let i = 0;
      for (let e = 0; e < count; e++) {
        if (depthOffsets[e] !== level) continue;
        const prefix = positions[e]! >>> (g - level);
        while (i < n && this.#prefixes[i]! < prefix) {
          merged[m] = this.#prefixes[i]!;
          mergedHashes.set(this.#hashes.subarray(i * 32, i * 32 + 32), m * 32);
          m++;
          i++;
        }
        merged[m] = prefix;
        mergedHashes.set(hashes.subarray(e * 32, e * 32 + 32), m * 32);
        m++;
      }
      while (i < n) {
        merged[m] = this.#prefixes[i]!;
        mergedHashes.set(this.#hashes.subarray(i * 32, i * 32 + 32), m * 32);
        m++;
        i++;
      }
      // Pair siblings (a missing sibling is 32 zero bytes) and hash every parent in one call.
      const pairs = this.#pairs;
      let parents = 0;
      for (let k = 0; k < m; parents++) {
        const prefix = merged[k]!;
        const at = parents * 64;
        if ((prefix & 1) === 0) {
          pairs.set(mergedHashes.subarray(k * 32, k * 32 + 32), at);
          if (k + 1 < m && merged[k + 1] === prefix + 1) {
            pairs.set(mergedHashes.subarray((k + 1) * 32, (k + 1) * 32 + 32), at + 32);
            k += 2;
          } else {
            pairs.fill(0, at + 32, at + 64);
            k += 1;
          }
        } else {
          pairs.fill(0, at, at + 32);
          pairs.set(mergedHashes.subarray(k * 32, k * 32 + 32), at + 32);
          k += 1;
        }
        this.#prefixes[parents] = prefix >>> 1;
      }
      this.#hasher.hash64Batch(pairs, 0, parents, this.#hashes, 0);
      n = parents;
    }
    return this.#hashes.slice(0, 32);
  }
}
