import type { TreeEntry } from "@bintrie/core";
import type { RunStorage } from "@bintrie/core/builder";
import { CliError } from "./cli-error.js";
import type { EntryCounter } from "./entry-lines.js";
import { EntryRecords, readEntryRecords } from "./entry-records.js";
import type { InputSource } from "./input-source.js";
import { sortRecordsByKey } from "./sort-records.js";

/** Entries sorted in memory (64 bytes each + 12 bytes of sort arrays): 4M entries ≈ 300 MiB. */
const DEFAULT_MEMORY_ENTRIES = 4 * 1024 * 1024;

/**
 * Every entry of `input`, read and checked in full before the first is yielded, in key order,
 * the last entry of each key only. Inputs up to the memory limit are read into one buffer and
 * radix-sorted there; larger ones continue through the external sort (runs in `runs`).
 */
export async function sortedInput(
  input: InputSource,
  counter: EntryCounter,
  runs: RunStorage,
): Promise<AsyncGenerator<TreeEntry>> {
  const out = new EntryRecords();
  const rest = await readEntryRecords(input, counter, out, memoryEntriesFromEnvironment());
  if (rest === undefined) return inOrder(out.records, sortRecordsByKey(out.records, out.count));
  const { sortEntries } = await import("@bintrie/core/builder");
  return sortEntries(concat(out, rest), { runStorage: runs, duplicates: "last" });
}

async function* inOrder(records: Uint8Array, order: Uint32Array): AsyncGenerator<TreeEntry> {
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
