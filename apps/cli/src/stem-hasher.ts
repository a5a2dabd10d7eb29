import type { StemBlob } from "@bintrie/codec";
import type { Hasher, KeyScheme } from "@bintrie/core";
import { StemBlobHasher } from "@bintrie/core/builder";

/** A decoded stem and its blob cut to its exact length (64 + 32 × values). */
export interface StemToHash {
  readonly blob: Uint8Array;
  readonly stem: StemBlob;
}

/** Hashes many stem nodes at once; returns their hashes packed, 32 bytes each, in order. */
export type StemHashBatch = (stems: readonly StemToHash[]) => Uint8Array;

/** The core's batch stem hasher: one hash call per level for a whole batch of stems. */
export function stemHashBatch(hasher: Hasher, scheme: KeyScheme): StemHashBatch {
  const batch = new StemBlobHasher({ scheme, hasher });
  return (stems) => batch.hash(stems.map((s) => s.blob));
}
