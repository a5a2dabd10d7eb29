import { encodePathKey, MAX_GROUP_DEPTH, NODE_KEY_PREFIX, nodeDbKey } from "@bintrie/codec";
import { createKeyDeriver, type KeyDeriver } from "../embedding/key-deriver.js";
import {
  DEFAULT_KEY_SCHEME,
  hashFunctionOfScheme,
  type KeyScheme,
} from "../embedding/key-scheme.js";
import type { StorageSlot } from "../embedding/storage-slot.js";
import { getHasher } from "../hash/get-hasher.js";
import type { Hasher } from "../hash/hasher.js";
import { hexOf } from "../hex-of.js";
import type { BatchOperation, KVStore } from "../store/kv-store.js";
import { encodeRootRecord, ROOT_RECORD_KEY } from "../store/root-record.js";
import type { Witness } from "../witness/witness.js";
import { WitnessRecorder } from "../witness/witness-recorder.js";
import type { Account } from "./account.js";
import { AccountState } from "./account-state.js";
import { Arena } from "./arena.js";
import { CheckpointJournal } from "./checkpoint-journal.js";
import { CommitCollector } from "./commit-collector.js";
import { Evictor } from "./evictor.js";
import { NodeLoader } from "./node-loader.js";
import { EMPTY_REF, KIND_HASHED, refIndex, refKind } from "./node-ref.js";
import type { NodeSet } from "./node-set.js";
import { type EntryRange, entries, entriesSync } from "./ordered-entries.js";
import { StaleHasher } from "./stale-hasher.js";
import { TreeError } from "./tree-error.js";
import { LOOKUP_ABSENT, LOOKUP_UNRESOLVED, sharedPrefixBits, TreeWalker } from "./tree-walker.js";
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
   * Memory bound: after `persist()` and after loads, clean stored subtrees are turned back
   * into hashed placeholders (reloaded on demand) until about this many internal + stem nodes
   * stay in memory. Default: unbounded.
   */
  readonly maxNodes?: number;
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

/** A key/value entry of a batch write. */
export interface TreeEntry {
  readonly key: Uint8Array;
  readonly value: Uint8Array;
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
 * store; the async batch methods (`getMany`, `putMany`, `load`) load what they need first, one
 * store round per tree level.
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
  readonly #arena = new Arena();
  readonly #staleHasher: StaleHasher;
  readonly #collector: CommitCollector;
  readonly #loader: NodeLoader;
  readonly #evictor: Evictor;
  readonly #walker: TreeWalker;
  readonly #writes = new WriteLog();
  #journal: CheckpointJournal | undefined;
  #recorder: WitnessRecorder | undefined;
  #accounts: AccountState | undefined;
  #keys: KeyDeriver | undefined;

  static {
    arenaAccess = (tree) => {
      tree.#flushWrites();
      return tree.#arena;
    };
  }

  constructor(options: BinaryTreeOptions = {}) {
    this.scheme = options.scheme ?? DEFAULT_KEY_SCHEME;
    const hashName = hashFunctionOfScheme(this.scheme);
    this.hasher = options.hasher ?? getHasher(hashName);
    if (this.hasher.name !== hashName) {
      throw new TreeError(
        "INVALID_OPTION",
        `hasher '${this.hasher.name}' does not match key scheme '${this.scheme}'`,
      );
    }
    const groupDepth = options.groupDepth ?? DEFAULT_GROUP_DEPTH;
    assertGroupDepth(groupDepth);
    this.groupDepth = groupDepth;
    this.store = options.store;
    this.keyPrefix = options.keyPrefix ?? NODE_KEY_PREFIX;
    this.rootRecordKey = options.rootRecordKey ?? ROOT_RECORD_KEY;
    this.deletionMode = options.deletionMode ?? "zero";
    this.maxNodes = options.maxNodes ?? Number.POSITIVE_INFINITY;
    if (!(this.maxNodes >= 1)) {
      throw new TreeError(
        "INVALID_OPTION",
        `maxNodes must be a positive number, got ${options.maxNodes}`,
      );
    }
    if (this.deletionMode !== "zero" && this.deletionMode !== "remove") {
      throw new TreeError(
        "INVALID_OPTION",
        `deletionMode must be 'zero' or 'remove', got ${String(this.deletionMode)}`,
      );
    }
    this.#staleHasher = new StaleHasher(this.#arena, this.hasher);
    this.#collector = new CommitCollector(this.#arena);
    this.#loader = new NodeLoader(this.#arena, this.#staleHasher, groupDepth);
    this.#evictor = new Evictor(this.#arena);
    this.#walker = new TreeWalker(this.#arena);
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

  /** Deletes many keys, loading what the deletions (and collapses) need from the store first. */
  async deleteMany(keys: readonly Uint8Array[]): Promise<void> {
    for (const key of keys) assertKey(key);
    if (this.deletionMode === "zero") {
      await this.putMany(keys.map((key) => ({ key, value: ZERO_VALUE })));
      return;
    }
    await this.load(keys);
    for (const key of keys) {
      while (this.#walker.removeKey(key) === LOOKUP_UNRESOLVED) {
        // A node the removal touches (the path, or a sibling a collapse pulls up) is still in the
        // store: load it through a key that routes to it, then retry.
        const route = key.slice();
        const depth = this.#walker.missDepth - 1;
        if (depth >= 0) {
          const mask = 0x80 >>> (depth & 7);
          route[depth >>> 3] =
            this.#walker.missSide === 1 ? route[depth >>> 3]! | mask : route[depth >>> 3]! & ~mask;
        }
        await this.load([route]);
      }
    }
  }

  // ---- accounts (EIP-7864 layout, go-ethereum semantics) --------------------------------

  /** The key deriver of this tree's scheme (reuses one preimage buffer). */
  get keys(): KeyDeriver {
    this.#keys ??= createKeyDeriver(this.scheme, this.hasher);
    return this.#keys;
  }

  get #accountState(): AccountState {
    this.#accounts ??= new AccountState(this, this.keys);
    return this.#accounts;
  }

  /** The account header, or undefined when absent or deleted (both header leaves zero). */
  getAccount(address: Uint8Array): Account | undefined {
    return this.#accountState.getAccount(address);
  }

  /** Writes the BASIC_DATA and CODE_HASH leaves of the account stem. */
  putAccount(address: Uint8Array, account: Account): void {
    this.#accountState.putAccount(address, account);
  }

  /** geth's DeleteAccount: writes 32 zero bytes to both header leaves; storage and code stay. */
  deleteAccount(address: Uint8Array): void {
    this.#accountState.deleteAccount(address);
  }

  /** The 32-byte value of a storage slot, or undefined when never written. */
  getStorage(address: Uint8Array, slot: StorageSlot): Uint8Array | undefined {
    return this.#accountState.getStorage(address, slot);
  }

  /** Writes a storage value (at most 32 bytes, left-padded). */
  putStorage(address: Uint8Array, slot: StorageSlot, value: Uint8Array): void {
    this.#accountState.putStorage(address, slot, value);
  }

  /** geth's DeleteStorage: writes 32 zero bytes (a present zero leaf). */
  deleteStorage(address: Uint8Array, slot: StorageSlot): void {
    this.#accountState.deleteStorage(address, slot);
  }

  /** Writes the code chunks (not the header's codeSize/codeHash: use putAccount). */
  putCode(address: Uint8Array, code: Uint8Array): void {
    this.#accountState.putCode(address, code);
  }

  /** The code rebuilt from its chunks (empty when the account has none). */
  getCode(address: Uint8Array): Uint8Array {
    return this.#accountState.getCode(address);
  }

  // ---- hashing and commit ---------------------------------------------------------------

  /** The root hash (32 bytes; zero for the empty tree), rehashing only stale nodes. */
  hash(): Uint8Array {
    this.#flushWrites();
    this.#staleHasher.hashStale();
    const out = new Uint8Array(32);
    this.#arena.writeHash(this.#arena.root, out, 0);
    return out;
  }

  /**
   * Serializes every node whose stored blob is stale (post-order, children first) and marks the
   * tree clean. A second commit without changes returns no writes.
   */
  commit(options: { groupDepth?: number } = {}): NodeSet {
    this.#flushWrites();
    const groupDepth = options.groupDepth ?? this.groupDepth;
    // The store holds one grouping: blobs of another depth would not load back into this tree.
    if (groupDepth !== this.groupDepth) {
      throw new TreeError(
        "INVALID_OPTION",
        `commit: groupDepth ${String(groupDepth)} differs from the tree's groupDepth ${this.groupDepth}; a tree commits at its own depth`,
      );
    }
    const root = this.hash();
    return this.#collector.collect(groupDepth, root);
  }

  /**
   * Commits and writes the node set, its deletions and the root record to the store in one
   * atomic batch. `extra` is kept in the root record (e.g. a conversion cursor); `operations`
   * are added to the same batch (side tables an upper layer keeps in step with the tree).
   * Returns the root.
   */
  async persist(options: PersistOptions = {}): Promise<Uint8Array> {
    const store = this.#requireStore("persist");
    this.#refuseInCheckpoint("persist");
    const set = this.commit();
    const ops = this.nodeSetOperations(set, options);
    if (options.operations !== undefined) ops.push(...options.operations);
    await store.batch(ops);
    this.#enforceMemoryBound();
    return set.root;
  }

  /** The store operations that make `set` durable: node puts, orphan deletes, root record. */
  nodeSetOperations(set: NodeSet, options: { extra?: Uint8Array } = {}): BatchOperation[] {
    const ops: BatchOperation[] = [];
    for (const path of set.deletes) ops.push({ type: "del", key: nodeDbKey(path, this.keyPrefix) });
    for (const w of set.writes) {
      ops.push({ type: "put", key: nodeDbKey(w.path, this.keyPrefix), value: w.blob });
    }
    const record = {
      root: set.root,
      groupDepth: set.groupDepth,
      scheme: this.scheme,
      extra: options.extra,
    };
    ops.push({ type: "put", key: this.rootRecordKey, value: encodeRootRecord(record) });
    return ops;
  }

  // ---- async batch operations -----------------------------------------------------------

  /** Loads from the store every node on the paths of these keys or stems. */
  async load(keysOrStems: readonly Uint8Array[]): Promise<void> {
    this.#flushWrites();
    for (const k of keysOrStems) {
      if (!(k instanceof Uint8Array) || (k.length !== 31 && k.length !== 32)) {
        throw new TreeError(
          "INVALID_KEY",
          `load: expected 31- or 32-byte keys, got ${describeInput(k)}`,
        );
      }
    }
    let pending: readonly Uint8Array[] = keysOrStems;
    // No eviction here: callers load in order to use the nodes next.
    while (pending.length > 0) pending = await this.#loadRound(pending);
  }

  /** Values for many keys, loading missing nodes with one store round per tree level. */
  async getMany(keys: readonly Uint8Array[]): Promise<(Uint8Array | undefined)[]> {
    this.#flushWrites();
    for (const key of keys) assertKey(key);
    const out: (Uint8Array | undefined)[] = new Array(keys.length);
    let pending: Uint8Array[] = [];
    let indexes: number[] = [];
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i]!;
      if (this.#walker.lookup(key) === LOOKUP_UNRESOLVED) {
        pending.push(key);
        indexes.push(i);
      } else {
        out[i] = this.get(key);
      }
    }
    // Read each key as soon as its path is loaded, so a memory bound cannot evict it first.
    while (pending.length > 0) {
      await this.#loadRound(pending);
      const nextKeys: Uint8Array[] = [];
      const nextIndexes: number[] = [];
      for (let k = 0; k < pending.length; k++) {
        const key = pending[k]!;
        if (this.#walker.lookup(key) === LOOKUP_UNRESOLVED) {
          nextKeys.push(key);
          nextIndexes.push(indexes[k]!);
        } else {
          out[indexes[k]!] = this.get(key);
        }
      }
      pending = nextKeys;
      indexes = nextIndexes;
    }
    this.#enforceMemoryBound();
    return out;
  }

  /** Evicts clean stored subtrees now, down to about `maxNodes` nodes; returns nodes released. */
  evict(maxNodes: number = this.maxNodes): number {
    this.#flushWrites();
    return this.#evictor.evict(maxNodes, this.groupDepth);
  }

  #enforceMemoryBound(): void {
    if (this.maxNodes !== Number.POSITIVE_INFINITY)
      this.#evictor.evict(this.maxNodes, this.groupDepth);
  }

  /** Writes many entries, loading the nodes on their paths first. */
  async putMany(entries: Iterable<TreeEntry>): Promise<void> {
    const list = Array.isArray(entries) ? (entries as TreeEntry[]) : [...entries];
    for (const { key, value } of list) {
      assertKey(key);
      assertValue(value, key);
    }
    await this.load(list.map((e) => e.key));
    for (const { key, value } of list) this.put(key, value);
  }

  /** One store round: finds the unresolved nodes blocking these keys and loads them. */
  async #loadRound(keys: readonly Uint8Array[]): Promise<Uint8Array[]> {
    const requests = new Map<
      number,
      { parent: number; side: number; depth: number; key: Uint8Array }
    >();
    const blocked: Uint8Array[] = [];
    for (const key of keys) {
      if (this.#walker.lookup(key) !== LOOKUP_UNRESOLVED) continue;
      blocked.push(key);
      const slot = this.#walker.missParent * 2 + this.#walker.missSide;
      if (!requests.has(slot)) {
        requests.set(slot, {
          parent: this.#walker.missParent,
          side: this.#walker.missSide,
          depth: this.#walker.missDepth,
          key,
        });
      }
    }
    if (requests.size === 0) return [];
    const store = this.#requireStore("load");
    const list = [...requests.values()];
    const blobs = await store.getMany(
      list.map((r) => nodeDbKey(encodePathKey(r.key, r.depth), this.keyPrefix)),
    );
    const { internals, hashed } = this.#arena;
    for (let i = 0; i < list.length; i++) {
      const r = list[i]!;
      const child = internals.getChild(r.parent, r.side);
      if (refKind(child) !== KIND_HASHED) continue;
      const h = refIndex(child);
      const ref = this.#loader.load(
        blobs[i],
        r.depth,
        r.key,
        hashed.hashChunk(h),
        hashed.hashOffset(h),
      );
      internals.setChild(r.parent, r.side, ref);
      hashed.release(h);
    }
    return blocked;
  }

  // ---- opening ---------------------------------------------------------------------------

  /** Replaces the (empty) tree with the stored tree whose root hash is `root`. */
  async openRoot(root: Uint8Array): Promise<void> {
    this.#flushWrites();
    const store = this.#requireStore("openRoot");
    if (root.length !== 32) {
      throw new TreeError("INVALID_OPTION", `root must be 32 bytes, got ${root.length}`);
    }
    if (this.#arena.root !== EMPTY_REF) {
      throw new TreeError("INVALID_OPTION", "openRoot: the tree already has nodes");
    }
    const blob = await store.get(nodeDbKey(new Uint8Array(0), this.keyPrefix));
    this.#arena.root = this.#loader.load(blob, 0, new Uint8Array(32), root, 0);
  }

  // ---- checkpoints and copies (see checkpoint-journal.ts) --------------------------------

  /**
   * Opens a checkpoint (they nest). `revertCheckpoint()` undoes every change since then,
   * `commitCheckpoint()` keeps them. While one is open `persist()` is refused: the store cannot
   * be reverted. Cost: O(nodes changed), nothing per node of the tree.
   */
  checkpoint(): void {
    this.#flushWrites();
    this.#journal ??= new CheckpointJournal(this.#arena);
    this.#journal.open();
  }

  /** Undoes every write, delete, load and structural change since the matching checkpoint(). */
  revertCheckpoint(): void {
    this.#flushWrites();
    if (this.#journal === undefined) this.#noCheckpoint("revertCheckpoint");
    this.#journal.revert();
  }

  /** Keeps the changes since the matching checkpoint(), as part of the enclosing one. */
  commitCheckpoint(): void {
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
   * The copy has no open checkpoints (it starts from the current state).
   */
  copy(): BinaryTree {
    this.#flushWrites();
    const twin = new BinaryTree({
      scheme: this.scheme,
      hasher: this.hasher,
      groupDepth: this.groupDepth,
      store: this.store,
      keyPrefix: this.keyPrefix,
      rootRecordKey: this.rootRecordKey,
      deletionMode: this.deletionMode,
      maxNodes: this.maxNodes,
    });
    twin.#arena.adoptTwinOf(this.#arena);
    if (this.#journal !== undefined && this.#journal.depth > 0) {
      this.#journal.applyDeferredTo(twin.#arena);
    }
    return twin;
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

  /** Live nodes per kind and the bytes the arena's typed arrays hold. */
  stats(): { internal: number; stem: number; hashed: number; arenaBytes: number } {
    this.#flushWrites();
    return { ...this.#arena.counts(), arenaBytes: this.#arena.bytes() };
  }

  // ---- internals ------------------------------------------------------------------------

  /**
   * Applies the pending single-key writes in key order: consecutive writes then share most of
   * their path (cache-friendly descents), and new nodes are allocated in tree order, which makes
   * the later hashing walk the pools nearly sequentially. Equal keys keep their call order.
   */
  #flushWrites(): void {
    const log = this.#writes;
    if (log.count === 0) return;
    const order = log.sortedOrder();
    const bytes = log.bytes;
    const n = log.count;
    log.clear();
    let previous = -1;
    for (let i = 0; i < n; i++) {
      const at = order[i]! << 6;
      // Sorted neighbours share a prefix: resume the descent below the shared part of the
      // previous write's path instead of starting at the root.
      let keep = 0;
      if (previous >= 0) {
        const shared = sharedPrefixBits(bytes, previous, at);
        const path = this.#walker.path;
        const internals = this.#arena.internals;
        keep = path.length;
        while (keep > 0 && internals.getDepth(path.data[keep - 1]!) >= shared) keep--;
      }
      const index = this.#walker.stemForWrite(bytes, at, keep);
      const changed = this.#arena.stems.setValue(index, bytes[at + 31]!, bytes, at + 32);
      this.#walker.finishWrite(index, changed);
      previous = at;
    }
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

  #requireStore(operation: string): KVStore {
    if (this.store === undefined) {
      throw new TreeError("NO_STORE", `${operation}: this tree has no store (pass options.store)`);
    }
    return this.store;
  }
}

function assertGroupDepth(groupDepth: number): void {
  if (!Number.isInteger(groupDepth) || groupDepth < 0 || groupDepth > MAX_GROUP_DEPTH) {
    throw new TreeError("INVALID_OPTION", `group depth must be an integer 0..8, got ${groupDepth}`);
  }
}

function assertKey(key: Uint8Array): void {
  if (!(key instanceof Uint8Array) || key.length !== 32) {
    throw new TreeError("INVALID_KEY", `expected a 32-byte key, got ${describeInput(key)}`);
  }
}

function assertStem(stem: Uint8Array): void {
  if (!(stem instanceof Uint8Array) || stem.length !== 31) {
    throw new TreeError("INVALID_STEM", `expected a 31-byte stem, got ${describeInput(stem)}`);
  }
}

function assertValue(value: Uint8Array, key: Uint8Array): void {
  if (!(value instanceof Uint8Array) || value.length !== 32) {
    throw new TreeError(
      "INVALID_VALUE",
      `expected a 32-byte value for key ${describeInput(key)}, got ${describeInput(value)}`,
    );
  }
}

function describeInput(x: unknown): string {
  if (x instanceof Uint8Array) {
    const shown = hexOf(x.subarray(0, 40));
    return `${x.length <= 40 ? shown : `${shown}…`} (${x.length} bytes)`;
  }
  return x === null ? "null" : typeof x;
}
