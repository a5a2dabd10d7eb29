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
import type { BatchOperation, KVStore } from "../store/kv-store.js";
import { encodeRootRecord, ROOT_RECORD_KEY } from "../store/root-record.js";
import type { Account } from "./account.js";
import { AccountState } from "./account-state.js";
import { Arena } from "./arena.js";
import { CommitCollector } from "./commit-collector.js";
import { Evictor } from "./evictor.js";
import { describePath, NodeLoader } from "./node-loader.js";
import {
  EMPTY_REF,
  FLAG_BLOB_STALE,
  FLAG_PERSISTED,
  FLAGS_STALE,
  KIND_EMPTY,
  KIND_HASHED,
  KIND_INTERNAL,
  KIND_STEM,
  makeRef,
  type NodeRef,
  refIndex,
  refKind,
} from "./node-ref.js";
import type { NodeSet } from "./node-set.js";
import { StaleHasher } from "./stale-hasher.js";
import { TreeError } from "./tree-error.js";
import { U32Stack } from "./u32-stack.js";
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

const LOOKUP_ABSENT = -1;
const LOOKUP_UNRESOLVED = -2;

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
  readonly #path = new U32Stack(64);
  readonly #writes = new WriteLog();
  readonly #sides = new U32Stack(64);
  #accounts: AccountState | undefined;
  #keys: KeyDeriver | undefined;
  #missParent = 0;
  #missSide = 0;
  #missDepth = 0;

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
  }

  // ---- reads ----------------------------------------------------------------------------

  /** The 32-byte value at `key`, or undefined when absent. */
  get(key: Uint8Array): Uint8Array | undefined {
    assertKey(key);
    this.#flushWrites();
    const index = this.#lookup(key);
    if (index === LOOKUP_UNRESOLVED) throw this.#missingError(key);
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
    const index = this.#lookup(stem);
    if (index === LOOKUP_UNRESOLVED) throw this.#missingError(stem);
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
      this.#applyWrite(key, 0, value, 0);
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
    const index = this.#stemForWrite(stem);
    let changed = this.#arena.stems.live !== before;
    for (let i = 0; i < values.length; i++) {
      const v = values[i];
      if (v !== null && v !== undefined && this.#arena.stems.setValue(index, i, v, 0))
        changed = true;
    }
    this.#finishWrite(index, changed);
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
    if (this.#removeKey(key) === LOOKUP_UNRESOLVED) throw this.#missingError(key);
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
      while (this.#removeKey(key) === LOOKUP_UNRESOLVED) {
        // A node the removal touches (the path, or a sibling a collapse pulls up) is still in the
        // store: load it through a key that routes to it, then retry.
        const route = key.slice();
        const depth = this.#missDepth - 1;
        if (depth >= 0) {
          const mask = 0x80 >>> (depth & 7);
          route[depth >>> 3] =
            this.#missSide === 1 ? route[depth >>> 3]! | mask : route[depth >>> 3]! & ~mask;
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
    assertGroupDepth(groupDepth);
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
      if (this.#lookup(key) === LOOKUP_UNRESOLVED) {
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
        if (this.#lookup(key) === LOOKUP_UNRESOLVED) {
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
      if (this.#lookup(key) !== LOOKUP_UNRESOLVED) continue;
      blocked.push(key);
      const slot = this.#missParent * 2 + this.#missSide;
      if (!requests.has(slot)) {
        requests.set(slot, {
          parent: this.#missParent,
          side: this.#missSide,
          depth: this.#missDepth,
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

  // ---- statistics -----------------------------------------------------------------------

  /** Live nodes per kind and the bytes the arena's typed arrays hold. */
  stats(): { internal: number; stem: number; hashed: number; arenaBytes: number } {
    this.#flushWrites();
    return { ...this.#arena.counts(), arenaBytes: this.#arena.bytes() };
  }

  // ---- internals ------------------------------------------------------------------------

  /**
   * Walks to the stem of `key` (its first 31 bytes). Returns the stem index, LOOKUP_ABSENT, or
   * LOOKUP_UNRESOLVED with the blocking hashed child recorded in #miss*.
   */
  #lookup(key: Uint8Array): number {
    const { internals, stems } = this.#arena;
    let ref = this.#arena.root;
    let parent = -1;
    let side = 0;
    for (;;) {
      const kind = refKind(ref);
      const index = refIndex(ref);
      if (kind === KIND_INTERNAL) {
        const depth = internals.getDepth(index);
        const bit = (key[depth >>> 3]! >>> (7 - (depth & 7))) & 1;
        parent = index;
        side = bit;
        ref = internals.getChild(index, bit);
      } else if (kind === KIND_STEM) {
        return stems.matches(index, key, 0) ? index : LOOKUP_ABSENT;
      } else if (kind === KIND_EMPTY) {
        return LOOKUP_ABSENT;
      } else {
        this.#missParent = parent;
        this.#missSide = side;
        this.#missDepth = parent < 0 ? 0 : internals.getDepth(parent) + 1;
        return LOOKUP_UNRESOLVED;
      }
    }
  }

  /**
   * Finds or creates the stem node for key[ko..ko+31), splitting as needed; records the path.
   */
  #stemForWrite(key: Uint8Array, ko = 0, resume = 0): number {
    const arena = this.#arena;
    const { internals, stems } = arena;
    const path = this.#path;
    let ref = arena.root;
    let parent = -1;
    let side = 0;
    let depth = 0;
    if (resume > 0) {
      // The first `resume` path nodes are known to lie on this key's path too.
      ref = makeRef(KIND_INTERNAL, path.data[resume - 1]!);
      path.length = resume - 1;
    } else {
      path.clear();
    }
    for (;;) {
      const kind = refKind(ref);
      const index = refIndex(ref);
      if (kind === KIND_INTERNAL) {
        path.push(index);
        depth = internals.getDepth(index);
        const bit = (key[ko + (depth >>> 3)]! >>> (7 - (depth & 7))) & 1;
        parent = index;
        side = bit;
        ref = internals.getChild(index, bit);
        depth += 1;
        continue;
      }
      if (kind === KIND_EMPTY) {
        const created = stems.alloc(key, ko, depth, FLAGS_STALE);
        this.#link(parent, side, makeRef(KIND_STEM, created));
        return created;
      }
      if (kind === KIND_HASHED) throw this.#missingError(key.subarray(ko, ko + 32));
      if (stems.matches(index, key, ko)) return index;
      return this.#split(index, key, ko, parent, side);
    }
  }

  /** Pushes an existing stem down until it diverges from key's stem; returns the new stem. */
  #split(existing: number, key: Uint8Array, ko: number, parent: number, side: number): number {
    const arena = this.#arena;
    const { internals, stems } = arena;
    const start = stems.getDepth(existing);
    const sc = stems.stemChunk(existing);
    const so = stems.stemOffset(existing);
    let diverge = start;
    while (diverge < 248) {
      const a = (sc[so + (diverge >>> 3)]! >>> (7 - (diverge & 7))) & 1;
      const b = (key[ko + (diverge >>> 3)]! >>> (7 - (diverge & 7))) & 1;
      if (a !== b) break;
      diverge++;
    }
    if (diverge >= 248) {
      throw new TreeError("TREE_TOO_DEEP", "split: stems are equal (internal inconsistency)");
    }
    if ((stems.getFlags(existing) & FLAG_PERSISTED) !== 0) {
      // Its blob is stored at its current path (even if the stem changed since): that path
      // needs a delete at commit unless the new internal node there rewrites it.
      arena.orphans.push({ bits: sc.slice(so, so + 31), depth: start });
      stems.clearFlags(existing, FLAG_PERSISTED);
    }
    let link = parent;
    let linkSide = side;
    for (let d = start; d <= diverge; d++) {
      const node = internals.alloc(d, FLAGS_STALE);
      this.#link(link, linkSide, makeRef(KIND_INTERNAL, node));
      link = node;
      linkSide = (key[ko + (d >>> 3)]! >>> (7 - (d & 7))) & 1;
    }
    const existingSide = linkSide ^ 1;
    stems.setDepth(existing, diverge + 1);
    stems.addFlags(existing, FLAG_BLOB_STALE);
    internals.setChild(link, existingSide, makeRef(KIND_STEM, existing));
    const created = stems.alloc(key, ko, diverge + 1, FLAGS_STALE);
    internals.setChild(link, linkSide, makeRef(KIND_STEM, created));
    return created;
  }

  /**
   * 'remove' mode: removes the value at key; an emptied stem goes away and every internal node
   * left with a single stem below it collapses, the stem moving up. Returns 0 when done (or
   * nothing to do), LOOKUP_UNRESOLVED (nothing changed) when a needed node is not loaded.
   */
  #removeKey(key: Uint8Array): number {
    const arena = this.#arena;
    const { internals, stems } = arena;
    const path = this.#path;
    const sides = this.#sides;
    path.clear();
    sides.clear();
    let ref = arena.root;
    let parent = -1;
    for (;;) {
      const kind = refKind(ref);
      const index = refIndex(ref);
      if (kind === KIND_INTERNAL) {
        const depth = internals.getDepth(index);
        const bit = (key[depth >>> 3]! >>> (7 - (depth & 7))) & 1;
        path.push(index);
        sides.push(bit);
        parent = index;
        ref = internals.getChild(index, bit);
        continue;
      }
      if (kind === KIND_HASHED) {
        this.#missParent = parent;
        this.#missSide = sides.length > 0 ? sides.data[sides.length - 1]! : 0;
        this.#missDepth = parent < 0 ? 0 : internals.getDepth(parent) + 1;
        return LOOKUP_UNRESOLVED;
      }
      if (kind === KIND_EMPTY) return 0;
      break;
    }
    const stem = refIndex(ref);
    const sub = key[31]!;
    if (!stems.matches(stem, key, 0) || !stems.has(stem, sub)) return 0;
    if (stems.getCount(stem) > 1) {
      stems.removeValue(stem, sub);
      this.#finishWrite(stem, true);
      return 0;
    }
    // The stem empties. Dry run of the collapse first: it must not meet an unloaded sibling.
    let carrying = false;
    for (let j = path.length - 1; j >= 0; j--) {
      const node = path.data[j]!;
      const otherSide = sides.data[j]! ^ 1;
      const kind = refKind(internals.getChild(node, otherSide));
      if (kind === KIND_EMPTY) continue;
      if (carrying || kind === KIND_INTERNAL) break;
      if (kind === KIND_HASHED) {
        this.#missParent = node;
        this.#missSide = otherSide;
        this.#missDepth = internals.getDepth(node) + 1;
        return LOOKUP_UNRESOLVED;
      }
      carrying = true;
    }
    this.#orphanIfPersisted(
      KIND_STEM,
      stem,
      stems.stemChunk(stem),
      stems.stemOffset(stem),
      stems.getDepth(stem),
    );
    stems.release(stem);
    let replacement: NodeRef = EMPTY_REF;
    for (let j = path.length - 1; j >= 0; j--) {
      const node = path.data[j]!;
      const side = sides.data[j]!;
      const other = internals.getChild(node, side ^ 1);
      const kind = refKind(other);
      if (kind === KIND_EMPTY || (replacement === EMPTY_REF && kind === KIND_STEM)) {
        // This node would keep at most one stem below it: it goes, the stem moves up.
        if (replacement === EMPTY_REF && kind === KIND_STEM) replacement = other;
        this.#orphanIfPersisted(KIND_INTERNAL, node, key, 0, internals.getDepth(node));
        internals.release(node);
        continue;
      }
      internals.setChild(node, side, replacement);
      if (replacement !== EMPTY_REF)
        this.#moveStem(refIndex(replacement), internals.getDepth(node) + 1);
      for (let k = 0; k <= j; k++) internals.addFlags(path.data[k]!, FLAGS_STALE);
      return 0;
    }
    arena.root = replacement;
    if (replacement !== EMPTY_REF) this.#moveStem(refIndex(replacement), 0);
    return 0;
  }

  /** A stem placed at a new depth: its blob goes to a new path, the old one is orphaned. */
  #moveStem(stem: number, depth: number): void {
    const { stems } = this.#arena;
    this.#orphanIfPersisted(
      KIND_STEM,
      stem,
      stems.stemChunk(stem),
      stems.stemOffset(stem),
      stems.getDepth(stem),
    );
    stems.setDepth(stem, depth);
    stems.addFlags(stem, FLAG_BLOB_STALE);
  }

  /** Records the node's stored path (first `depth` bits at bits[offset]) for deletion at commit. */
  #orphanIfPersisted(
    kind: number,
    index: number,
    bits: Uint8Array,
    offset: number,
    depth: number,
  ): void {
    const { internals, stems } = this.#arena;
    const flags = kind === KIND_STEM ? stems.getFlags(index) : internals.getFlags(index);
    if ((flags & FLAG_PERSISTED) === 0) return;
    this.#arena.orphans.push({ bits: bits.slice(offset, offset + 32), depth });
    if (kind === KIND_STEM) stems.clearFlags(index, FLAG_PERSISTED);
    else internals.clearFlags(index, FLAG_PERSISTED);
  }

  #link(parent: number, side: number, ref: NodeRef): void {
    if (parent < 0) this.#arena.root = ref;
    else this.#arena.internals.setChild(parent, side, ref);
  }

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
        const path = this.#path;
        const internals = this.#arena.internals;
        keep = path.length;
        while (keep > 0 && internals.getDepth(path.data[keep - 1]!) >= shared) keep--;
      }
      const index = this.#stemForWrite(bytes, at, keep);
      const changed = this.#arena.stems.setValue(index, bytes[at + 31]!, bytes, at + 32);
      this.#finishWrite(index, changed);
      previous = at;
    }
  }

  #applyWrite(key: Uint8Array, ko: number, value: Uint8Array, vo: number): void {
    const index = this.#stemForWrite(key, ko);
    const changed = this.#arena.stems.setValue(index, key[ko + 31]!, value, vo);
    this.#finishWrite(index, changed);
  }

  /** Marks the written stem and the internal nodes above it stale (only if anything changed). */
  #finishWrite(stem: number, changed: boolean): void {
    if (!changed) return;
    const { internals, stems } = this.#arena;
    stems.addFlags(stem, FLAGS_STALE);
    const path = this.#path;
    // Bottom up; a node that is already fully stale has fully stale ancestors (every write
    // marks its whole path), so the walk stops there.
    for (let k = path.length - 1; k >= 0; k--) {
      const node = path.data[k]!;
      if ((internals.getFlags(node) & FLAGS_STALE) === FLAGS_STALE) break;
      internals.addFlags(node, FLAGS_STALE);
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

  #missingError(key: Uint8Array): TreeError {
    const depth = this.#missDepth;
    return new TreeError(
      "MISSING_NODE",
      `node at path ${describePath(key, depth)} is not loaded; use load()/getMany()/putMany() to read it from the store`,
    );
  }

  #requireStore(operation: string): KVStore {
    if (this.store === undefined) {
      throw new TreeError("NO_STORE", `${operation}: this tree has no store (pass options.store)`);
    }
    return this.store;
  }
}

/** Number of leading bits the two 31-byte stems at bytes[a] and bytes[b] share. */
function sharedPrefixBits(bytes: Uint8Array, a: number, b: number): number {
  for (let i = 0; i < 31; i++) {
    const x = bytes[a + i]! ^ bytes[b + i]!;
    if (x !== 0) return i * 8 + Math.clz32(x) - 24;
  }
  return 248;
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
    let s = "0x";
    for (let i = 0; i < x.length && i < 40; i++) s += x[i]!.toString(16).padStart(2, "0");
    return `${x.length < 40 ? s : `${s}…`} (${x.length} bytes)`;
  }
  return x === null ? "null" : typeof x;
}
