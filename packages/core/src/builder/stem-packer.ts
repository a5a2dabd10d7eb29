import { bytesToHex } from "../bytes/hex.js";
import { BuilderError } from "./builder-error.js";
import type { PackedStems } from "./stem-hash-pool.js";

const STEM_BLOB_HEADER = 64;
/** The largest stem blob: header and 256 values. */
const MAX_STEM_BLOB = STEM_BLOB_HEADER + 256 * 32;

/**
 * Groups sorted entries (64-byte records: key ‖ value) into stem blobs packed in chunks of
 * `maxStems` stems, checking that keys strictly increase (the errors of
 * StreamingBuilder.addEntry). Every chunk has buffers of its own, so it can be handed to a
 * worker and its blobs to a store.
 */
export class StemPacker {
  readonly #maxStems: number;
  #bytes: Uint8Array;
  #offsets: Uint32Array;
  /** Closed stems in the current chunk. */
  #count = 0;
  /** Start of the open stem's blob, and the end of what is written. */
  #stemAt = 0;
  #end = 0;
  #open = false;
  #lastSub = -1;
  readonly #ready: PackedStems[] = [];

  constructor(maxStems: number) {
    this.#maxStems = maxStems;
    this.#bytes = new Uint8Array(maxStems * 96 + MAX_STEM_BLOB);
    this.#offsets = new Uint32Array(maxStems + 1);
  }

  /** Whether a full chunk waits for `takeReady()`. */
  get ready(): boolean {
    return this.#ready.length > 0;
  }

  /** The oldest full chunk. */
  takeReady(): PackedStems {
    return this.#ready.shift()!;
  }

  /** Adds the entry at `records[offset..offset+64)`. */
  add(records: Uint8Array, offset: number): void {
    const sub = records[offset + 31]!;
    if (this.#open) {
      const order = this.#compareOpenStem(records, offset);
      if (order === 0 && sub > this.#lastSub) {
        this.#appendValue(sub, records, offset + 32);
        return;
      }
      if (order <= 0) this.#throwOrder(records, offset, order === 0 && sub === this.#lastSub);
      this.#closeStem();
    }
    this.#openStem(records, offset);
    this.#appendValue(sub, records, offset + 32);
  }

  /** Closes the open stem; returns the last chunk (possibly empty). */
  finish(): PackedStems {
    if (this.#open) this.#closeStem();
    const last = { bytes: this.#bytes, offsets: this.#offsets, count: this.#count };
    this.#count = 0;
    return last;
  }

  #openStem(records: Uint8Array, offset: number): void {
    if (this.#count === this.#maxStems) {
      this.#ready.push({ bytes: this.#bytes, offsets: this.#offsets, count: this.#count });
      this.#bytes = new Uint8Array(this.#maxStems * 96 + MAX_STEM_BLOB);
      this.#offsets = new Uint32Array(this.#maxStems + 1);
      this.#count = 0;
      this.#end = 0;
    }
    if (this.#end + MAX_STEM_BLOB > this.#bytes.length) {
      const grown = new Uint8Array(this.#bytes.length * 2);
      grown.set(this.#bytes.subarray(0, this.#end));
      this.#bytes = grown;
    }
    const bytes = this.#bytes;
    const at = this.#end;
    this.#stemAt = at;
    this.#offsets[this.#count] = at;
    bytes[at] = 1;
    for (let i = 0; i < 31; i++) bytes[at + 1 + i] = records[offset + i]!;
    // The bitmap bytes are still zero: the buffer is fresh and written once.
    this.#end = at + STEM_BLOB_HEADER;
    this.#open = true;
    this.#lastSub = -1;
  }

  #appendValue(sub: number, records: Uint8Array, at: number): void {
    const bytes = this.#bytes;
    const to = this.#end;
    for (let i = 0; i < 32; i++) bytes[to + i] = records[at + i]!;
    this.#end = to + 32;
    bytes[this.#stemAt + 32 + (sub >>> 3)]! |= 0x80 >>> (sub & 7);
    this.#lastSub = sub;
  }

  #closeStem(): void {
    this.#count++;
    this.#offsets[this.#count] = this.#end;
    this.#open = false;
  }

  #compareOpenStem(records: Uint8Array, offset: number): number {
    const bytes = this.#bytes;
    const at = this.#stemAt + 1;
    for (let i = 0; i < 31; i++) {
      const d = records[offset + i]! - bytes[at + i]!;
      if (d !== 0) return d;
    }
    return 0;
  }

  #throwOrder(records: Uint8Array, offset: number, duplicate: boolean): never {
    const key = bytesToHex(records.subarray(offset, offset + 32));
    if (duplicate) {
      throw new BuilderError("DUPLICATE_KEY", `duplicate key ${key}: it was already added`);
    }
    const previous = new Uint8Array(32);
    previous.set(this.#bytes.subarray(this.#stemAt + 1, this.#stemAt + 32));
    previous[31] = this.#lastSub;
    throw new BuilderError(
      "KEY_OUT_OF_ORDER",
      `key ${key} does not follow the previous key ${bytesToHex(previous)} (keys must strictly increase)`,
    );
  }
}
