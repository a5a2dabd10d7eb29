import type { TreeEntry } from "@bintrie/core";
import type { PackedEntries, RunStorage } from "@bintrie/core/builder";
import { CliError } from "./cli-error.js";
import type { EntryCounter } from "./entry-lines.js";
import { EntryRecords, readEntryRecords } from "./entry-records.js";
import type { InputSource } from "./input-source.js";
import { sortRecords } from "./sort-records.js";

/** Entries sorted in memory (64 bytes each + 12 bytes of sort arrays): 4M entries ≈ 300 MiB. */
const DEFAULT_MEMORY_ENTRIES = 4 * 1024 * 1024;

/**
 * The sorted entries of an input: packed in memory (one buffer of 64-byte records and their key
 * order), or streamed from the external sort.
 */
export type SortedInput =
  | { readonly kind: "packed"; readonly entries: PackedEntries }
  | { readonly kind: "stream"; readonly entries: AsyncGenerator<TreeEntry> };

/**
 * Every entry of `input` in key order, the last entry of each key only. Inputs up to the memory
 * limit are read into one buffer, checked in full and radix-sorted there (packed); larger ones
 * continue through the external sort (runs in `runs`), which reads every line before it yields
 * the first entry.
 */
export async function sortedInput(
  input: InputSource,
  counter: EntryCounter,
  runs: RunStorage,
): Promise<SortedInput> {
  const limit = memoryEntriesFromEnvironment();
  // A canonical line is 154 bytes: a file's size tells about how many entries to expect.
  const expected = input.bytes === undefined ? undefined : Math.ceil(input.bytes / 154) + 1;
  const out = new EntryRecords(expected === undefined ? undefined : Math.min(expected, limit));
  const rest = await readEntryRecords(input, counter, out, limit);
  if (rest === undefined) {
    const sorted = sortRecords(out.records, out.count);
    const order = new Uint32Array(sorted.count);
    for (let i = 0; i < order.length; i++) order[i] = i;
    return { kind: "packed", entries: { records: sorted.records, order } };
  }
  const { sortEntries } = await import("@bintrie/core/builder");
  return {
    kind: "stream",
    entries: sortEntries(concat(out, rest), { runStorage: runs, duplicates: "last" }),
  };
}

/** Packed entries one by one, in key order. */
export async function* packedEntries({ records, order }: PackedEntries): AsyncGenerator<TreeEntry> {
  for (let i = 0; i < order.length; i++) {
    const at = order[i]! << 6;
    yield { key: records.subarray(at, at + 32), value: records.subarray(at + 32, at + 64) };
  }
}

async function* concat(
  first: EntryRecords,
  rest: AsyncGenerator<Uint8Array>,
): AsyncGenerator<TreeEntry> {
  const { records, count } = first;
  for (let i = 0; i < count; i++) {
    const at = i << 6;
    yield { key: records.subarray(at, at + 32), value: records.subarray(at + 32, at + 64) };
  }
  for await (const r of rest) yield { key: r.subarray(0, 32), value: r.subarray(32, 64) };
}

function memoryEntriesFromEnvironment(): number {
  const text = process.env.BINTRIE_SORT_MEMORY_ENTRIES;
  if (text === undefined || text === "") return DEFAULT_MEMORY_ENTRIES;
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value < 1) {
    throw new CliError(
      "BAD_USAGE",
      `BINTRIE_SORT_MEMORY_ENTRIES must be a positive integer, got ${text}`,
    );
  }
  return value;
}
