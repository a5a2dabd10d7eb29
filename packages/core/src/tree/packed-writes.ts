import { PACKED_ENTRY_WORDS } from "./node-set.js";

/** Bytes per chunk: far above the largest write (a 256-entry group or stem blob, ~8.3 KiB). */
const CHUNK_BYTES = 1 << 20;

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
  chunk = new Uint8Array(0);
  at = 0;

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
      this.chunk = new Uint8Array(Math.max(CHUNK_BYTES, maxBytes));
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
}
