import type { TreeEntry } from "../tree/binary-tree.js";
import { BuilderError } from "./builder-error.js";

/** A whole stem: slot i = subindex i, null/undefined = absent (at most 256 slots). */
export interface StemEntry {
  readonly stem: Uint8Array;
  readonly values: ReadonlyArray<Uint8Array | null | undefined>;
}

/** One input item of a build: a key/value entry or a whole stem. */
export type BuildInput = TreeEntry | StemEntry;

/** Any source of build input, sync or async. */
export type BuildSource = Iterable<BuildInput> | AsyncIterable<BuildInput>;

/**
 * Entries packed as 64-byte records (32-byte key ‖ 32-byte value) in one buffer, taken in
 * `order` (record indexes, keys strictly increasing): what an in-memory sort of the input leaves,
 * built from without an object per entry.
 */
export interface PackedEntries {
  readonly records: Uint8Array;
  readonly order: Uint32Array;
}

/** Where record `order[i]` starts in `records`; a BuilderError if it lies past their end. */
export function packedRecordOffset({ records, order }: PackedEntries, i: number): number {
  const from = order[i]! * 64;
  if (from + 64 > records.length) {
    throw new BuilderError(
      "INVALID_INPUT",
      `packed entries: order[${i}] = ${order[i]} points past the ${records.length >>> 6} records`,
    );
  }
  return from;
}
