import { SHA256_IV } from "@noble/hashes/_md.js";
import { _SHA256 } from "@noble/hashes/sha2.js";
import { DataViewCache } from "./data-view-cache.js";
import type { Sha256BatchKernel } from "./hasher.js";

const IV0 = SHA256_IV[0] ?? 0;
const IV1 = SHA256_IV[1] ?? 0;
const IV2 = SHA256_IV[2] ?? 0;
const IV3 = SHA256_IV[3] ?? 0;
const IV4 = SHA256_IV[4] ?? 0;
const IV5 = SHA256_IV[5] ?? 0;
const IV6 = SHA256_IV[6] ?? 0;
const IV7 = SHA256_IV[7] ?? 0;

/**
 * noble's SHA-256 used as a bare compression function. noble's public API allocates per message
 * (hash object, DataViews, output array); going through `process` directly lets one instance
 * hash any number of fixed-size messages in place with no allocation. It relies on protected
 * members of @noble/hashes 2.4.0 (pinned exactly); the hasher tests cross-check against
 * node:crypto, so a change there fails loudly.
 */
class NobleSha256Compressor extends _SHA256 {
  resetToIv(): void {
    this.A = IV0;
    this.B = IV1;
    this.C = IV2;
    this.D = IV3;
    this.E = IV4;
    this.F = IV5;
    this.G = IV6;
    this.H = IV7;
  }

  /** One 64-byte block at `view[offset..]` into the chaining state. */
  compress(view: DataView, offset: number): void {
    this.process(view, offset);
  }

  /** The 32-byte digest (state words big-endian) into `view[offset..]`. */
  writeDigest(view: DataView, offset: number): void {
    view.setInt32(offset, this.A);
    view.setInt32(offset + 4, this.B);
    view.setInt32(offset + 8, this.C);
    view.setInt32(offset + 12, this.D);
    view.setInt32(offset + 16, this.E);
    view.setInt32(offset + 20, this.F);
    view.setInt32(offset + 24, this.G);
    view.setInt32(offset + 28, this.H);
  }
}

/**
 * Default SHA-256 batch kernel: @noble/hashes, one message at a time, no allocation per message
 * (DataViews are cached per backing buffer). A faster kernel can replace it via
 * `createSha256Hasher(kernel)`.
 */
export function createNobleSha256Kernel(): Sha256BatchKernel {
  const compressor = new NobleSha256Compressor();

  // A 64-byte message is one data block plus this constant block: 0x80, zeros, bit length 512.
  const paddingBlock = new Uint8Array(64);
  paddingBlock[0] = 0x80;
  paddingBlock[62] = 0x02;
  const paddingView = new DataView(paddingBlock.buffer);

  // A 32-byte message fits in one block: message, 0x80, zeros, bit length 256.
  const shortBlock = new Uint8Array(64);
  shortBlock[32] = 0x80;
  shortBlock[62] = 0x01;
  const shortView = new DataView(shortBlock.buffer);

  const srcViews = new DataViewCache();
  const dstViews = new DataViewCache();

  return {
    hash32Batch(src, srcOffset, count, dst, dstOffset) {
      if (count === 0) return;
      const srcView = srcViews.viewOf(src);
      const dstView = dstViews.viewOf(dst);
      let from = src.byteOffset + srcOffset;
      let to = dst.byteOffset + dstOffset;
      for (let i = 0; i < count; i++, from += 32, to += 32) {
        // Copy the message into the pre-padded block first, so in-place output is safe.
        for (let word = 0; word < 32; word += 4) {
          shortView.setInt32(word, srcView.getInt32(from + word));
        }
        compressor.resetToIv();
        compressor.compress(shortView, 0);
        compressor.writeDigest(dstView, to);
      }
    },

    hash64Batch(src, srcOffset, count, dst, dstOffset) {
      if (count === 0) return;
      const srcView = srcViews.viewOf(src);
      const dstView = dstViews.viewOf(dst);
      let from = src.byteOffset + srcOffset;
      let to = dst.byteOffset + dstOffset;
      for (let i = 0; i < count; i++, from += 64, to += 32) {
        // The first compression reads the whole message before anything is written, and
        // output i lands on bytes of message floor(i/2) <= i, so in-place batches are safe.
        compressor.resetToIv();
        compressor.compress(srcView, from);
        compressor.compress(paddingView, 0);
        compressor.writeDigest(dstView, to);
      }
    },
  };
}
