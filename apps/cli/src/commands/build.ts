import { availableParallelism } from "node:os";
import type { BinaryTree, KeyScheme, KVStore, TreeEntry } from "@bintrie/core";
import { bytesToHex } from "@bintrie/core";
import { CliError } from "../cli-error.js";
import { EarlyWorkers } from "../early-workers.js";
import type { EntryCounter } from "../entry-lines.js";
import { FsRunStorage } from "../fs-run-storage.js";
import { noEntriesMessage } from "../input-rules.js";
import { type InputSource, openInput } from "../input-source.js";
import { onInterrupt } from "../interrupt-cleanup.js";
import { printLine } from "../line-output.js";
import { type OpenedStore, openStore } from "../open-store.js";
import { Progress } from "../progress.js";
import { assertPlainTree, readRootRecord } from "../root-record.js";
import type { SecondHalf } from "../second-half.js";
import { packedEntries, type SortedInput, sortedInput, startSecondHalf } from "../sorted-input.js";
import { type StoreFlags, type StoreTarget, storeTarget } from "../store-target.js";

export interface BuildFlags extends StoreFlags {
  readonly groupDepth?: number;
  readonly scheme?: KeyScheme;
  readonly json?: boolean;
  readonly commitEvery?: number;
  readonly tmpDir?: string;
  readonly threads?: number;
}

/** Entries per atomic commit when adding to a store that already holds a tree. */
export const DEFAULT_COMMIT_EVERY = 10_000;

/** Tree nodes kept in memory between commits of a build into a store with a tree. */
const RESIDENT_NODES = 100_000;

/** What `build` did. */
export interface BuildResult {
  readonly root: Uint8Array;
  /** Entries read (lines with an entry, repeated keys included). */
  readonly entries: number;
  /** Node blobs written (for a build into an empty store: every node of the tree). */
  readonly nodes: number;
}

/**
 * `bintrie build [FILE|-]`: JSON lines of key/value entries → committed tree; prints the root.
 *
 * The input is read, checked and sorted (in memory by a radix sort up to 4M entries, beyond that
 * by the external sort, runs in a temporary directory) before
 * anything is written, so bad input leaves the store untouched. Into an empty store the sorted
 * entries go through the streaming builder: node batches, the last one holding the root node and
 * the root record. Into a store with a tree, they are added in chunks, each chunk one atomic
 * commit of the tree so far. Either way a kill at any moment leaves the store at a committed
 * root with all of its nodes.
 */
export async function runBuild(file: string | undefined, flags: BuildFlags): Promise<void> {
  const target = storeTarget(flags);
  const maxBatchBytes = batchBytesFromEnvironment();
  const runs = new FsRunStorage(flags.tmpDir);
  // Ctrl-C or a kill: the external sort's temporary directory goes too, then exit 130/143 (the
  // store is at a committed root, as after any kill).
  const stop = onInterrupt("build", () => runs.disposeSync());
  try {
    await buildWith(file, flags, target, maxBatchBytes, runs);
  } finally {
    stop();
  }
}

async function buildWith(
  file: string | undefined,
  flags: BuildFlags,
  target: StoreTarget,
  maxBatchBytes: number,
  runs: FsRunStorage,
): Promise<void> {
  // Before any work: a missing or read-only --tmp-dir would otherwise fail after the first run.
  await runs.prepare(flags.tmpDir === undefined ? undefined : `--tmp-dir ${flags.tmpDir}`);
  let input: InputSource;
  let opened: OpenedStore;
  let secondHalf: Promise<SecondHalf | undefined> | undefined;
  try {
    input = await openInput(file);
    // A second thread decodes half of a large file while this one opens the store and the tree
    // and reads the other half, where the build may use one (not with --threads 1).
    if ((flags.threads ?? availableParallelism()) > 1) secondHalf = startSecondHalf(input);
    opened = await openStore(target, { create: true });
  } catch (error) {
    await (await secondHalf)?.cancel();
    await runs.dispose();
    throw error;
  }
  const workers = new EarlyWorkers(flags.threads, input.bytes);
  const core = await import("@bintrie/core");
  const reading = new Progress(`1/2 reading and sorting ${input.name}`, input.bytes, " B");
  const counter: EntryCounter = {
    entries: 0,
    bytes: 0,
    onProgress: () => reading.update(counter.bytes ?? 0),
  };
  let building: Progress | undefined;
  let result: BuildResult;
  try {
    let tree: BinaryTree;
    let fresh: boolean;
    let entries: SortedInput;
    try {
      assertPlainTree(await readRootRecord(opened.store));
      // Flags that disagree with the store's record fail here, before the input is read.
      tree = await core.openTree(opened.store, {
        ...(flags.groupDepth === undefined ? {} : { groupDepth: flags.groupDepth }),
        ...(flags.scheme === undefined ? {} : { scheme: flags.scheme }),
      });
      fresh = await holdsNoTree(opened.store);
      // Workers start while the input is read (their start-up then costs no wall time) when
      // the file is large enough to probably use them; unused ones are closed at the end.
      if (fresh) workers.prepare(tree.groupDepth);
      const sorted = await sortedInput(
        input,
        counter,
        runs,
        secondHalf === undefined ? {} : { secondHalf },
      );
      let empty: boolean;
      if (sorted.kind === "packed") {
        entries = sorted;
        empty = sorted.entries.order.length === 0;
      } else {
        // The sort reads every line before it yields the first entry: a bad line fails here.
        const first = await sorted.entries.next();
        empty = first.done === true;
        const shown = (n: number) => building?.update(n);
        entries = { kind: "stream", entries: prepend(first, sorted.entries, shown) };
      }
      reading.update(counter.bytes ?? 0);
      reading.done();
      if (empty) throw new CliError("BAD_INPUT", noEntriesMessage(input.name));
      building = new Progress(
        fresh ? "2/2 building the tree" : "2/2 adding to the tree (atomic commits)",
        counter.entries,
        " entries",
      );
    } catch (error) {
      reading.done();
      await opened.discard();
      throw error;
    }
    try {
      result = fresh
        ? await buildFresh(opened.store, entries, tree, counter, maxBatchBytes, workers)
        : await addToTree(
            tree,
            opened.store,
            entries.kind === "packed" ? packedEntries(entries.entries) : entries.entries,
            counter,
            flags.commitEvery,
          );
    } finally {
      building?.update(counter.entries);
      building?.done();
      await opened.close();
    }
  } finally {
    // Unused when the build failed before reading (flags that disagree with the store).
    await (await secondHalf)?.cancel();
    await workers.close();
    await runs.dispose();
  }
  if (flags.json) {
    printLine(
      JSON.stringify({
        root: bytesToHex(result.root),
        entries: result.entries,
        nodes: result.nodes,
      }),
    );
  } else {
    printLine(bytesToHex(result.root));
  }
}

/** Whether nothing is committed in `store` (no root record, no root node). */
async function holdsNoTree(store: KVStore): Promise<boolean> {
  const { ROOT_RECORD_KEY } = await import("@bintrie/core");
  const { NODE_KEY_PREFIX } = await import("@bintrie/codec");
  // The root node's key is the bare prefix ("vA" + the empty path).
  const [record, rootNode] = await store.getMany([ROOT_RECORD_KEY, NODE_KEY_PREFIX]);
  return record === undefined && rootNode === undefined;
}

/** An empty store: the streaming builder writes the tree in bounded batches. */
async function buildFresh(
  store: KVStore,
  entries: SortedInput,
  tree: BinaryTree,
  counter: EntryCounter,
  maxBatchBytes: number,
  workers: EarlyWorkers,
): Promise<BuildResult> {
  const { buildTreeIntoStore } = await import("@bintrie/core/builder");
  // Packed entries go in without an object per entry, built in partitions on worker threads
  // (stem and node hashing, placement, record encoding) while this thread writes their batches
  // (by default only for inputs large enough to pay for starting workers); streamed ones one by
  // one on this thread.
  const pool =
    entries.kind === "packed"
      ? await workers.forEntries(entries.entries.order.length, tree.groupDepth)
      : undefined;
  try {
    const built = await buildTreeIntoStore(store, entries.entries, {
      groupDepth: tree.groupDepth,
      scheme: tree.scheme,
      maxBatchBytes,
      ...(pool === undefined ? {} : { partitionPool: pool }),
    });
    return { root: built.root, entries: counter.entries, nodes: built.nodes };
  } finally {
    await workers.close();
  }
}

/**
 * A store with a committed tree: adds the sorted entries `commitEvery` at a time, each chunk
 * one atomic batch (nodes, orphan deletes, root record). Sorted chunks touch neighbouring paths,
 * so each commit rewrites little beyond its own keys.
 */
async function addToTree(
  tree: BinaryTree,
  store: KVStore,
  entries: AsyncIterable<TreeEntry>,
  counter: EntryCounter,
  commitEvery = DEFAULT_COMMIT_EVERY,
): Promise<BuildResult> {
  const written = new WrittenPaths();
  let chunk: TreeEntry[] = [];
  let root: Uint8Array | undefined;
  const commit = async () => {
    await tree.putMany(chunk);
    chunk = [];
    const set = tree.commit();
    await store.batch(tree.nodeSetOperations(set));
    written.add(set.writes, set.deletes);
    // Sorted chunks move on through the key space: what the last one loaded can go.
    tree.evict(RESIDENT_NODES);
    root = set.root;
  };
  for await (const entry of entries) {
    chunk.push(entry);
    if (chunk.length === commitEvery) await commit();
  }
  if (chunk.length > 0 || root === undefined) await commit();
  return { root: root!, entries: counter.entries, nodes: written.count };
}

/**
 * Bytes per store batch of a fresh build. Smaller than the core's 16 MiB default: LevelDB grows
 * each native write batch by doubling into fresh pages (a page fault per 4 KiB), while 2 MiB
 * batches reuse freed memory; a 1M-entry build then takes about 5 % less CPU (README, "Performance").
 */
export const DEFAULT_BUILD_BATCH_BYTES = 2 * 1024 * 1024;

/** BINTRIE_MAX_BATCH_BYTES: bytes per store batch of a fresh build (default DEFAULT_BUILD_BATCH_BYTES). */
export function batchBytesFromEnvironment(
  text: string | undefined = process.env.BINTRIE_MAX_BATCH_BYTES,
): number {
  if (text === undefined || text === "") return DEFAULT_BUILD_BATCH_BYTES;
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value < 1) {
    throw new CliError(
      "BAD_USAGE",
      `BINTRIE_MAX_BATCH_BYTES must be a positive integer, got ${text}`,
    );
  }
  return value;
}

/** `first` (already taken from `rest`) followed by the rest; `onCount` sees the progress. */
async function* prepend<T>(
  first: IteratorResult<T, unknown>,
  rest: AsyncIterator<T>,
  onCount: (count: number) => void,
): AsyncGenerator<T> {
  if (first.done === true) return;
  yield first.value;
  for (let count = 1; ; count++) {
    const next = await rest.next();
    if (next.done === true) return;
    yield next.value;
    if ((count & 0x3fff) === 0) onCount(count);
  }
}

/**
 * Counts distinct node paths written over several commits (a path rewritten by a later commit
 * counts once; a path a later commit deletes stops counting). One-commit builds need no set.
 */
class WrittenPaths {
  #commits = 0;
  #firstCount = 0;
  #first: { writes: Uint8Array[]; deletes: readonly Uint8Array[] } | undefined;
  readonly #paths = new Set<string>();

  add(writes: readonly { path: Uint8Array }[], deletes: readonly Uint8Array[]): void {
    this.#commits++;
    if (this.#commits === 1) {
      this.#firstCount = writes.length;
      this.#first = { writes: writes.map((w) => w.path), deletes };
      return;
    }
    if (this.#first !== undefined) {
      this.#apply(this.#first.writes, this.#first.deletes);
      this.#first = undefined;
    }
    this.#apply(
      writes.map((w) => w.path),
      deletes,
    );
  }

  get count(): number {
    return this.#commits <= 1 ? this.#firstCount : this.#paths.size;
  }

  #apply(writes: readonly Uint8Array[], deletes: readonly Uint8Array[]): void {
    for (const path of deletes) this.#paths.delete(Buffer.from(path).toString("latin1"));
    for (const path of writes) this.#paths.add(Buffer.from(path).toString("latin1"));
  }
}
