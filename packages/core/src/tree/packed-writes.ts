import { PACKED_ENTRY_WORDS } from "./node-set.js";

/** Bytes per chunk: far above the largest write (a 256-entry group or stem blob, ~8.3 KiB). */
const CHUNK_BYTES = 1 << 20;
/** Spare chunks kept for reuse: a block's node set fits (a full commit's does not need to). */
const MAX_SPARE_CHUNKS = 16;

/**
 * Appends writes (`prefix ‖ path ‖ hash ‖ blob`) into fresh 1 MiB chunks for one commit.
 * `begin(maxBytes)` reserves room for a whole write in the current chunk (opening a new chunk
 * when it does not fit), the caller fills `chunk` from `at`, then `end(...)` records it.
 */
export class PackedWrites {
  chunks: Uint8Array[] = [];
  entries = new Uint32Array(1024);
  count = 0;
  /** The chunk being filled and the next free byte in it. */
  chunk: Uint8Array = new Uint8Array(0);
  at = 0;
  /** Chunks of finished node sets, handed back by `recycle`. */
  readonly #spare: Uint8Array[] = [];

  reset(): void {
    // A fresh array of the old one's element kind (`[]` would change the array's map, and the
    // optimised `begin` would deoptimise on its first push of each commit).
    this.chunks = this.chunks.slice(0, 0);
    this.entries = new Uint32Array(1024);
    this.count = 0;
    this.chunk = new Uint8Array(0);
    this.at = 0;
  }

  /** Makes room for `maxBytes` at `this.at` in `this.chunk`. */
  begin(maxBytes: number): void {
    if (this.at + maxBytes > this.chunk.length) {
      // A spare chunk's pages are mapped already: a fresh one costs a page fault per 4 KiB
      // written (about 0.5 ms per MiB here), more than filling it.
      this.chunk =
        maxBytes <= CHUNK_BYTES && this.#spare.length > 0
          ? this.#spare.pop()!
          : new Uint8Array(Math.max(CHUNK_BYTES, maxBytes));
      this.chunks.push(this.chunk);
      this.at = 0;
    }
  }

  /** Records the write laid out at [at, blobEnd) of the current chunk (hash at hashStart). */
  end(hashStart: number, blobEnd: number): void {
    if ((this.count + 1) * PACKED_ENTRY_WORDS > this.entries.length) {
      const grown = new Uint32Array(this.entries.length * 2);
      grown.set(this.entries);
      this.entries = grown;
    }
    const e = this.count * PACKED_ENTRY_WORDS;
    this.entries[e] = this.chunks.length - 1;
    this.entries[e + 1] = this.at;
    this.entries[e + 2] = hashStart;
    this.entries[e + 3] = hashStart + 32;
    this.entries[e + 4] = blobEnd;
    this.count++;
    this.at = blobEnd;
  }

  /**
   * Takes back the chunks of a node set nothing refers to any more (a persist's, once its store
   * batch has taken the spans: the store keeps no reference to them). The next commits write
   * into them. Never pass the chunks of a set a caller may still hold.
   */
  recycle(chunks: readonly Uint8Array[]): void {
    for (const chunk of chunks) {
      if (this.#spare.length >= MAX_SPARE_CHUNKS) return;
      if (chunk.length === CHUNK_BYTES && !this.chunks.includes(chunk)) this.#spare.push(chunk);
    }
  }
}
