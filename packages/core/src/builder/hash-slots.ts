import { copy8, zero8 } from "../hash/word-copy.js";

/** Depths an internal node can sit at (0..247); one resident slot per depth. */
export const FRAME_SLOTS = 248;
/** Resident slot of the stem whose depth is not known yet (it waits for its right neighbour). */
export const DEFERRED_SLOT = FRAME_SLOTS;
/** Slots below this survive from one batch to the next; the ones above are reused per batch. */
export const RESIDENT_SLOTS = FRAME_SLOTS + 1;
/** An absent child: hashes as 32 zero bytes. */
export const EMPTY_SLOT = -1;

/**
 * A growable table of 32-byte hashes addressed by slot number, so the builder can refer to a
 * hash before it is computed and hash whole batches of nodes in one call.
 */
export class HashSlots {
  bytes = new Uint8Array(32 * 4096);
  /** Word view of `bytes` (slot s = words[8s, 8s + 8)), for aligned copies on hot paths. */
  words = new Uint32Array(this.bytes.buffer);

  /** Makes room for slots 0..count-1, keeping the hashes already stored. */
  ensure(count: number): void {
    if (count * 32 <= this.bytes.length) return;
    let size = this.bytes.length;
    while (size < count * 32) size *= 2;
    const grown = new Uint8Array(size);
    grown.set(this.bytes);
    this.bytes = grown;
    this.words = new Uint32Array(grown.buffer);
  }

  /** Copies slot `from` into slot `to`. */
  copy(from: number, to: number): void {
    this.bytes.copyWithin(to << 5, from << 5, (from << 5) + 32);
  }

  /** A new array holding the hash in `slot`. */
  take(slot: number): Uint8Array {
    return this.bytes.slice(slot << 5, (slot << 5) + 32);
  }

  /** Writes the hash in `slot` (or 32 zero bytes for EMPTY_SLOT) to out[offset..offset+32). */
  write(slot: number, out: Uint8Array, offset: number): void {
    // Byte loops rather than set(subarray(…)): no view object per hash on this hot path.
    if (slot === EMPTY_SLOT) {
      for (let i = 0; i < 32; i++) out[offset + i] = 0;
      return;
    }
    const bytes = this.bytes;
    const from = slot << 5;
    for (let i = 0; i < 32; i++) out[offset + i] = bytes[from + i]!;
  }

  /** Writes the hash in `slot` (zeros for EMPTY_SLOT) to out[word..word+8) of a word view. */
  writeWords(slot: number, out: Uint32Array, word: number): void {
    if (slot === EMPTY_SLOT) zero8(out, word);
    else copy8(this.words, slot << 3, out, word);
  }

  /** Stores src[word..word+8) of a word view as the hash in `slot`. */
  readWords(slot: number, src: Uint32Array, word: number): void {
    copy8(src, word, this.words, slot << 3);
  }

  /** Stores src[offset..offset+32) as the hash in `slot` (the table must hold the slot). */
  read(slot: number, src: Uint8Array, offset: number): void {
    const bytes = this.bytes;
    const to = slot << 5;
    for (let i = 0; i < 32; i++) bytes[to + i] = src[offset + i]!;
  }
}
