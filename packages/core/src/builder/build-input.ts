import type { TreeEntry } from "../tree/binary-tree.js";

/** A whole stem: slot i = subindex i, null/undefined = absent (at most 256 slots). */
export interface StemEntry {
  readonly stem: Uint8Array;
  readonly values: ReadonlyArray<Uint8Array | null | undefined>;
}

/** One input item of a build: a key/value entry or a whole stem. */
export type BuildInput = TreeEntry | StemEntry;

/** Any source of build input, sync or async. */
export type BuildSource = Iterable<BuildInput> | AsyncIterable<BuildInput>;
