/**
 * Memory a bulk build has finished with (its sort's spare chunks and the write log's chunks it
 * has placed, already touched), handed out again as the slabs of the pools the build fills. A fresh slab costs a page fault per
 * 4 KiB on first touch — on a virtual machine about as much as writing the page several times —
 * so reusing the log's 64 MiB spares the build as many faults. Lent only during one build: what
 * is left at its end is dropped, not kept.
 */
export class SlabRecycler {
  /** Donated buffers with room left, and how much of each is handed out. */
  #buffers: Uint8Array[] = [];
  #used: number[] = [];

  /** Adds buffers (each 4-byte aligned) nothing else reads or writes any more. */
  donate(buffers: readonly Uint8Array[]): void {
    for (const buffer of buffers) this.donateOne(buffer);
  }

  donateOne(buffer: Uint8Array | undefined): void {
    if (buffer === undefined || buffer.byteOffset % 4 !== 0) return;
    this.#buffers.push(buffer);
    this.#used.push(0);
  }

  /**
   * A 4-byte-aligned view of `bytes` bytes (a multiple of 4) from the first buffer with room
   * (the pools ask for a few sizes, so a buffer's tail serves the smaller ones), or undefined
   * when none has room. Zeroed unless `zeroed` is false: slabs whose every byte is written
   * before it is read (hashes, values, scratch) skip the fill.
   */
  take(bytes: number, zeroed = true): Uint8Array | undefined {
    const buffers = this.#buffers;
    const used = this.#used;
    for (let k = 0; k < buffers.length; k++) {
      const buffer = buffers[k]!;
      const at = used[k]!;
      if (buffer.length - at < bytes) continue;
      used[k] = at + bytes;
      const slab = buffer.subarray(at, at + bytes);
      if (zeroed) slab.fill(0);
      return slab;
    }
    return undefined;
  }

  clear(): void {
    this.#buffers = [];
    this.#used = [];
  }
}

/** A Uint32Array over exactly the bytes of `bytes` (which may be a view into a larger buffer). */
export function wordsOf(bytes: Uint8Array): Uint32Array {
  return new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.length >>> 2);
}
