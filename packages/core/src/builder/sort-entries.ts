import { assertKnownOptions } from "@bintrie/codec";
import { bytesToHex } from "../bytes/hex.js";
import { optionKeys } from "../options/known-options.js";
import type { TreeEntry } from "../tree/binary-tree.js";
import { BuilderError } from "./builder-error.js";
import { compareRecordKeys, ENTRY_RECORD_SIZE, entryAt } from "./entry-records.js";
import { mergeRuns } from "./merge-runs.js";
import { RunCursor } from "./run-cursor.js";
import type { RunStorage } from "./run-storage.js";
import { sortRecords } from "./sort-records.js";

/** Default memory for the entries of one in-memory run (64 bytes per entry): 64 MiB. */
export const DEFAULT_RUN_BYTES = 64 * 1024 * 1024;
/** Default number of runs merged at once. */
export const DEFAULT_MAX_MERGE_FAN_IN = 64;
/** Bytes per chunk of a run written by a merge pass. */
const MERGED_CHUNK_BYTES = 64 * 1024;

export interface SortEntriesOptions {
  /** Where sorted runs go when the input does not fit in one run. */
  readonly runStorage: RunStorage;
  /**
   * Bytes of entries held and sorted in memory at a time (64 per entry). Default 64 MiB.
   * Peak memory is at most about 1.5 × this (buffer growth, sort index), plus one read
   * chunk per merged run while merging.
   */
  readonly runBytes?: number;
  /**
   * Runs merged at once (2..4096). More runs are first merged in groups into longer runs, so
   * the read buffers of the final merge stay bounded whatever the input size. Default 64.
   */
  readonly maxFanIn?: number;
  /** Equal keys: 'error' (default) throws DUPLICATE_KEY; 'last' keeps the value given last. */
  readonly duplicates?: "error" | "last";
}

/**
 * Sorts key/value entries of any number by key with bounded memory (an external sort): entries
 * are gathered into runs of `runBytes`, each run is sorted and handed to `runStorage`, and the
 * runs are merged k-way while the result is read. Input that fits in one run never touches the
 * storage. The output feeds `buildTree` / `buildTreeIntoStore` directly.
 *
 * @example
 * ```ts
 * import { sortEntries } from "@bintrie/core/builder";
 *
 * const runs = new Map<string, Uint8Array[]>();
 * const runStorage = {
 *   async writeRun(chunks: AsyncIterable<Uint8Array>) {
 *     const id = String(runs.size);
 *     const kept: Uint8Array[] = [];
 *     for await (const chunk of chunks) kept.push(chunk);
 *     runs.set(id, kept);
 *     return id;
 *   },
 *   async *readRun(id: string) {
 *     yield* runs.get(id) ?? [];
 *   },
 *   async deleteRun(id: string) {
 *     runs.delete(id);
 *   },
 * };
 * const entries = [2, 1].map((b) => ({ key: new Uint8Array(32).fill(b), value: new Uint8Array(32) }));
 * for await (const entry of sortEntries(entries, { runStorage })) console.log(entry.key[0]); // 1, 2
 * ```
 */
export async function* sortEntries(
  source: Iterable<TreeEntry> | AsyncIterable<TreeEntry>,
  options: SortEntriesOptions,
): AsyncGenerator<TreeEntry> {
  const { storage, runBytes, maxFanIn, duplicates } = checkedSortOptions(options);
  const capacity = Math.floor(runBytes / ENTRY_RECORD_SIZE);
  // Grown on demand so small inputs do not pay for a full run buffer.
  let records = new Uint8Array(Math.min(capacity, 4096) * ENTRY_RECORD_SIZE);
  let count = 0;
  // Runs in input order, and every run not yet deleted.
  let runs: string[] = [];
  const live = new Set<string>();
  try {
    /** Appends one entry; true when the run buffer is full. */
    const add = (entry: TreeEntry): boolean => {
      assertEntry(entry);
      if (count * ENTRY_RECORD_SIZE === records.length) {
        const grown = new Uint8Array(Math.min(capacity, count * 2) * ENTRY_RECORD_SIZE);
        grown.set(records);
        records = grown;
      }
      records.set(entry.key, count * ENTRY_RECORD_SIZE);
      records.set(entry.value, count * ENTRY_RECORD_SIZE + 32);
      count++;
      return count === capacity;
    };
    const spill = async (): Promise<void> => {
      sortRecords(records, count);
      const handle = await storage.writeRun(once(records.subarray(0, count * ENTRY_RECORD_SIZE)));
      runs.push(handle);
      live.add(handle);
      count = 0;
    };
    if (source !== null && typeof source === "object" && Symbol.asyncIterator in source) {
      for await (const entry of source) if (add(entry)) await spill();
    } else if (source !== null && typeof source === "object" && Symbol.iterator in source) {
      for (const entry of source) if (add(entry)) await spill();
    } else {
      throw new BuilderError(
        "INVALID_INPUT",
        `sortEntries: source must be an iterable or async iterable, got ${source === null ? "null" : typeof source}`,
      );
    }
    const unique = new UniqueKeys(duplicates);
    if (runs.length === 0) {
      sortRecords(records, count);
      for (let i = 0; i < count; i++) {
        const out = unique.push(records, i * ENTRY_RECORD_SIZE);
        if (out !== undefined) yield out;
      }
    } else {
      if (count > 0) await spill();
      records = new Uint8Array(0);
      runs = await mergeDown(storage, runs, live, maxFanIn);
      const cursors = runs.map((h, run) => new RunCursor(run, h, storage.readRun(h)));
      for await (const cursor of mergeRuns(cursors)) {
        const out = unique.push(cursor.bytes, cursor.at);
        if (out !== undefined) yield out;
      }
    }
    const last = unique.end();
    if (last !== undefined) yield last;
  } finally {
    for (const handle of live) await storage.deleteRun(handle);
  }
}

const SORT_ENTRIES_OPTION_KEYS = optionKeys<SortEntriesOptions>()([
  "runStorage",
  "runBytes",
  "maxFanIn",
  "duplicates",
]);

/** The options with their defaults, each checked (BuilderError('INVALID_OPTION') naming it). */
function checkedSortOptions(options: SortEntriesOptions): {
  storage: RunStorage;
  runBytes: number;
  maxFanIn: number;
  duplicates: "error" | "last";
} {
  if (options === undefined) {
    throw new BuilderError("INVALID_OPTION", "sortEntries: options.runStorage is required");
  }
  assertKnownOptions(options, SORT_ENTRIES_OPTION_KEYS, "sortEntries", BuilderError);
  const storage = options.runStorage;
  if (storage === undefined || typeof storage.writeRun !== "function") {
    throw new BuilderError("INVALID_OPTION", "sortEntries: options.runStorage is required");
  }
  const runBytes = options.runBytes ?? DEFAULT_RUN_BYTES;
  if (!Number.isSafeInteger(runBytes) || runBytes < ENTRY_RECORD_SIZE) {
    throw new BuilderError(
      "INVALID_OPTION",
      `runBytes must be an integer >= ${ENTRY_RECORD_SIZE}, got ${String(runBytes)}`,
    );
  }
  const maxFanIn = options.maxFanIn ?? DEFAULT_MAX_MERGE_FAN_IN;
  if (!Number.isInteger(maxFanIn) || maxFanIn < 2 || maxFanIn > 4096) {
    throw new BuilderError(
      "INVALID_OPTION",
      `maxFanIn must be an integer 2..4096, got ${String(maxFanIn)}`,
    );
  }
  const duplicates = options.duplicates ?? "error";
  if (duplicates !== "error" && duplicates !== "last") {
    throw new BuilderError(
      "INVALID_OPTION",
      `duplicates must be 'error' or 'last', got ${JSON.stringify(duplicates)}`,
    );
  }
  return { storage, runBytes, maxFanIn, duplicates };
}

/** A one-chunk stream. */
async function* once(chunk: Uint8Array): AsyncGenerator<Uint8Array> {
  yield chunk;
}

/**
 * Merges groups of `maxFanIn` consecutive runs into single runs until at most `maxFanIn` are
 * left; returns the remaining runs in order. Groups are consecutive and ties go to the earlier
 * run, so equal keys keep their input order. `live` tracks the runs to delete on exit.
 */
async function mergeDown(
  storage: RunStorage,
  runs: string[],
  live: Set<string>,
  maxFanIn: number,
): Promise<string[]> {
  while (runs.length > maxFanIn) {
    const next: string[] = [];
    for (let start = 0; start < runs.length; start += maxFanIn) {
      const group = runs.slice(start, start + maxFanIn);
      if (group.length === 1) {
        next.push(group[0]!);
        continue;
      }
      const cursors = group.map((h, run) => new RunCursor(run, h, storage.readRun(h)));
      const merged = await storage.writeRun(mergedChunks(cursors));
      live.add(merged);
      for (const h of group) {
        await storage.deleteRun(h);
        live.delete(h);
      }
      next.push(merged);
    }
    runs = next;
  }
  return runs;
}

/** The merge of some runs as a stream of fresh chunks. */
async function* mergedChunks(cursors: RunCursor[]): AsyncGenerator<Uint8Array> {
  let chunk = new Uint8Array(MERGED_CHUNK_BYTES);
  let used = 0;
  for await (const cursor of mergeRuns(cursors)) {
    chunk.set(cursor.bytes.subarray(cursor.at, cursor.at + ENTRY_RECORD_SIZE), used);
    used += ENTRY_RECORD_SIZE;
    if (used === MERGED_CHUNK_BYTES) {
      yield chunk;
      chunk = new Uint8Array(MERGED_CHUNK_BYTES);
      used = 0;
    }
  }
  if (used > 0) yield chunk.subarray(0, used);
}

/** Drops or rejects repeated keys of a sorted stream; holds back one entry. */
class UniqueKeys {
  readonly #policy: "error" | "last";
  #held: TreeEntry | undefined;

  constructor(policy: "error" | "last") {
    this.#policy = policy;
  }

  /** Takes the record at bytes[at..]; returns the entry that is now final, if any. */
  push(bytes: Uint8Array, at: number): TreeEntry | undefined {
    const held = this.#held;
    if (held !== undefined && compareRecordKeys(held.key, 0, bytes, at) === 0) {
      if (this.#policy === "error") {
        throw new BuilderError(
          "DUPLICATE_KEY",
          `key ${bytesToHex(held.key)} is given more than once (pass duplicates: 'last' to keep the last value)`,
        );
      }
      this.#held = entryAt(bytes, at);
      return undefined;
    }
    this.#held = entryAt(bytes, at);
    return held;
  }

  end(): TreeEntry | undefined {
    const held = this.#held;
    this.#held = undefined;
    return held;
  }
}

function assertEntry(entry: TreeEntry): void {
  if (entry === null || typeof entry !== "object") {
    throw new BuilderError(
      "INVALID_INPUT",
      `sortEntries: expected {key, value}, got ${String(entry)}`,
    );
  }
  const { key, value } = entry;
  if (!(key instanceof Uint8Array) || key.length !== 32) {
    throw new BuilderError(
      "INVALID_KEY",
      `sortEntries: expected a 32-byte key, got ${key instanceof Uint8Array ? `${key.length} bytes` : typeof key}`,
    );
  }
  if (!(value instanceof Uint8Array) || value.length !== 32) {
    throw new BuilderError(
      "INVALID_VALUE",
      `sortEntries: expected a 32-byte value for key ${bytesToHex(key)}, got ${value instanceof Uint8Array ? `${value.length} bytes` : typeof value}`,
    );
  }
}
