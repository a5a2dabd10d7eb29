import type { TreeEntry } from "@bintrie/core";
import type { PackedEntries, RunStorage } from "@bintrie/core/builder";
import { CANONICAL_LINE_BYTES } from "./canonical-line.js";
import { CliError } from "./cli-error.js";
import type { EntryCounter } from "./entry-lines.js";
import { EntryRecords, type InputPart, readEntryRecords } from "./entry-records.js";
import type { InputSource } from "./input-source.js";
import { parseSecondHalf, type SecondHalf } from "./second-half.js";
import { type RecordRun, sortRecords } from "./sort-records.js";

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
  options: { readonly secondHalf?: Promise<SecondHalf | undefined> } = {},
): Promise<SortedInput> {
  const limit = memoryEntriesFromEnvironment();
  const expected = expectedEntries(input);
  const out = new EntryRecords(expected === undefined ? undefined : Math.min(expected, limit));
  const half = options.secondHalf;
  const then =
    half !== undefined && "file" in input
      ? await readInHalves(input, half, counter, out)
      : undefined;
  const rest = half !== undefined ? undefined : await readEntryRecords(input, counter, out, limit);
  if (rest === undefined) {
    const sorted = sortRecords(out.records, out.count, then);
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

/** Files at least this large are read in two halves, one on a worker thread (about 54k lines). */
export const PARALLEL_READ_MIN_BYTES = 8 << 20;

/** The most entries `input` can hold: a canonical line is 154 bytes and no entry's is shorter. */
function expectedEntries(input: InputSource): number | undefined {
  return input.bytes === undefined ? undefined : Math.ceil(input.bytes / CANONICAL_LINE_BYTES) + 1;
}

/**
 * For a large file that fits the in-memory sort whatever it holds, starts decoding its second
 * half on a worker thread (the other core is idle until the sorted entries are built); give the
 * result to sortedInput as `secondHalf`, or cancel it. Undefined for any other input.
 */
export function startSecondHalf(input: InputSource): Promise<SecondHalf | undefined> | undefined {
  if (!("file" in input) || input.bytes < PARALLEL_READ_MIN_BYTES) return undefined;
  if (expectedEntries(input)! > memoryEntriesFromEnvironment()) return undefined;
  const half = parseSecondHalf(input.file, input.bytes);
  // Awaited by sortedInput or by the caller's cancel; a failure means reading it here.
  return half.catch(() => undefined);
}

/**
 * Reads a file of at most the memory limit's entries into `out`, in input order: the first
 * half here while a worker decodes the canonical lines of the second; then whatever the worker
 * left (from its first line of another form, or all of it if it failed) here, with every rule
 * and the line numbers of the whole file. Never overflows (the caller checked the size).
 * Returns the worker's records when they are the input's last (they follow `out`'s in input
 * order; the sort reads them where they are), else undefined (they were copied into `out`).
 */
async function readInHalves(
  input: InputSource & { readonly file: string; readonly bytes: number },
  secondHalf: Promise<SecondHalf | undefined>,
  counter: EntryCounter,
  out: EntryRecords,
): Promise<RecordRun | undefined> {
  const half = await secondHalf;
  const first: InputPart = { range: { start: 0, end: half?.start ?? input.bytes }, lines: 0 };
  try {
    await readEntryRecords(input, counter, out, Number.POSITIVE_INFINITY, first);
  } catch (error) {
    await half?.cancel();
    throw error;
  }
  if (half === undefined) return undefined;
  const decoded = await half.result;
  let from = half.start;
  let lines = first.lines;
  if (decoded !== undefined) {
    counter.entries += decoded.count;
    if (counter.bytes !== undefined) counter.bytes += decoded.stoppedAt - half.start;
    if (decoded.stoppedAt >= input.bytes) return { records: half.records, count: decoded.count };
    out.appendRecords(half.records, decoded.count);
    from = decoded.stoppedAt;
    lines += decoded.count; // the worker decodes canonical lines only: one entry each
  }
  const rest: InputPart = { range: { start: from, end: input.bytes }, lines };
  await readEntryRecords(input, counter, out, Number.POSITIVE_INFINITY, rest);
  return undefined;
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
