import { assertKnownOptions } from "@bintrie/codec";
import {
  DEFAULT_KEY_SCHEME,
  hashFunctionOfScheme,
  type KeyScheme,
} from "../embedding/key-scheme.js";
import { getHasher } from "../hash/get-hasher.js";
import type { Hasher } from "../hash/hasher.js";
import { optionKeys } from "../options/known-options.js";
import { BuilderError } from "./builder-error.js";
import { HashSlots } from "./hash-slots.js";
import { StemBatch } from "./stem-batch.js";
import { assertStemBlob } from "./stem-blob-check.js";
import type { PackedStems } from "./stem-hash-pool.js";

export interface StemBlobHasherOptions {
  /** Selects the hash function. Default 'sha256-be' (go-ethereum). */
  readonly scheme?: KeyScheme;
  /** Overrides the hasher; must match the scheme. */
  readonly hasher?: Hasher;
}

const STEM_BLOB_HASHER_OPTION_KEYS = optionKeys<StemBlobHasherOptions>()(["scheme", "hasher"]);

/**
 * Hashes stem blobs (01 ‖ stem ‖ bitmap ‖ values) in batches, one batch call per level. It
 * needs no tree, so it can run anywhere, e.g. in the worker threads of a parallel build:
 * workers hash, the main thread puts the stems in order and calls
 * `StreamingBuilder.addHashedStem(blob, hash)`.
 *
 * @example
 * ```ts
 * import { encodeStemBlobFromSlots } from "@bintrie/codec";
 * import { StemBlobHasher } from "@bintrie/core/builder";
 *
 * const slots = new Array(256);
 * slots[0] = new Uint8Array(32).fill(1);
 * const hashes = new StemBlobHasher().hash([encodeStemBlobFromSlots(new Uint8Array(31), slots)]);
 * hashes.length; // 32: one hash per blob
 * ```
 */
export class StemBlobHasher {
  readonly hasher: Hasher;
  readonly #batch = new StemBatch(1024, 8192);
  readonly #slots = new HashSlots();

  constructor(options: StemBlobHasherOptions = {}) {
    assertKnownOptions(options, STEM_BLOB_HASHER_OPTION_KEYS, "StemBlobHasher", BuilderError);
    const scheme = options.scheme ?? DEFAULT_KEY_SCHEME;
    const name = hashFunctionOfScheme(scheme);
    this.hasher = options.hasher ?? getHasher(name);
    if (this.hasher.name !== name) {
      throw new BuilderError(
        "INVALID_OPTION",
        `hasher '${this.hasher.name}' does not match key scheme '${scheme}'`,
      );
    }
  }

  /** The stem hashes of `blobs`, 32 bytes each, in order, in one new array. */
  hash(blobs: readonly Uint8Array[]): Uint8Array {
    for (const blob of blobs) assertStemBlob(blob);
    const out = new Uint8Array(blobs.length * 32);
    const batch = this.#batch;
    const slots = this.#slots;
    let start = 0;
    for (let i = 0; i < blobs.length; i++) {
      batch.add(blobs[i]!);
      if (batch.full || i === blobs.length - 1) {
        batch.hashInto(this.hasher, slots, 0);
        out.set(slots.bytes.subarray(0, batch.count * 32), start * 32);
        start += batch.count;
        batch.clear();
      }
    }
    return out;
  }

  /** The stem hashes of packed stems (each blob checked), 32 bytes each, in one new array. */
  hashPacked(stems: PackedStems): Uint8Array {
    const { bytes, offsets, count } = stems;
    const blobs = new Array<Uint8Array>(count);
    for (let i = 0; i < count; i++) blobs[i] = bytes.subarray(offsets[i]!, offsets[i + 1]!);
    return this.hash(blobs);
  }
}
