import { PACKED_ENTRY_WORDS } from "./node-set.js";

/** Bytes per chunk: far above the largest write (a 256-entry group or stem blob, ~8.3 KiB). */
const CHUNK_BYTES = 1 << 20;
/** Spare chunks kept for reuse: a block's node set fits (a full commit's does not need to). */
const MAX_SPARE_CHUNKS = 16;
/** The most writes a new set's entry table is sized for from the last set (it grows past). */
export const SIZED_WRITES_MAX = 1 << 16;

/**
 * Appends writes (`prefix ‖ path ‖ hash ‖ blob`) into fresh 1 MiB chunks for one commit.
 * `begin(keyBytes, restBytes)` reserves room for a whole write in the current chunk (opening a
 * new chunk when it does not fit) and word-aligns its hash, the caller fills `chunk` from `at`,
 * then `end(...)` records it. Writes may be a few bytes apart: each is located by its entry.
 */
export class PackedWrites {
  chunks: Uint8Array[] = [];
  entries = new Uint32Array(1024);
  count = 0;
  /** The chunk being filled, its word view and the next free byte in it. */
  chunk: Uint8Array = new Uint8Array(0);
  chunk32: Uint32Array = new Uint32Array(0);
  at = 0;
  /**
   * Chunks of finished node sets, handed back by `recycle`. Made holding an object, then
   * emptied: a `[]` changes its map at the first recycle (small integers → objects), which
   * deoptimised `begin` and every collector function it is inlined in at the first persist's
   * next collection (seen with --trace-deopt: "wrong map").
   */
  readonly #spare: Uint8Array[] = emptyListOfObjects();

  reset(): void {
    // A fresh array of the old one's element kind (`[]` would change the array's map, and the
    // optimised `begin` would deoptimise on its first push of each commit).
    this.chunks = this.chunks.slice(0, 0);
    // Sized for a set like the last one (the next block's is much the same): no growing copies.
    // Capped: after a whole tree's set (a first persist) the next is a block's again, and
    // zeroing a table for a million writes would cost that block more than growing does.
    const writes = Math.min(this.count + (this.count >>> 2), SIZED_WRITES_MAX);
    this.entries = new Uint32Array(Math.max(1024, writes * PACKED_ENTRY_WORDS));
    this.count = 0;
    this.chunk = new Uint8Array(0);
    this.chunk32 = new Uint32Array(0);
    this.at = 0;
  }

  /**
   * Makes room at `this.at` in `this.chunk` for a write of a `keyBytes`-byte key and `restBytes`
   * after it (hash and blob), and moves `at` up to 3 bytes on so that the hash starts on a word
   * (the collector copies hashes, stems and values as words). Returns where the hash goes.
   */
  begin(keyBytes: number, restBytes: number): number {
    const maxBytes = keyBytes + restBytes + 3;
    if (this.at + maxBytes > this.chunk.length) {
      // A spare chunk's pages are mapped already: a fresh one costs a page fault per 4 KiB
      // written (0.5 ms per MiB on one host, 3 ms on a VM whose host backs memory lazily),
      // more than filling it.
      // `pop` runs whether or not there are spares: a full commit, which has none, then
      // optimises this with feedback for it (a branch first taken later deoptimises).
      const spare = maxBytes <= CHUNK_BYTES ? this.#spare.pop() : undefined;
      this.chunk = spare ?? new Uint8Array(Math.max(CHUNK_BYTES, (maxBytes + 3) & ~3));
      this.chunk32 = new Uint32Array(
        this.chunk.buffer,
        this.chunk.byteOffset,
        this.chunk.length >>> 2,
      );
      this.chunks.push(this.chunk);
      this.at = 0;
    }
    this.at += -(this.at + keyBytes) & 3;
    return this.at + keyBytes;
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
      // Never one chunk twice (two later sets would write into it), nor one being filled.
      if (
        chunk.length === CHUNK_BYTES &&
        !this.chunks.includes(chunk) &&
        !this.#spare.includes(chunk)
      ) {
        this.#spare.push(chunk);
      }
    }
  }
}

/** An empty array whose elements kind is already that of a list of objects. */
function emptyListOfObjects(): Uint8Array[] {
  const list = [new Uint8Array(0)];
  list.pop();
  return list;
}
