import type { BinaryTree, KeyScheme, TreeEntry } from "@bintrie/core";
import type { EntrySpool } from "../entry-spool.js";
import { toHex } from "../hex.js";
import { printLine } from "../line-output.js";
import { type OpenedStore, openStore } from "../open-store.js";
import { Progress } from "../progress.js";
import { readEntries } from "../read-entries.js";
import { type StoreFlags, storeTarget } from "../store-target.js";

export interface BuildFlags extends StoreFlags {
  readonly groupDepth?: number;
  readonly scheme?: KeyScheme;
  readonly json?: boolean;
  readonly commitEvery?: number;
}

/** Entries per atomic commit of a large build (each commit persists the tree so far). */
export const DEFAULT_COMMIT_EVERY = 250_000;

/** What `build` did. */
export interface BuildResult {
  readonly root: Uint8Array;
  readonly entries: number;
  /** Node blobs written (for a build into an empty store: every node of the tree). */
  readonly nodes: number;
}

/** `bintrie build [FILE|-]`: JSON lines of key/value entries → committed tree; prints the root. */
export async function runBuild(file: string | undefined, flags: BuildFlags): Promise<void> {
  const target = storeTarget(flags);
  const { openTree } = await import("@bintrie/core");
  const opened = await openStore(target, { create: true });
  let spool: EntrySpool | undefined;
  let result: BuildResult;
  try {
    let tree: BinaryTree;
    try {
      // Flags that disagree with the store's record fail here, before the input is read.
      tree = await openTree(opened.store, {
        ...(flags.groupDepth === undefined ? {} : { groupDepth: flags.groupDepth }),
        ...(flags.scheme === undefined ? {} : { scheme: flags.scheme }),
      });
      spool = await readEntries(file);
    } catch (error) {
      await opened.discard();
      throw error;
    }
    try {
      result = await buildIntoTree(tree, opened, spool, flags.commitEvery ?? DEFAULT_COMMIT_EVERY);
    } finally {
      await opened.close();
    }
  } finally {
    spool?.dispose();
  }
  if (flags.json) {
    printLine(
      JSON.stringify({ root: toHex(result.root), entries: result.entries, nodes: result.nodes }),
    );
  } else {
    printLine(toHex(result.root));
  }
}

/**
 * Adds the spooled entries to `tree` and commits every `commitEvery` entries: each commit is one
 * atomic store batch (nodes, orphan deletes, root record), so a kill at any moment leaves the
 * store at the last committed root with all of its nodes.
 */
export async function buildIntoTree(
  tree: BinaryTree,
  opened: OpenedStore,
  spool: EntrySpool,
  commitEvery: number,
): Promise<BuildResult> {
  const progress = new Progress("building", spool.count);
  const written = new WrittenPaths();
  let done = 0;
  let chunk: TreeEntry[] = [];
  const commit = async () => {
    await tree.putMany(chunk);
    done += chunk.length;
    chunk = [];
    const set = tree.commit();
    await opened.store.batch(tree.nodeSetOperations(set));
    written.add(set.writes, set.deletes);
    if (Number.isFinite(tree.maxNodes)) tree.evict();
    progress.update(done, " entries");
    return set.root;
  };
  let root: Uint8Array | undefined;
  try {
    for (const page of spool.pages()) {
      const bytes = page.bytes;
      for (let i = 0; i < page.count; i++) {
        const at = i * 64;
        chunk.push({ key: bytes.subarray(at, at + 32), value: bytes.subarray(at + 32, at + 64) });
        if (chunk.length === commitEvery) root = await commit();
      }
    }
    if (chunk.length > 0 || root === undefined) root = await commit();
  } finally {
    progress.done();
  }
  return { root, entries: spool.count, nodes: written.count };
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
