import { describeValue, NODE_KEY_PREFIX } from "@bintrie/codec";
import { describeBytes } from "../bytes/describe-bytes.js";
import type { BytesLike } from "../bytes/hex.js";
import { KeyDeriver } from "../embedding/key-deriver.js";
import {
  DEFAULT_KEY_SCHEME,
  hashFunctionOfScheme,
  type KeyScheme,
} from "../embedding/key-scheme.js";
import type { StorageSlotLike } from "../embedding/storage-slot.js";
import { getHasher } from "../hash/get-hasher.js";
import type { Hasher } from "../hash/hasher.js";
import type { BatchOperation, KVStore } from "../store/kv-store.js";
import { ROOT_RECORD_KEY } from "../store/root-record.js";
import { validateBatchOperations } from "../store/validate-batch.js";
import type { Witness } from "../witness/witness.js";
import { WitnessRecorder } from "../witness/witness-recorder.js";
import type { Account, AccountInput } from "./account.js";
import { AccountState } from "./account-state.js";
import { Arena } from "./arena.js";
import { BulkBuilder } from "./bulk-builder.js";
import { CheckpointJournal } from "./checkpoint-journal.js";
import { ClosingHasher } from "./closing-hasher.js";
import { CommitCollector } from "./commit-collector.js";
import { Evictor, type MemoryLimits } from "./evictor.js";
import { GroupBlobCache } from "./group-blob-cache.js";
import { NodeLoader } from "./node-loader.js";
import type { NodeSet } from "./node-set.js";
import { type EntryRange, entries, entriesSync } from "./ordered-entries.js";
import { PathLoader } from "./path-loader.js";
import { removeAllOrNothing } from "./remove-batch.js";
import { SerialQueue } from "./serial-queue.js";
import { StaleHasher } from "./stale-hasher.js";
import { TreeError } from "./tree-error.js";
import {
  assertExtra,
  assertKey,
  assertNodeSet,
  assertStem,
  assertValue,
  copyEntries,
  copyKeys,
  copyOperation,
} from "./tree-inputs.js";
import { assertLimit, validateTreeOptions } from "./tree-options.js";
import { TreePersister } from "./tree-persister.js";
import { LOOKUP_ABSENT, LOOKUP_UNRESOLVED, TreeWalker } from "./tree-walker.js";
import { applyWriteLog } from "./write-flusher.js";
import { WriteLog } from "./write-log.js";

/** geth's default group depth (`--bintrie.groupdepth`). */
export const DEFAULT_GROUP_DEPTH = 5;

export interface BinaryTreeOptions {
  /** Key derivation and node hash variant. Default 'sha256-be' (go-ethereum master). */
  readonly scheme?: KeyScheme;
  /** Overrides the node hasher (for example a faster SHA-256 kernel); must match the scheme. */
  readonly hasher?: Hasher;
  /** Internal nodes per stored group blob: 0 = flat 65-byte nodes, 1..8 = group blobs. Default 5. */
  readonly groupDepth?: number;
  /** Where missing nodes are loaded from and where `persist()` writes. */
  readonly store?: KVStore;
  /** Prefix of node keys in the store. Default "vA" (go-ethereum's pathdb layout). */
  readonly keyPrefix?: Uint8Array;
  /** Store key of the root record. Default "bintrie:root". */
  readonly rootRecordKey?: Uint8Array;
  /**
   * What deleting a key does. 'zero' (default, go-ethereum master): writes 32 zero bytes, a
   * present leaf; nothing is ever removed. 'remove': the value is removed; a stem left without
   * values is removed and internal nodes collapse, so the tree has exactly the shape (and root)
   * it would have had without the removed keys; commit deletes the paths that disappear.
   */
  readonly deletionMode?: DeletionMode;
  /**
   * Memory bound in nodes: at the end of `persist()`, `getMany()`, `putMany()` and
   * `deleteMany()` (not `load()`, whose caller uses the nodes next), clean stored group subtrees are turned back into hashed placeholders
   * (reloaded on demand), least recently used first, until at most this many internal + stem
   * nodes stay in memory. A positive integer; default unbounded.
   */
  readonly maxNodes?: number;
  /**
   * Memory bound in bytes of the arena's live nodes, placeholders and value heap (see
   * `stats().liveBytes`), enforced like `maxNodes`. Freed slots are reused before the pools
   * grow, so the arena's typed arrays stay near this size plus one call's working set.
   * A positive integer; default unbounded.
   */
  readonly maxBytes?: number;
}

export type DeletionMode = "zero" | "remove";

const ZERO_VALUE = new Uint8Array(32);

/** Options of `persist()`. */
export interface PersistOptions {
  /** Opaque bytes kept in the root record with this root. */
  readonly extra?: Uint8Array;
  /** More operations for the same atomic batch. */
  readonly operations?: readonly BatchOperation[];
}

/** Options of `commit()`. */
export interface CommitOptions {
  /** Must equal the tree's group depth (a node set of another layout would not match the flags). */
  readonly groupDepth?: number;
}

/** A key/value entry of a batch write. */
export interface TreeEntry {
  readonly key: Uint8Array;
  readonly value: Uint8Array;
}

/** What `updateMany` changes: keys to delete, then entries to write. */
export interface UpdateManyChanges {
  readonly deletes?: readonly Uint8Array[];
  readonly puts?: Iterable<TreeEntry>;
}

let arenaAccess: (tree: BinaryTree) => Arena;

/** Package-internal: the arena behind a tree (proofs and tools walk it directly). Not exported from the package index. */
export function arenaOf(tree: BinaryTree): Arena {
  return arenaAccess(tree);
}

/**
 * The EIP-7864 binary tree on a pointer-free arena.
 *
 * Writes mark their path stale; `hash()` rehashes only stale nodes, level by level in batches;
 * `commit()` serializes only nodes whose stored blob is stale. Synchronous methods work on
 * nodes in memory and throw TreeError('MISSING_NODE') when they reach a node still in the
 * store; the async methods (`getMany`, `putMany`, `deleteMany`, `load`, `persist`, `openRoot`)
 * load what they need first, one store round per tree level.
 *
 * Async methods run one at a time, in call order (a per-tree serial queue): overlapping calls
 * have the outcome of running them one after another, whatever the store's latency or the
 * order its requests complete in. A queue is the one mechanism that makes every interleaving
 * serial at once — loads keep arena slots across awaits, persists must land in order — where
 * generations or pinning would each cover one hazard. Synchronous methods act at once, also
 * while an async call is suspended; a write made during a persist lands in that persist's
 * successor (see TreePersister), never lost.
 *
 * @example
 * ```ts
 * import { BinaryTree, bytesToHex, MemoryStore, openTree } from "@bintrie/core";
 *
 * const store = new MemoryStore();
 * const tree = new BinaryTree({ store, groupDepth: 5 });
 * tree.put(new Uint8Array(32).fill(1), new Uint8Array(32).fill(2)); // tree level: bytes
 * tree.putStorage("0x00000000000000000000000000000000000000aa", "0x01", "0x2a"); // accounts: hex too
 * const root = await tree.persist();
 * bytesToHex((await openTree(store)).hash()) === bytesToHex(root); // true
 * ```
 */
export class BinaryTree {
  readonly scheme: KeyScheme;
  readonly hasher: Hasher;
  readonly groupDepth: number;
  readonly store: KVStore | undefined;
  readonly keyPrefix: Uint8Array;
  readonly rootRecordKey: Uint8Array;
  readonly deletionMode: DeletionMode;
  readonly maxNodes: number;
  readonly maxBytes: number;
  readonly #arena = new Arena();
  readonly #staleHasher: StaleHasher;
  /** Hashes the nodes a flush inside `hash()` makes stale as the writes close them. */
  readonly #closing: ClosingHasher;
  readonly #bulk: BulkBuilder;
  readonly #collector: CommitCollector;
  /** The collector's count when the outermost open checkpoint was opened. */
  #collectionsAtCheckpoint = 0;
  readonly #paths: PathLoader;
  readonly #persister: TreePersister;
  readonly #evictor: Evictor;
  readonly #walker: TreeWalker;
  readonly #writes = new WriteLog();
  #journal: CheckpointJournal | undefined;
  #recorder: WitnessRecorder | undefined;
  readonly #queue = new SerialQueue();
  #accounts: AccountState | undefined;
  #keys: KeyDeriver | undefined;

  static {
    arenaAccess = (tree) => {
      tree.#flushWrites();
      return tree.#arena;
    };
  }

  constructor(options: BinaryTreeOptions = {}) {
    validateTreeOptions(options, "BinaryTree");
    this.scheme = options.scheme ?? DEFAULT_KEY_SCHEME;
    const hashName = hashFunctionOfScheme(this.scheme);
    this.hasher = options.hasher ?? getHasher(hashName);
    if (this.hasher.name !== hashName) {
      throw new TreeError(
        "INVALID_OPTION",
        `hasher '${this.hasher.name}' does not match key scheme '${this.scheme}'`,
      );
    }
    this.groupDepth = options.groupDepth ?? DEFAULT_GROUP_DEPTH;
    this.store = options.store;
    this.keyPrefix = options.keyPrefix ?? NODE_KEY_PREFIX;
    this.rootRecordKey = options.rootRecordKey ?? ROOT_RECORD_KEY;
    this.deletionMode = options.deletionMode ?? "zero";
    this.maxNodes = options.maxNodes ?? Number.POSITIVE_INFINITY;
    this.maxBytes = options.maxBytes ?? Number.POSITIVE_INFINITY;
    const arena = this.#arena;
    this.#bulk = new BulkBuilder(arena);
    this.#staleHasher = new StaleHasher(arena, this.hasher, this.#bulk);
    this.#bulk.windows = this.#staleHasher;
    this.#closing = new ClosingHasher(arena, this.#staleHasher);
    // The last blobs of large groups, kept for the next commit (not with a memory bound, which
    // does not count them); stored groups loaded from the store seed it too.
    const groupCache = this.#bounded ? undefined : new GroupBlobCache();
    this.#collector = new CommitCollector(arena, groupCache);
    this.#walker = new TreeWalker(arena);
    this.#walker.touching = this.#bounded;
    const loader = new NodeLoader(arena, this.#staleHasher, this.groupDepth, groupCache);
    this.#paths = new PathLoader(arena, this.#walker, loader, this.keyPrefix);
    this.#persister = new TreePersister(arena, this.#collector, this);
    this.#evictor = new Evictor(arena);
  }

  // ---- reads ----------------------------------------------------------------------------

  /** The 32-byte value at `key`, or undefined when absent. */
  get(key: Uint8Array): Uint8Array | undefined {
    assertKey(key);
    this.#flushWrites();
    const index = this.#walker.lookup(key);
    if (index === LOOKUP_UNRESOLVED) throw this.#walker.missingError(key);
    if (index === LOOKUP_ABSENT) return undefined;
    const stems = this.#arena.stems;
    const sub = key[31]!;
    if (!stems.has(index, sub)) return undefined;
    const at = stems.valueOffset(index, sub);
    return stems.blockPage(index).slice(at, at + 32);
  }

  /** All 256 slots of a stem (undefined where absent), or undefined when the stem is absent. */
  getStem(stem: Uint8Array): (Uint8Array | undefined)[] | undefined {
    assertStem(stem);
    this.#flushWrites();
    const index = this.#walker.lookup(stem);
    if (index === LOOKUP_UNRESOLVED) throw this.#walker.missingError(stem);
    if (index === LOOKUP_ABSENT) return undefined;
    return this.#stemSlots(index);
  }

  // ---- writes ---------------------------------------------------------------------------

  /** Sets the 32-byte value at `key` (a 31-byte stem and a 1-byte subindex). */
  put(key: Uint8Array, value: Uint8Array): void {
    assertKey(key);
    assertValue(value, key);
    if (this.#arena.hashed.live !== 0) {
      // Nodes may still be in the store: write through, so a MISSING_NODE error surfaces here.
      this.#flushWrites();
      this.#walker.applyWrite(key, 0, value, 0);
      return;
    }
    this.#writes.append(key, value);
    if (this.#writes.full) this.#flushWrites();
  }

  /**
   * Sets every present value of a stem (slot i = subindex i; null/undefined leaves the slot as
   * it is). Like geth, a stem is created even when no value is given.
   */
  putStem(stem: Uint8Array, values: ReadonlyArray<Uint8Array | null | undefined>): void {
    this.#flushWrites();
    assertStem(stem);
    if (!Array.isArray(values)) {
      throw new TreeError(
        "INVALID_VALUE",
        `putStem: values must be an array of up to 256 values (32 bytes, null or undefined), got ${describeValue(values)}`,
      );
    }
    if (values.length > 256) {
      throw new TreeError(
        "INVALID_VALUE",
        `putStem: at most 256 values per stem, got ${values.length}`,
      );
    }
    for (let i = 0; i < values.length; i++) {
      const v = values[i];
      if (v !== null && v !== undefined) assertValue(v, stem);
    }
    const before = this.#arena.stems.live;
    const index = this.#walker.stemForWrite(stem);
    let changed = this.#arena.stems.live !== before;
    for (let i = 0; i < values.length; i++) {
      const v = values[i];
      if (v !== null && v !== undefined && this.#arena.stems.setValue(index, i, v, 0))
        changed = true;
    }
    this.#walker.finishWrite(index, changed);
  }

  /**
   * Deletes the value at `key`: writes 32 zero bytes in 'zero' mode; removes it (and collapses
   * what it leaves behind) in 'remove' mode. Deleting an absent key changes nothing.
   */
  delete(key: Uint8Array): void {
    this.#flushWrites();
    assertKey(key);
    if (this.deletionMode === "zero") {
      this.put(key, ZERO_VALUE);
      return;
    }
    if (this.#walker.removeKey(key) === LOOKUP_UNRESOLVED) throw this.#walker.missingError(key);
  }

  // ---- accounts (EIP-7864 layout, go-ethereum semantics) --------------------------------

  /** The key deriver of this tree's scheme (reuses one preimage buffer). */
  get keys(): KeyDeriver {
    this.#keys ??= new KeyDeriver(this.scheme, this.hasher);
    return this.#keys;
  }

  get #accountState(): AccountState {
    this.#accounts ??= new AccountState(this, this.keys);
    return this.#accounts;
  }

  /** The account header, or undefined when absent or deleted (both header leaves zero). */
  getAccount(address: BytesLike): Account | undefined {
    return this.#accountState.getAccount(address);
  }

  /** Writes the BASIC_DATA and CODE_HASH leaves of the account stem. */
  putAccount(address: BytesLike, account: AccountInput): void {
    this.#accountState.putAccount(address, account);
  }

  /** geth's DeleteAccount: writes 32 zero bytes to both header leaves; storage and code stay. */
  deleteAccount(address: BytesLike): void {
    this.#accountState.deleteAccount(address);
  }

  /** The 32-byte value of a storage slot, or undefined when never written. */
  getStorage(address: BytesLike, slot: StorageSlotLike): Uint8Array | undefined {
    return this.#accountState.getStorage(address, slot);
  }

  /** Writes a storage value (at most 32 bytes, left-padded). */
  putStorage(address: BytesLike, slot: StorageSlotLike, value: BytesLike): void {
    this.#accountState.putStorage(address, slot, value);
  }

  /** geth's DeleteStorage: writes 32 zero bytes (a present zero leaf). */
  deleteStorage(address: BytesLike, slot: StorageSlotLike): void {
    this.#accountState.deleteStorage(address, slot);
  }

  /** Writes the code chunks (not the header's codeSize/codeHash: use putAccount). */
  putCode(address: BytesLike, code: BytesLike): void {
    this.#accountState.putCode(address, code);
  }

  /** The code rebuilt from its chunks (empty when the account has none). */
  getCode(address: BytesLike): Uint8Array {
    return this.#accountState.getCode(address);
  }

  // ---- hashing and commit ---------------------------------------------------------------

  /** The root hash (32 bytes; zero for the empty tree), rehashing only stale nodes. */
  hash(): Uint8Array {
    // A bulk build of the pending writes hashes as it goes (nothing then is stale), and so do
    // writes to a hashed tree (see ClosingHasher).
    this.#bulk.hashNext = true;
    try {
      applyWriteLog(this.#writes, this.#walker, this.#arena, this.#bulk, this.#closing);
    } finally {
      this.#bulk.hashNext = false;
    }
    this.#staleHasher.hashStale();
    const out = new Uint8Array(32);
    this.#arena.writeHash(this.#arena.root, out, 0);
    return out;
  }

  /**
   * Serializes every node whose stored blob is stale (post-order, children first) and marks the
   * tree clean at once: the caller takes over making the node set durable. A second commit
   * without changes returns no writes. Use `persist()` to write to the tree's store, which marks
   * the tree clean only once the store batch has landed.
   */
  commit(options: CommitOptions = {}): NodeSet {
    validateTreeOptions(options, "commit", ["groupDepth"]);
    if (options.groupDepth !== undefined && options.groupDepth !== this.groupDepth) {
      throw new TreeError(
        "INVALID_OPTION",
        `commit: groupDepth ${options.groupDepth} differs from the tree's group depth ${this.groupDepth} (a tree commits in its own layout)`,
      );
    }
    const root = this.hash();
    // Taken over at once: each node is made clean as it is collected.
    const { set, marks } = this.#collector.collect(this.groupDepth, root, this.keyPrefix, true);
    marks.apply(this.#arena);
    return set;
  }

  /**
   * Commits and writes the node set, its deletions and the root record to the store in one
   * atomic batch; returns the root. `extra` is kept in the root record (e.g. a conversion
   * cursor); `operations` are added to the same batch (side tables an upper layer keeps in step
   * with the tree). Two-phase: the tree is marked clean only after the batch resolved, so after
   * a rejection it is as dirty as before and the next persist writes everything. Refuses
   * (StoreError 'ROOT_RECORD_MISMATCH') a store whose root record has another layout.
   */
  async persist(options: PersistOptions = {}): Promise<Uint8Array> {
    validateTreeOptions(options, "persist", ["extra", "operations"]);
    assertExtra(options.extra, "persist");
    // Checked on their own: an error then numbers the caller's operations, not the batch's.
    if (options.operations !== undefined)
      validateBatchOperations(options.operations, "persist: operations");
    const extra = options.extra?.slice();
    // Copies, as every async call's arguments are: the batch writes what was passed at call time.
    const more = options.operations?.map(copyOperation);
    return this.#serial(async () => {
      const store = this.#requireStore("persist");
      this.#refuseInCheckpoint("persist");
      const snapshot = this.#persister.snapshot(this.hash());
      await this.#persister.write(store, snapshot, extra, more);
      this.#persister.settle(snapshot);
      this.#enforceMemoryBound();
      return snapshot.set.root;
    });
  }

  /** The store operations that make `set` durable: node puts, orphan deletes, root record. */
  nodeSetOperations(set: NodeSet, options: { extra?: Uint8Array } = {}): BatchOperation[] {
    assertNodeSet(set, "nodeSetOperations");
    validateTreeOptions(options, "nodeSetOperations", ["extra"]);
    assertExtra(options.extra, "nodeSetOperations");
    return this.#persister.operations(set, options.extra);
  }

  // ---- async batch operations -----------------------------------------------------------

  /** Loads from the store every node on the paths of these keys or stems. */
  async load(keysOrStems: readonly Uint8Array[]): Promise<void> {
    if (!Array.isArray(keysOrStems)) {
      throw new TreeError(
        "INVALID_KEY",
        `load: expected an array of 31- or 32-byte keys, got ${describeValue(keysOrStems)}`,
      );
    }
    const keys = keysOrStems.map((k) => {
      if (!(k instanceof Uint8Array) || (k.length !== 31 && k.length !== 32)) {
        throw new TreeError(
          "INVALID_KEY",
          `load: expected 31- or 32-byte keys, got ${describeBytes(k)}`,
        );
      }
      return k.slice();
    });
    // No eviction here: callers load in order to use the nodes next (`prove`, sync reads).
    return this.#serial(() => this.#load(keys));
  }

  /** Values for many keys, loading missing nodes with one store round per tree level. */
  async getMany(keys: readonly Uint8Array[]): Promise<(Uint8Array | undefined)[]> {
    const copies = copyKeys(keys, "getMany");
    return this.#serial(async () => {
      await this.#load(copies);
      // Every value read after the last await: writes made while the loads ran are in all of
      // them or (had they come later) in none.
      const out = copies.map((key) => this.get(key));
      this.#enforceMemoryBound();
      return out;
    });
  }

  /** Writes many entries, loading the nodes on their paths first. */
  async putMany(entries: Iterable<TreeEntry>): Promise<void> {
    const list = copyEntries(entries, "putMany");
    return this.#serial(async () => {
      await this.#load(list.map((e) => e.key));
      for (const { key, value } of list) this.put(key, value);
      this.#enforceMemoryBound();
    });
  }

  /** Deletes many keys, loading what the deletions (and collapses) need from the store first. */
  async deleteMany(keys: readonly Uint8Array[]): Promise<void> {
    const copies = copyKeys(keys, "deleteMany");
    return this.#serial(async () => {
      if (this.deletionMode === "zero") {
        await this.#load(copies);
        for (const key of copies) this.put(key, ZERO_VALUE);
      } else {
        await this.#removeAll(copies);
      }
      this.#enforceMemoryBound();
    });
  }

  /**
   * Deletes `deletes`, then writes `puts`, all or nothing: every node both need is loaded first,
   * and a store read failing at any point changes nothing (writes made meanwhile land before the
   * whole call). For changes that must not be seen half done, e.g. new code chunks replacing
   * longer old ones in 'remove' mode.
   */
  async updateMany(changes: UpdateManyChanges): Promise<void> {
    if (changes === null || typeof changes !== "object") {
      throw new TreeError(
        "INVALID_OPTION",
        `updateMany: changes must be { deletes?, puts? }, got ${describeValue(changes)}`,
      );
    }
    const deletes = copyKeys(changes.deletes ?? [], "updateMany: deletes");
    const puts = copyEntries(changes.puts ?? [], "updateMany: puts");
    return this.#serial(async () => {
      const writeAll = () => {
        for (const { key, value } of puts) this.put(key, value);
      };
      // Both key sets in one load, one store round per level (#removeAll's own load of the
      // deletes then finds them in memory).
      await this.#load([...deletes, ...puts.map((e) => e.key)]);
      if (this.deletionMode === "zero") {
        for (const key of deletes) this.put(key, ZERO_VALUE);
        writeAll();
      } else {
        await this.#removeAll(deletes, writeAll);
      }
      this.#enforceMemoryBound();
    });
  }

  /**
   * Evicts clean stored subtrees now, least recently used first, down to `maxNodes` nodes
   * (default: the tree's bounds); returns the nodes released. While an async call is in flight
   * it evicts nothing (that call may hold slots across an await) and returns 0: the bound is
   * enforced again when the call ends.
   */
  evict(maxNodes?: number): number {
    if (maxNodes !== undefined) assertLimit(maxNodes, "evict: maxNodes");
    if (!this.#queue.idle) return 0;
    this.#flushWrites();
    const limits: MemoryLimits =
      maxNodes === undefined
        ? { maxNodes: this.maxNodes, maxBytes: this.maxBytes }
        : { maxNodes, maxBytes: Number.POSITIVE_INFINITY };
    return this.#evictor.evict(limits, this.groupDepth);
  }

  // ---- opening ---------------------------------------------------------------------------

  /** Replaces the (empty) tree with the stored tree whose root hash is `root`. */
  async openRoot(root: Uint8Array): Promise<void> {
    const copy = root instanceof Uint8Array ? root.slice() : root;
    return this.#serial(async () => {
      this.#flushWrites();
      await this.#paths.openRoot(this.#requireStore("openRoot"), copy);
    });
  }

  // ---- checkpoints and copies (see checkpoint-journal.ts) --------------------------------

  /**
   * Opens a checkpoint (they nest). `revertCheckpoint()` undoes every change since then,
   * `commitCheckpoint()` keeps them. While one is open `persist()` is refused: the store cannot
   * be reverted. Cost: O(nodes changed), nothing per node of the tree.
   */
  checkpoint(): void {
    this.#refuseWhileBusy("checkpoint");
    this.#flushWrites();
    this.#journal ??= new CheckpointJournal(this.#arena);
    if (this.#journal.depth === 0) this.#collectionsAtCheckpoint = this.#collector.collections;
    this.#journal.open();
  }

  /** Undoes every write, delete, load and structural change since the matching checkpoint(). */
  revertCheckpoint(): void {
    this.#refuseWhileBusy("revertCheckpoint");
    this.#flushWrites();
    if (this.#journal === undefined) this.#noCheckpoint("revertCheckpoint");
    this.#journal.revert();
    // A commit() inside the checkpoint cached group blobs of a state the tree just left.
    if (this.#collector.collections !== this.#collectionsAtCheckpoint) {
      this.#collector.forgetGroups();
      this.#collectionsAtCheckpoint = this.#collector.collections;
    }
  }

  /** Keeps the changes since the matching checkpoint(), as part of the enclosing one. */
  commitCheckpoint(): void {
    this.#refuseWhileBusy("commitCheckpoint");
    this.#flushWrites();
    if (this.#journal === undefined) this.#noCheckpoint("commitCheckpoint");
    this.#journal.commit();
  }

  /** Number of open checkpoints. */
  get checkpointDepth(): number {
    return this.#journal?.depth ?? 0;
  }

  /**
   * An independent tree with the same contents, options and store, in O(chunks): the pools'
   * chunks are shared copy-on-write, each side cloning a chunk the first time it writes to it.
   * The copy has no open checkpoints (it starts from the current state). `store` (default:
   * this tree's) is where the copy loads placeholders from and persists to: the same store, or
   * one holding the same stored nodes (a path-keyed store keeps one tree: once two diverged
   * trees persist into it, only the last one's placeholders resolve).
   */
  copy(options: { store?: KVStore } = {}): BinaryTree {
    this.#flushWrites();
    const twin = new BinaryTree({
      scheme: this.scheme,
      hasher: this.hasher,
      groupDepth: this.groupDepth,
      store: options.store ?? this.store,
      keyPrefix: this.keyPrefix,
      rootRecordKey: this.rootRecordKey,
      deletionMode: this.deletionMode,
      maxNodes: this.maxNodes,
      maxBytes: this.maxBytes,
    });
    twin.#arena.adoptTwinOf(this.#arena);
    if (this.#journal !== undefined && this.#journal.depth > 0) {
      this.#journal.applyDeferredTo(twin.#arena);
    }
    return twin;
  }

  /** Checkpoint levels must not cut through an async call (it may hold slots across an await). */
  #refuseWhileBusy(operation: string): void {
    if (!this.#queue.idle) {
      throw new TreeError(
        "BUSY",
        `${operation}: an async call (load, getMany, putMany, deleteMany, persist, openRoot) is still running; await it first`,
      );
    }
  }

  #refuseInCheckpoint(operation: string): void {
    if (this.#journal !== undefined && this.#journal.depth > 0) {
      throw new TreeError(
        "CHECKPOINT_OPEN",
        `${operation}: ${this.#journal.depth} checkpoint(s) open; commit or revert them first (the store cannot be reverted)`,
      );
    }
  }

  #noCheckpoint(operation: string): never {
    throw new TreeError(
      "NO_CHECKPOINT",
      `${operation}: no checkpoint is open (call checkpoint() first)`,
    );
  }

  // ---- witnesses (see src/witness/) -------------------------------------------------------

  /**
   * Starts recording a witness: hashes the tree (the pre-state root) and from now on captures
   * the stored blob of every pre-state node a read, write or delete walks through.
   */
  beginWitness(): void {
    if (this.#recorder !== undefined) {
      throw new TreeError("WITNESS_ACTIVE", "beginWitness: a witness is already being recorded");
    }
    const root = this.hash();
    this.#recorder = new WitnessRecorder(this.#arena, this.groupDepth, root, this.scheme);
    this.#walker.recorder = this.#recorder;
  }

  /** Stops recording; the pre-state root and the nodes every recorded operation needs. */
  endWitness(): Witness {
    const recorder = this.#recorder;
    if (recorder === undefined) {
      throw new TreeError(
        "WITNESS_NOT_STARTED",
        "endWitness: no witness is being recorded (call beginWitness() first)",
      );
    }
    this.#flushWrites();
    this.#recorder = undefined;
    this.#walker.recorder = undefined;
    return recorder.finish();
  }

  // ---- ordered iteration (see ordered-entries.ts) ----------------------------------------

  /**
   * `[key, value]` pairs in key order from `start` (inclusive) to `end` (exclusive), loading
   * nodes from the store as the walk reaches them and keeping to the memory bound. Each step
   * starts again from the root after the last key, so writes between steps are safe.
   */
  entries(range: EntryRange = {}): AsyncGenerator<[Uint8Array, Uint8Array], void, undefined> {
    return entries(this, this.#flushedArena, range);
  }

  /** `entries()` for trees in memory: a node still in the store is TreeError('MISSING_NODE'). */
  entriesSync(range: EntryRange = {}): Generator<[Uint8Array, Uint8Array], void, undefined> {
    return entriesSync(this.#flushedArena, range);
  }

  readonly #flushedArena = (): Arena => {
    this.#flushWrites();
    return this.#arena;
  };

  // ---- statistics -----------------------------------------------------------------------

  /**
   * Live nodes per kind, the bytes the arena's typed arrays hold (`arenaBytes`), the bytes
   * its live nodes, placeholders and values occupy (`liveBytes`, what `maxBytes` bounds) and
   * the bytes of the last group blobs kept for the next commit (`groupCacheBytes`; trees
   * without a memory bound keep the blobs of groups with 8 or more entries, so a commit
   * rewrites only the changed hashes of each group instead of gathering it whole).
   */
  stats(): {
    internal: number;
    stem: number;
    hashed: number;
    arenaBytes: number;
    liveBytes: number;
    groupCacheBytes: number;
  } {
    this.#flushWrites();
    const arena = this.#arena;
    return {
      ...arena.counts(),
      arenaBytes: arena.bytes(),
      liveBytes: arena.liveBytes(),
      groupCacheBytes: this.#collector.cacheBytes,
    };
  }

  // ---- internals ------------------------------------------------------------------------

  get #bounded(): boolean {
    return this.maxNodes !== Number.POSITIVE_INFINITY || this.maxBytes !== Number.POSITIVE_INFINITY;
  }

  /**
   * Runs an async operation in the tree's serial queue (see the class comment). The public
   * async methods check and copy their arguments before queueing, at call time.
   */
  #serial<T>(operation: () => Promise<T>): Promise<T> {
    return this.#queue.run(operation);
  }

  async #load(keys: readonly Uint8Array[]): Promise<void> {
    this.#flushWrites();
    await this.#paths.load(this.#storeOf("load"), keys);
  }

  /**
   * 'remove' mode: every key removed, or (a store read failed) none; see remove-batch.ts.
   * `andThen` (writes whose paths are loaded) runs in the same synchronous pass, after them.
   */
  async #removeAll(keys: readonly Uint8Array[], andThen?: () => void): Promise<void> {
    await this.#load(keys);
    this.#journal ??= new CheckpointJournal(this.#arena);
    for (;;) {
      this.#flushWrites();
      const routes = removeAllOrNothing(
        this.#walker,
        this.#journal,
        keys,
        this.#arena.hashed.live === 0,
        andThen,
      );
      if (routes.length === 0) return;
      await this.#paths.load(this.#storeOf("load"), routes);
    }
  }

  /** Inside the queue, at the end of an operation: nothing holds arena slots across an await. */
  #enforceMemoryBound(): void {
    if (!this.#bounded) return;
    // Pending writes go into the tree first: eviction turns nodes into placeholders, which a
    // write still in the log could not be applied through afterwards.
    this.#flushWrites();
    this.#evictor.evict({ maxNodes: this.maxNodes, maxBytes: this.maxBytes }, this.groupDepth);
  }

  #flushWrites(): void {
    applyWriteLog(this.#writes, this.#walker, this.#arena, this.#bulk);
  }

  #stemSlots(index: number): (Uint8Array | undefined)[] {
    const stems = this.#arena.stems;
    const slots: (Uint8Array | undefined)[] = new Array(256).fill(undefined);
    const subs = new Uint16Array(256);
    const n = stems.presentSubindices(index, subs, 0);
    const page = stems.blockPage(index);
    const base = stems.blockOffset(index);
    for (let r = 0; r < n; r++) slots[subs[r]!] = page.slice(base + (r << 5), base + (r << 5) + 32);
    return slots;
  }

  /** The store, looked up only when a load actually needs it (a tree in memory needs none). */
  #storeOf(operation: string): () => KVStore {
    return () => this.#requireStore(operation);
  }

  #requireStore(operation: string): KVStore {
    if (this.store === undefined) {
      throw new TreeError("NO_STORE", `${operation}: this tree has no store (pass options.store)`);
    }
    return this.store;
  }
}
