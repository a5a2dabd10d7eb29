import { decodePathKey, nodeDbKey } from "@bintrie/codec";
import type { KeyScheme } from "../embedding/key-scheme.js";
import { equalBytes } from "../store/bytes-order.js";
import type { BatchOperation, KVStore } from "../store/kv-store.js";
import { decodeRootRecord, encodeRootRecord } from "../store/root-record.js";
import { StoreError } from "../store/store-error.js";
import type { Arena } from "./arena.js";
import type { CommitCollector } from "./commit-collector.js";
import type { CommitMarks } from "./commit-marks.js";
import { KIND_EMPTY, KIND_INTERNAL, KIND_STEM, refIndex, refKind } from "./node-ref.js";
import { type NodeSet, PACKED_ENTRY_WORDS, PackedNodeSet } from "./node-set.js";

/** What a persist wrote, and the tree's counters when it took the snapshot. */
export interface PersistSnapshot {
  readonly set: NodeSet;
  readonly marks: CommitMarks;
  readonly mutations: number;
  readonly commits: number;
  /** Set once the store took the set as span puts: its chunks are free after `settle`. */
  spansTaken: boolean;
}

/** How the tree is laid out in its store (what the root record must agree with). */
export interface StoreLayoutOfTree {
  readonly groupDepth: number;
  readonly scheme: KeyScheme;
  readonly keyPrefix: Uint8Array;
  readonly rootRecordKey: Uint8Array;
}

/**
 * Two-phase persist: collect (a pure read of the tree) → one atomic store batch → apply the
 * marks that make the tree clean. Until the batch resolves nothing in the tree changes, so a
 * rejected batch leaves it exactly as dirty as before and the next persist writes everything.
 *
 * Synchronous writes may run while the batch is in flight. Marking clean a node written after
 * the snapshot would lose that write, so the apply step compares the tree's mutation counter
 * with the snapshot's: unchanged (the normal case) → apply the marks; changed → mark nothing
 * clean (every node stays stale and is rewritten by the next persist) and queue every path the
 * batch wrote as an orphan, so a node that moved or went away meanwhile has its old blob
 * deleted (a path the next persist writes again is not deleted). A counter costs nothing per
 * node, where a per-node write epoch would cost 4 bytes per node and a check per write.
 */
export class TreePersister {
  readonly #arena: Arena;
  readonly #collector: CommitCollector;
  readonly #layout: StoreLayoutOfTree;
  #storeChecked = false;

  constructor(arena: Arena, collector: CommitCollector, layout: StoreLayoutOfTree) {
    this.#arena = arena;
    this.#collector = collector;
    this.#layout = layout;
  }

  /** Collects the node set of every blob-stale node; hashes must be up to date. */
  snapshot(root: Uint8Array): PersistSnapshot {
    const { set, marks } = this.#collector.collect(
      this.#layout.groupDepth,
      root,
      this.#layout.keyPrefix,
    );
    return {
      set,
      marks,
      mutations: this.#arena.mutations,
      commits: this.#arena.commits,
      spansTaken: false,
    };
  }

  /**
   * Writes the snapshot in one batch (with `extra` in its root record and `more` operations).
   * A rejected batch leaves the tree as dirty as before (see `abandon`).
   */
  async write(
    store: KVStore,
    snapshot: PersistSnapshot,
    extra: Uint8Array | undefined,
    more: readonly BatchOperation[] | undefined,
  ): Promise<void> {
    if (!this.#storeChecked) await this.#checkStore(store);
    const { set } = snapshot;
    try {
      if (takesSpanBatches(store) && this.#packedHere(set)) {
        // The packed entries are the store's span puts as they are: no object per node.
        const ops: BatchOperation[] = [];
        for (const path of set.deletes) ops.push(this.#deleteOf(path));
        ops.push(this.#rootRecordPut(set, extra));
        if (more !== undefined) for (const op of more) ops.push(op);
        const puts = { chunks: set.chunks, spans: set.entries, count: set.count };
        await store.batchWithSpans!(ops, puts, set.deletes.length);
        snapshot.spansTaken = true;
      } else {
        const ops = this.operations(set, extra);
        if (more !== undefined) for (const op of more) ops.push(op);
        await store.batch(ops);
      }
    } catch (error) {
      this.#abandon(snapshot);
      throw error;
    }
    this.#storeChecked = true;
  }

  /** After the batch resolved: makes the tree clean where that is still true (see class doc). */
  settle(snapshot: PersistSnapshot): void {
    this.#settle(snapshot);
    // The set was this persist's alone, and the store keeps no reference to span chunks: the
    // next collections write into them (fresh chunks cost a page fault per 4 KiB).
    const { set } = snapshot;
    if (snapshot.spansTaken && set instanceof PackedNodeSet) this.#collector.recycle(set);
  }

  #settle(snapshot: PersistSnapshot): void {
    const arena = this.#arena;
    if (arena.commits !== snapshot.commits) {
      // A commit() meanwhile took the same nodes and orphans over: it owns them now. But it
      // could not know the batch would store a node at a path it has left since (a split):
      // that blob is stale now.
      this.#queueVacated(snapshot.set);
      return;
    }
    if (arena.mutations === snapshot.mutations) {
      snapshot.marks.apply(arena);
      return;
    }
    arena.orphans.splice(0, snapshot.marks.orphans);
    this.#queueWritten(snapshot.set);
  }

  /**
   * After the batch rejected. It may have landed all the same (a store can apply a batch and
   * then fail to say so), so a path it wrote may hold a blob: the nodes stay as dirty as they
   * were, and a blob their later moves leave behind is deleted like a stored one's.
   */
  #abandon(snapshot: PersistSnapshot): void {
    const arena = this.#arena;
    if (arena.commits !== snapshot.commits) this.#queueVacated(snapshot.set);
    else if (arena.mutations === snapshot.mutations) snapshot.marks.markMaybeStored(arena);
    // The nodes written are all still stale: the next persist rewrites those still there.
    else this.#queueWritten(snapshot.set);
  }

  /** Queues every path `set` wrote as an orphan (one the next persist writes again is kept). */
  #queueWritten(set: NodeSet): void {
    for (const w of set.writes) {
      const { bits, length } = decodePathKey(w.path);
      this.#arena.orphans.push({ bits, depth: length });
    }
  }

  /**
   * Queues as an orphan each path `set` wrote where the tree now has no node with a blob of its
   * own (the node there moved or went away); a path under a node not loaded is left alone.
   */
  #queueVacated(set: NodeSet): void {
    const groupDepth = this.#layout.groupDepth;
    for (const w of set.writes) {
      const { bits, length } = decodePathKey(w.path);
      if (!holdsNodeAt(this.#arena, bits, length, groupDepth)) {
        this.#arena.orphans.push({ bits, depth: length });
      }
    }
  }

  /** The store operations that make `set` durable: node puts, orphan deletes, root record. */
  operations(set: NodeSet, extra: Uint8Array | undefined): BatchOperation[] {
    const ops: BatchOperation[] = [];
    for (const path of set.deletes) ops.push(this.#deleteOf(path));
    if (this.#packedHere(set)) {
      // Keys and blobs are views of the packed chunks: no buffer per operation.
      const { entries, chunks } = set;
      for (let i = 0; i < set.count; i++) {
        const e = i * PACKED_ENTRY_WORDS;
        const chunk = chunks[entries[e]!]!;
        ops.push({
          type: "put",
          key: chunk.subarray(entries[e + 1]!, entries[e + 2]!),
          value: chunk.subarray(entries[e + 3]!, entries[e + 4]!),
        });
      }
    } else {
      const { keyPrefix } = this.#layout;
      for (const w of set.writes) {
        ops.push({ type: "put", key: nodeDbKey(w.path, keyPrefix), value: w.blob });
      }
    }
    ops.push(this.#rootRecordPut(set, extra));
    return ops;
  }

  /** Whether `set` is packed with this tree's key prefix (its keys are store keys as they are). */
  #packedHere(set: NodeSet): set is PackedNodeSet {
    return set instanceof PackedNodeSet && equalBytes(set.keyPrefix, this.#layout.keyPrefix);
  }

  #deleteOf(path: Uint8Array): BatchOperation {
    return { type: "del", key: nodeDbKey(path, this.#layout.keyPrefix) };
  }

  #rootRecordPut(set: NodeSet, extra: Uint8Array | undefined): BatchOperation {
    const { rootRecordKey, scheme } = this.#layout;
    const record = { root: set.root, groupDepth: set.groupDepth, scheme, extra };
    return { type: "put", key: rootRecordKey, value: encodeRootRecord(record) };
  }

  /** Refuses to overwrite the root record of a tree with another layout (checked once). */
  async #checkStore(store: KVStore): Promise<void> {
    const { rootRecordKey, groupDepth, scheme } = this.#layout;
    const bytes = await store.get(rootRecordKey);
    if (bytes === undefined) return;
    const record = decodeRootRecord(bytes);
    const other =
      record.groupDepth !== groupDepth
        ? `group depth ${record.groupDepth}, this tree uses ${groupDepth}`
        : record.scheme !== scheme
          ? `key scheme '${record.scheme}', this tree uses '${scheme}'`
          : undefined;
    if (other !== undefined) {
      throw new StoreError(
        "ROOT_RECORD_MISMATCH",
        `persist: the store already holds a tree with ${other}; refusing to overwrite its root record (open it with openTree, or use another keyPrefix and rootRecordKey)`,
      );
    }
  }
}

/**
 * Whether the tree has, at the first `depth` bits of `bits`, a node whose blob is stored at that
 * path (a stem ending there, or an internal node with a blob: a group root, or any at group
 * depth 0), or may have one (the walk meets a node not loaded).
 */
function holdsNodeAt(arena: Arena, bits: Uint8Array, depth: number, groupDepth: number): boolean {
  const { internals, stems } = arena;
  let ref = arena.root;
  for (let d = 0; ; d++) {
    const kind = refKind(ref);
    if (kind === KIND_EMPTY) return false;
    if (kind === KIND_STEM) return d === depth && stems.getDepth(refIndex(ref)) === depth;
    if (kind !== KIND_INTERNAL) return true;
    if (d === depth) return groupDepth === 0 || d % groupDepth === 0;
    ref = internals.getChild(refIndex(ref), (bits[d >>> 3]! >>> (7 - (d & 7))) & 1);
  }
}

/**
 * Whether `store.batchWithSpans` stands for the `batch` the store uses. A subclass that overrides
 * `batch` alone (to inject faults, or to mirror or log writes) must see every batch of a persist,
 * so spans are taken only when the object or class defining `batchWithSpans` also has the
 * `batch` in use.
 */
function takesSpanBatches(store: KVStore): boolean {
  if (store.batchWithSpans === undefined) return false;
  let owner: object | null = store;
  while (owner !== null && !Object.hasOwn(owner, "batchWithSpans")) {
    owner = Object.getPrototypeOf(owner);
  }
  return owner !== null && (owner as KVStore).batch === store.batch;
}
