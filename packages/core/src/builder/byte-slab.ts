/** Bytes per slab: one buffer per ~64 KiB of records instead of one per record. */
const SLAB_BYTES = 64 * 1024;

/**
 * Hands out fresh, zeroed byte ranges as views of shared 64 KiB slabs. A range is never handed
 * out twice (a full slab is dropped, not reused), so each view belongs to whoever received it;
 * allocating a view is far cheaper than a small typed array with a buffer of its own, and the
 * garbage collector tracks one buffer per slab.
 */
export class ByteSlab {
  #slab = new Uint8Array(0);
  #at = 0;

  /** A new zeroed view of `size` bytes. */
  alloc(size: number): Uint8Array {
    if (size > SLAB_BYTES / 8) return new Uint8Array(size);
    if (this.#at + size > this.#slab.length) {
      this.#slab = new Uint8Array(SLAB_BYTES);
      this.#at = 0;
    }
    const at = this.#at;
    this.#at = at + size;
    return this.#slab.subarray(at, at + size);
  }
}
