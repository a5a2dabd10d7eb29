import { assertKnownOptions } from "@bintrie/codec";
import {
  BinaryTree,
  type KeyScheme,
  type KVStore,
  codeHash as keccakOfCode,
  MemoryStore,
  openTree,
} from "@bintrie/core";
import { isZero } from "@bintrie/core/bytes";
import { CODE_OFFSET, chunkCount, STEM_SUBTREE_WIDTH } from "@bintrie/core/embedding";
import type { AccountFields, StateManagerInterface, StorageDump } from "@ethereumjs/common";
import { OriginalStorageCache } from "@ethereumjs/statemanager";
import {
  Account,
  Address,
  bytesToHex,
  bytesToUnprefixedHex,
  equalsBytes,
  KECCAK256_NULL,
  KECCAK256_RLP,
  unprefixedHexToBytes,
} from "@ethereumjs/util";
import { CopyOnWriteStore } from "./copy-on-write-store.js";
import { StateIndex } from "./state-index.js";
import { StateManagerError } from "./state-manager-error.js";
import { SYSTEM_ADDRESS } from "./system-address.js";
import { UndoJournal } from "./undo-journal.js";

export interface BinaryStateManagerOptions {
  /** Key derivation and node hash. Default 'sha256-be' (go-ethereum master). */
  readonly scheme?: KeyScheme;
  /** Internal nodes per stored group blob (0..8). Default 5, like geth. */
  readonly groupDepth?: number;
  /**
   * Where committed states are persisted (nodes, root record and the account index, one atomic
   * batch per committed state). Must be empty: use `BinaryStateManager.open` for a stored state.
   * Default: a new MemoryStore.
   */
  readonly store?: KVStore;
  /**
   * What deletions write (see README, "What goes into the tree"). 'mpt-compatible' (default):
   * a deleted account's storage is zeroed and an account the tree never had writes nothing, so
   * MPT fixtures read as on the MPT. 'geth-ubt': geth's UBT StateDB — storage is never wiped and
   * every deleted account writes its two header leaves as zeros.
   */
  readonly writePolicy?: WritePolicy;
}

export type WritePolicy = "mpt-compatible" | "geth-ubt";

export interface OpenStateOptions {
  /** The root to open; default the store's latest committed root. */
  readonly root?: Uint8Array;
  readonly scheme?: KeyScheme;
  readonly groupDepth?: number;
  readonly writePolicy?: WritePolicy;
}

const MANAGER_OPTION_KEYS: readonly (keyof BinaryStateManagerOptions)[] = [
  "scheme",
  "groupDepth",
  "store",
  "writePolicy",
];
const OPEN_OPTION_KEYS: readonly (keyof OpenStateOptions)[] = [
  "root",
  "scheme",
  "groupDepth",
  "writePolicy",
];

/** One account of `dumpState()`: the state as a blockchain test's `postState` lists it. */
export interface DumpedAccount {
  readonly nonce: bigint;
  readonly balance: bigint;
  readonly code: Uint8Array;
  /** Non-zero slots: 32-byte slot hex (0x-prefixed) → unpadded value bytes. */
  readonly storage: Map<string, Uint8Array>;
}

/** An account header as cached; `null` is an absent (or deleted) account. */
interface AccountEntry {
  readonly nonce: bigint;
  readonly balance: bigint;
  readonly codeHash: Uint8Array;
  readonly codeSize: number;
}
type AccountSlot = AccountEntry | null;

/** Storage writes of one account since the last committed state. */
interface StorageOverlay {
  /** Cleared (clearStorage/deleteAccount): slots not in `slots` read as zero. */
  readonly wiped: boolean;
  /** slot hex → value without leading zero bytes (empty = zero). */
  readonly slots: Map<string, Uint8Array>;
}

const EMPTY_BYTES = new Uint8Array(0);
const ZERO32 = new Uint8Array(32);
const EMPTY_ACCOUNT: AccountEntry = {
  nonce: 0n,
  balance: 0n,
  codeHash: KECCAK256_NULL,
  codeSize: 0,
};
/**
 * Reported as `storageRoot` of an account that holds non-zero storage ('mpt-compatible' only).
 * A binary tree has no per-account storage root; the VM only compares it with KECCAK256_RLP
 * (EIP-7610 collisions).
 */
export const NON_EMPTY_STORAGE_MARKER: Uint8Array = new Uint8Array(32).fill(0xff);

/**
 * `@ethereumjs/vm`'s state manager over an EIP-7864 binary tree (`@bintrie/core`).
 *
 * Reads and writes go to a write-back cache journaled with undo records (checkpoint, commit,
 * revert); `getStateRoot()` writes the cache into the tree and hashes it; when no checkpoint is
 * open the state is committed: the tree's node set, its root record and the account index go to
 * the store in one atomic batch. A root computed inside a checkpoint (runBlock does that) stays
 * revertible: a revert after it reopens the tree at the last committed root from the store.
 *
 * Tree content policy (what decides the binary root):
 * - Account: BASIC_DATA (version 0, code size, nonce, balance) and CODE_HASH leaves; code in
 *   31-byte chunks at subindex 128+i; storage slot s at 64+s (s < 64) or 2^248+s.
 * - A storage value equal to the committed one is not written (so a zero never creates a leaf);
 *   a slot that becomes zero is written as 32 zero bytes (geth's DeleteStorage).
 * - Deleting an account that exists in the tree writes 32 zero bytes to both header leaves
 *   (geth's DeleteAccount) and a zero leaf to every non-zero storage slot it has (geth's UBT
 *   mode keeps storage; we clear it so a deleted account's storage reads as absent, as the MPT
 *   does). Code chunks stay: they are unreachable once the code size is 0. Deleting an account
 *   the tree never had writes nothing (geth writes two zero leaves).
 * - Storage of an account that is absent when the state is committed is zeroed the same way.
 */
export class BinaryStateManager implements StateManagerInterface {
  readonly scheme: KeyScheme;
  readonly groupDepth: number;
  readonly store: KVStore;
  readonly originalStorageCache: OriginalStorageCache;
  readonly writePolicy: WritePolicy;

  #tree: BinaryTree;
  /** The tree may hold nodes not yet loaded from the store. */
  #lazy: boolean;
  #index: StateIndex;
  #baseRoot: Uint8Array;
  readonly #journal = new UndoJournal();

  // Changes since the committed state (journaled).
  #accounts = new Map<string, AccountSlot>();
  #storage = new Map<string, StorageOverlay>();
  #code = new Map<string, Uint8Array>();
  // The committed state as read from the tree (never journaled).
  #cleanAccounts = new Map<string, AccountSlot>();
  #cleanStorage = new Map<string, Map<string, Uint8Array>>();
  #cleanCode = new Map<string, Uint8Array>();
  #cleanHasStorage = new Map<string, boolean>();
  readonly #codeSizeByHash = new Map<string, number>();

  /** Bumped by every cache change, so a root computed earlier is known to be current or not. */
  #version = 0;
  #appliedVersion = -1;
  /** The tree holds uncommitted cache content written by a getStateRoot inside a checkpoint. */
  #treeAhead = false;
  /** A revert undid content the tree holds: reopen it at #baseRoot before the next use. */
  #treeStale = false;
  /**
   * The tree content ahead of the committed state was written inside a tree checkpoint
   * (`BinaryTree.checkpoint`), so a revert undoes it in memory instead of reopening the store.
   */
  #treeCheckpoint = false;
  #lastRoot: Uint8Array;
  /** System calls under way (see `runSystemCall`). */
  #systemCalls = 0;
  /** A library request call is over: its undo of the system account is still to come. */
  #systemUndoPending = false;
  /** The system address was deleted outside a system call since the last commit (journaled). */
  #systemAccountTouched = false;

  constructor(options: BinaryStateManagerOptions = {}) {
    assertKnownOptions(options, MANAGER_OPTION_KEYS, "BinaryStateManager", StateManagerError);
    this.store = options.store ?? new MemoryStore();
    this.writePolicy = options.writePolicy ?? "mpt-compatible";
    this.#tree = new BinaryTree({
      scheme: options.scheme,
      groupDepth: options.groupDepth,
      store: this.store,
    });
    this.scheme = this.#tree.scheme;
    this.groupDepth = this.#tree.groupDepth;
    this.#lazy = false;
    this.#index = new StateIndex();
    this.#baseRoot = this.#tree.hash();
    this.#lastRoot = this.#baseRoot;
    this.originalStorageCache = new OriginalStorageCache(this.getStorage.bind(this));
  }

  /** Opens a state committed to `store` by a BinaryStateManager (tree, root record, index). */
  static async open(store: KVStore, options: OpenStateOptions = {}): Promise<BinaryStateManager> {
    assertKnownOptions(options, OPEN_OPTION_KEYS, "BinaryStateManager.open", StateManagerError);
    // (writePolicy is the manager's, not the tree's.)
    const { root, scheme, groupDepth } = options;
    const tree = await openTree(store, { root, scheme, groupDepth });
    const index = await StateIndex.load(store);
    const manager = new BinaryStateManager({
      store,
      scheme: tree.scheme,
      groupDepth: tree.groupDepth,
      writePolicy: options.writePolicy,
    });
    manager.#adopt(tree, index, options.root ?? tree.hash());
    return manager;
  }

  /** The tree of the committed state (plus uncommitted content after a getStateRoot). */
  get binaryTree(): BinaryTree {
    return this.#tree;
  }

  /** The last committed root. */
  get committedRoot(): Uint8Array {
    return this.#baseRoot.slice();
  }

  /** Open checkpoints (a caller that saw the VM fail mid-way reverts down to its own). */
  get checkpointDepth(): number {
    return this.#journal.depth;
  }

  /** Number of addresses ever written (including deleted ones). */
  get indexedAccounts(): number {
    return this.#index.accountCount;
  }

  // ---- accounts -------------------------------------------------------------------------

  async getAccount(address: Address): Promise<Account | undefined> {
    const key = bytesToUnprefixedHex(address.bytes);
    const entry = await this.#account(key, address.bytes);
    if (entry === null) return undefined;
    // geth's UBT account has no storage root (its Root is zero): storage never makes a CREATE
    // collide there. The MPT rules' EIP-7610 check does see it.
    const storageRoot =
      this.writePolicy === "mpt-compatible" && (await this.#hasStorage(key, address.bytes))
        ? NON_EMPTY_STORAGE_MARKER
        : KECCAK256_RLP;
    return new Account(entry.nonce, entry.balance, storageRoot, entry.codeHash, entry.codeSize);
  }

  async putAccount(address: Address, account?: Account): Promise<void> {
    if (account === undefined) return this.deleteAccount(address);
    const key = bytesToUnprefixedHex(address.bytes);
    if (key === SYSTEM_ADDRESS && this.#systemCalls === 0) this.#systemUndoPending = false;
    const previous = await this.#account(key, address.bytes);
    this.#setAccount(key, {
      nonce: account.nonce,
      balance: account.balance,
      codeHash: account.codeHash,
      codeSize: this.#codeSizeFor(account.codeHash, previous, address),
    });
  }

  async deleteAccount(address: Address): Promise<void> {
    const key = bytesToUnprefixedHex(address.bytes);
    if (key === SYSTEM_ADDRESS) this.#deletingSystemAccount();
    this.#setAccount(key, null);
    this.#wipeStorage(key);
    this.#setCode(key, undefined);
  }

  /**
   * Runs `call`, a system call of the block (EIP-2935, 4788, 7002, 7251) with its cleanup.
   * geth's system calls never touch the system address, so a deletion of it inside `call`
   * writes nothing, and neither does the one that follows when `undoFollows`: the library's
   * request calls (EIP-7002, 7251) undo their call's effect on the system account by deleting
   * it again (or putting it back) once the call is over. Deleted by anything else (a zero
   * withdrawal to it, or as a coinbase paid nothing), the absent system address gets geth's two
   * zero header leaves like any other address. The VM runs one operation at a time: nothing
   * else deletes accounts while `call` runs.
   */
  async runSystemCall<T>(call: () => Promise<T>, undoFollows: boolean): Promise<T> {
    this.#systemCalls++;
    this.#systemUndoPending = false;
    try {
      return await call();
    } finally {
      this.#systemCalls--;
      this.#systemUndoPending = undoFollows;
    }
  }

  async modifyAccountFields(address: Address, fields: AccountFields): Promise<void> {
    const key = bytesToUnprefixedHex(address.bytes);
    const previous = await this.#account(key, address.bytes);
    const base = previous ?? EMPTY_ACCOUNT;
    const codeHash = fields.codeHash ?? base.codeHash;
    const codeSize =
      fields.codeSize ??
      (equalsBytes(codeHash, base.codeHash)
        ? base.codeSize
        : this.#codeSizeFor(codeHash, previous, address));
    this.#setAccount(key, {
      nonce: fields.nonce ?? base.nonce,
      balance: fields.balance ?? base.balance,
      codeHash,
      codeSize,
    });
  }

  // ---- code -----------------------------------------------------------------------------

  async putCode(address: Address, value: Uint8Array): Promise<void> {
    const key = bytesToUnprefixedHex(address.bytes);
    const code = value.slice();
    const hash = keccakOfCode(code);
    this.#codeSizeByHash.set(bytesToUnprefixedHex(hash), code.length);
    const base = (await this.#account(key, address.bytes)) ?? EMPTY_ACCOUNT;
    this.#setAccount(key, { ...base, codeHash: hash, codeSize: code.length });
    this.#setCode(key, code);
  }

  async getCode(address: Address): Promise<Uint8Array> {
    const key = bytesToUnprefixedHex(address.bytes);
    const dirty = this.#code.get(key);
    if (dirty !== undefined) return dirty;
    const entry = await this.#account(key, address.bytes);
    if (entry === null || entry.codeSize === 0) return EMPTY_BYTES;
    const clean = this.#cleanCode.get(key);
    if (clean !== undefined) return clean;
    const tree = await this.#readyTree();
    if (this.#lazy) await tree.load(codeKeys(tree, address.bytes, entry.codeSize));
    const stored = tree.getAccount(address.bytes);
    if (stored === undefined || !equalsBytes(stored.codeHash, entry.codeHash)) {
      throw new StateManagerError(
        "UNKNOWN_CODE_HASH",
        `account ${bytesToHex(address.bytes)} has code hash ${bytesToHex(entry.codeHash)} but no such code was stored`,
      );
    }
    const code = tree.getCode(address.bytes);
    this.#cleanCode.set(key, code);
    return code;
  }

  async getCodeSize(address: Address): Promise<number> {
    const entry = await this.#account(bytesToUnprefixedHex(address.bytes), address.bytes);
    return entry?.codeSize ?? 0;
  }

  // ---- storage --------------------------------------------------------------------------

  /** The slot's value without leading zero bytes (empty for zero or absent). */
  async getStorage(address: Address, key: Uint8Array): Promise<Uint8Array> {
    assertSlot(key);
    const account = bytesToUnprefixedHex(address.bytes);
    const slot = bytesToUnprefixedHex(key);
    const overlay = this.#storage.get(account);
    const dirty = overlay?.slots.get(slot);
    if (dirty !== undefined) return dirty;
    if (overlay?.wiped === true) return EMPTY_BYTES;
    return this.#committedStorage(account, address.bytes, slot, key);
  }

  async putStorage(address: Address, key: Uint8Array, value: Uint8Array): Promise<void> {
    assertSlot(key);
    if (value.length > 32) {
      throw new StateManagerError(
        "INVALID_STORAGE_VALUE",
        `storage value for ${bytesToHex(address.bytes)} slot ${bytesToHex(key)} has ${value.length} bytes (at most 32)`,
      );
    }
    const account = bytesToUnprefixedHex(address.bytes);
    const slot = bytesToUnprefixedHex(key);
    let overlay = this.#storage.get(account);
    if (overlay === undefined) {
      // An empty, unwiped overlay reads like none, so creating it needs no undo record.
      overlay = { wiped: false, slots: new Map() };
      this.#storage.set(account, overlay);
    }
    const slots = overlay.slots;
    const had = slots.has(slot);
    const previous = slots.get(slot);
    slots.set(slot, stripLeadingZeros(value));
    this.#changed(() => {
      if (had) slots.set(slot, previous!);
      else slots.delete(slot);
    });
  }

  async clearStorage(address: Address): Promise<void> {
    this.#wipeStorage(bytesToUnprefixedHex(address.bytes));
  }

  /** Non-zero slots: 0x-prefixed 32-byte slot → 0x-prefixed unpadded value. Keys are not hashed. */
  async dumpStorage(address: Address): Promise<StorageDump> {
    const dump: StorageDump = {};
    for (const [slot, value] of await this.#storageOf(address)) dump[slot] = bytesToHex(value);
    return dump;
  }

  // ---- checkpoints ----------------------------------------------------------------------

  async checkpoint(): Promise<void> {
    this.#journal.checkpoint();
  }

  async commit(): Promise<void> {
    this.#journal.commit();
    if (this.#journal.depth > 0) return;
    this.originalStorageCache.clear();
    if (this.#treeAhead) await this.getStateRoot();
  }

  async revert(): Promise<void> {
    this.#journal.revert();
    this.#version++;
    if (this.#treeAhead || this.#treeCheckpoint) this.#dropTreeAhead();
    if (this.#journal.depth === 0) this.originalStorageCache.clear();
  }

  // ---- roots ----------------------------------------------------------------------------

  /**
   * The binary root of the current state. Writes the cache into the tree; with no checkpoint
   * open it also commits the state to the store.
   */
  async getStateRoot(): Promise<Uint8Array> {
    // A checkpoint left open by a failed apply holds partial writes: undo them first.
    if (this.#treeCheckpoint && !this.#treeAhead) this.#dropTreeAhead();
    await this.#readyTree();
    if (this.#treeAhead) {
      if (this.#appliedVersion === this.#version) {
        if (this.#journal.depth === 0) await this.#commitState();
        return this.#lastRoot.slice();
      }
      this.#dropTreeAhead();
      await this.#readyTree();
    }
    if (!this.#hasChanges()) return this.#baseRoot.slice();
    if (this.#journal.depth > 0) {
      // Inside a checkpoint (runBlock asks for the root there): the tree keeps an undo journal.
      this.#tree.checkpoint();
      this.#treeCheckpoint = true;
    }
    await this.#applyChanges();
    this.#lastRoot = this.#tree.hash();
    this.#appliedVersion = this.#version;
    this.#treeAhead = true;
    if (this.#journal.depth === 0) await this.#commitState();
    return this.#lastRoot.slice();
  }

  /**
   * Makes `stateRoot` the current state, dropping uncommitted changes. Works for the committed
   * root and for any root whose nodes the store still holds (with path-keyed nodes, that is the
   * latest committed state); other roots are a StateManagerError('UNKNOWN_STATE_ROOT').
   */
  async setStateRoot(stateRoot: Uint8Array, clearCache = false): Promise<void> {
    if (equalsBytes(stateRoot, this.#baseRoot)) {
      if (this.#hasChanges() || this.#treeAhead || this.#journal.depth > 0) {
        this.#dropChanges();
        if (this.#treeAhead || this.#treeStale) await this.#reopenAtBase();
      }
      if (clearCache) this.clearCaches();
      return;
    }
    let tree: BinaryTree;
    try {
      tree = await openTree(this.store, {
        root: stateRoot,
        scheme: this.scheme,
        groupDepth: this.groupDepth,
      });
    } catch (cause) {
      throw new StateManagerError(
        "UNKNOWN_STATE_ROOT",
        `state root ${bytesToHex(stateRoot)} is not in the store (committed root is ${bytesToHex(this.#baseRoot)}): ${(cause as Error).message}`,
      );
    }
    this.#dropChanges();
    this.#adopt(tree, this.#index, stateRoot);
  }

  async hasStateRoot(root: Uint8Array): Promise<boolean> {
    if (equalsBytes(root, this.#baseRoot)) return true;
    return this.#treeAhead && !this.#treeStale && equalsBytes(root, this.#lastRoot);
  }

  /** The tree key of the account's BASIC_DATA leaf (where the account "is" in the tree). */
  getAppliedKey(address: Uint8Array): Uint8Array {
    return this.#tree.keys.basicDataKey(address);
  }

  /** Drops the read caches of the committed state (uncommitted changes stay). */
  clearCaches(): void {
    this.#cleanAccounts = new Map();
    this.#cleanStorage = new Map();
    this.#cleanCode = new Map();
    this.#cleanHasStorage = new Map();
  }

  /**
   * A manager over the committed state (uncommitted changes are not copied) that commits to a
   * copy-on-write view of this store, so neither overwrites the other's nodes.
   */
  shallowCopy(): BinaryStateManager {
    const copy = new BinaryStateManager({
      store: new CopyOnWriteStore(this.store),
      scheme: this.scheme,
      groupDepth: this.groupDepth,
      writePolicy: this.writePolicy,
    });
    copy.#index = this.#index.clone();
    copy.#baseRoot = this.#baseRoot.slice();
    copy.#lastRoot = copy.#baseRoot;
    copy.#treeStale = true; // opened from the store on first use
    copy.#lazy = true;
    return copy;
  }

  // ---- enumeration ----------------------------------------------------------------------

  /** Every existing account with its code and non-zero storage, by 0x-prefixed address. */
  async dumpState(): Promise<Map<string, DumpedAccount>> {
    const addresses = new Set<string>(this.#index.addresses());
    for (const key of this.#accounts.keys()) addresses.add(key);
    const out = new Map<string, DumpedAccount>();
    for (const key of [...addresses].sort()) {
      const bytes = unprefixedHexToBytes(key);
      const entry = await this.#account(key, bytes);
      if (entry === null) continue;
      const address = new Address(bytes);
      out.set(`0x${key}`, {
        nonce: entry.nonce,
        balance: entry.balance,
        code: await this.getCode(address),
        storage: await this.#storageOf(address),
      });
    }
    return out;
  }

  // ---- internals: cache -----------------------------------------------------------------

  #changed(undo: () => void): void {
    this.#version++;
    this.#journal.record(undo);
  }

  #setAccount(key: string, entry: AccountSlot): void {
    const had = this.#accounts.has(key);
    const previous = this.#accounts.get(key);
    this.#accounts.set(key, entry);
    this.#changed(() => {
      if (had) this.#accounts.set(key, previous!);
      else this.#accounts.delete(key);
    });
  }

  /** A deletion of the system address: a system call's, the library's undo of one, or a touch. */
  #deletingSystemAccount(): void {
    if (this.#systemCalls > 0) return;
    if (this.#systemUndoPending) {
      this.#systemUndoPending = false;
      return;
    }
    if (this.#systemAccountTouched) return;
    this.#systemAccountTouched = true;
    this.#changed(() => {
      this.#systemAccountTouched = false;
    });
  }

  #setCode(key: string, code: Uint8Array | undefined): void {
    const had = this.#code.has(key);
    const previous = this.#code.get(key);
    if (!had && code === undefined) return;
    if (code === undefined) this.#code.delete(key);
    else this.#code.set(key, code);
    this.#changed(() => {
      if (had) this.#code.set(key, previous!);
      else this.#code.delete(key);
    });
  }

  #wipeStorage(key: string): void {
    const previous = this.#storage.get(key);
    this.#storage.set(key, { wiped: true, slots: new Map() });
    this.#changed(() => {
      if (previous !== undefined) this.#storage.set(key, previous);
      else this.#storage.delete(key);
    });
  }

  #hasChanges(): boolean {
    return this.#accounts.size > 0 || this.#storage.size > 0 || this.#code.size > 0;
  }

  #dropChanges(): void {
    this.#accounts = new Map();
    this.#storage = new Map();
    this.#code = new Map();
    this.#systemUndoPending = false;
    this.#systemAccountTouched = false;
    this.#journal.clear();
    this.originalStorageCache.clear();
    this.#version++;
  }

  /** The code size for a code hash the VM puts without calling putCode in between. */
  #codeSizeFor(hash: Uint8Array, previous: AccountSlot, address: Address): number {
    if (previous !== null && equalsBytes(hash, previous.codeHash)) return previous.codeSize;
    if (equalsBytes(hash, KECCAK256_NULL)) return 0;
    const size = this.#codeSizeByHash.get(bytesToUnprefixedHex(hash));
    if (size === undefined) {
      throw new StateManagerError(
        "UNKNOWN_CODE_HASH",
        `putAccount(${bytesToHex(address.bytes)}) sets code hash ${bytesToHex(hash)}, but no code with that hash was put`,
      );
    }
    return size;
  }

  // ---- internals: committed state reads -------------------------------------------------

  async #account(key: string, address: Uint8Array): Promise<AccountSlot> {
    const dirty = this.#accounts.get(key);
    if (dirty !== undefined) return dirty;
    const clean = this.#cleanAccounts.get(key);
    if (clean !== undefined) return clean;
    const tree = await this.#readyTree();
    if (this.#lazy) await tree.load([tree.keys.basicDataKey(address)]);
    const stored = tree.getAccount(address);
    const entry: AccountSlot =
      stored === undefined
        ? null
        : {
            nonce: stored.nonce,
            balance: stored.balance,
            codeHash: stored.codeHash,
            codeSize: stored.codeSize,
          };
    this.#cleanAccounts.set(key, entry);
    return entry;
  }

  async #committedStorage(
    account: string,
    address: Uint8Array,
    slot: string,
    slotBytes: Uint8Array,
  ): Promise<Uint8Array> {
    let slots = this.#cleanStorage.get(account);
    const cached = slots?.get(slot);
    if (cached !== undefined) return cached;
    let value: Uint8Array = EMPTY_BYTES;
    // Slots never written to the tree are absent: skip the key derivation. Under 'geth-ubt' a
    // deleted account keeps its slots in the tree, but reads none.
    const gone =
      this.writePolicy === "geth-ubt" && (await this.#account(account, address)) === null;
    if (!gone && this.#index.slots(account)?.has(slot) === true) {
      const tree = await this.#readyTree();
      const treeKey = tree.keys.storageSlotKey(address, slotBytes);
      if (this.#lazy) await tree.load([treeKey]);
      value = stripLeadingZeros(tree.get(treeKey) ?? EMPTY_BYTES);
    }
    if (slots === undefined) {
      slots = new Map();
      this.#cleanStorage.set(account, slots);
    }
    slots.set(slot, value);
    return value;
  }

  /** Whether the account has a non-zero slot (for the VM's EIP-7610 collision check). */
  async #hasStorage(account: string, address: Uint8Array): Promise<boolean> {
    const overlay = this.#storage.get(account);
    if (overlay !== undefined) {
      for (const value of overlay.slots.values()) if (value.length > 0) return true;
      if (overlay.wiped) return false;
    }
    const indexed = this.#index.slots(account);
    if (indexed === undefined || indexed.size === 0) return false;
    if (overlay === undefined || overlay.slots.size === 0) {
      const known = this.#cleanHasStorage.get(account);
      if (known !== undefined) return known;
    }
    let found = false;
    for (const slot of indexed) {
      if (overlay?.slots.has(slot) === true) continue;
      const value = await this.#committedStorage(
        account,
        address,
        slot,
        unprefixedHexToBytes(slot),
      );
      if (value.length > 0) {
        found = true;
        break;
      }
    }
    if (overlay === undefined || overlay.slots.size === 0)
      this.#cleanHasStorage.set(account, found);
    return found;
  }

  async #storageOf(address: Address): Promise<Map<string, Uint8Array>> {
    const account = bytesToUnprefixedHex(address.bytes);
    const slots = new Set<string>(this.#index.slots(account) ?? []);
    for (const slot of this.#storage.get(account)?.slots.keys() ?? []) slots.add(slot);
    const out = new Map<string, Uint8Array>();
    for (const slot of [...slots].sort()) {
      const value = await this.getStorage(address, unprefixedHexToBytes(slot));
      if (value.length > 0) out.set(`0x${slot}`, value);
    }
    return out;
  }

  // ---- internals: tree ------------------------------------------------------------------

  async #readyTree(): Promise<BinaryTree> {
    if (this.#treeStale) await this.#reopenAtBase();
    return this.#tree;
  }

  /**
   * Forgets tree content ahead of the committed state: `revertCheckpoint()` when it was written
   * inside a tree checkpoint, else the tree is reopened from the store on next use.
   */
  #dropTreeAhead(): void {
    if (this.#treeCheckpoint) {
      this.#tree.revertCheckpoint();
      this.#treeCheckpoint = false;
      this.#treeAhead = false;
    } else {
      this.#treeStale = true;
    }
  }

  async #reopenAtBase(): Promise<void> {
    this.#treeCheckpoint = false;
    const tree = await openTree(this.store, {
      root: this.#baseRoot,
      scheme: this.scheme,
      groupDepth: this.groupDepth,
    });
    this.#tree = tree;
    this.#lazy = true;
    this.#treeAhead = false;
    this.#treeStale = false;
  }

  #adopt(tree: BinaryTree, index: StateIndex, root: Uint8Array): void {
    this.#tree = tree;
    this.#treeCheckpoint = false;
    this.#lazy = true;
    this.#index = index;
    this.#baseRoot = root.slice();
    this.#lastRoot = this.#baseRoot;
    this.#treeAhead = false;
    this.#treeStale = false;
    this.clearCaches();
  }

  /** Writes every cached change into the tree (see the class comment for the policy). */
  async #applyChanges(): Promise<void> {
    const tree = this.#tree;
    const keys = tree.keys;
    const plans: AccountPlan[] = [];
    const touched = new Set<string>([
      ...this.#accounts.keys(),
      ...this.#storage.keys(),
      ...this.#code.keys(),
    ]);
    for (const account of touched) {
      const address = unprefixedHexToBytes(account);
      const dirty = this.#accounts.get(account);
      const final = dirty !== undefined ? dirty : await this.#account(account, address);
      const overlay = this.#storage.get(account);
      const storage: SlotWrite[] = [];
      // geth's UBT StateDB never wipes storage (the tree never shrinks).
      const clearAll =
        this.writePolicy === "mpt-compatible" && (final === null || overlay?.wiped === true);
      if (final !== null && overlay !== undefined) {
        for (const [slot, value] of overlay.slots) {
          storage.push({
            slot,
            key: keys.storageSlotKey(address, unprefixedHexToBytes(slot)),
            value,
          });
        }
      }
      const clear: SlotWrite[] = [];
      if (clearAll) {
        const written = new Set(final === null ? [] : overlay?.slots.keys());
        for (const slot of this.#index.slots(account) ?? []) {
          if (written.has(slot)) continue;
          clear.push({
            slot,
            key: keys.storageSlotKey(address, unprefixedHexToBytes(slot)),
            value: EMPTY_BYTES,
          });
        }
      }
      plans.push({
        account,
        address,
        header: dirty,
        storage,
        clear,
        code: final === null ? undefined : this.#code.get(account),
      });
    }
    if (this.#lazy) await tree.load(plans.flatMap((p) => planKeys(tree, p)));

    for (const plan of plans) {
      for (const write of plan.clear) {
        const current = tree.get(write.key);
        if (current !== undefined && !isZero(current)) tree.put(write.key, ZERO32);
      }
      for (const write of plan.storage) {
        const current = tree.get(write.key);
        if (sameNumber(current, write.value)) continue;
        tree.put(write.key, leftPad32(write.value));
        this.#index.addSlot(plan.account, write.slot);
      }
      if (plan.header === null) {
        // geth's DeleteAccount writes both header leaves as zeros, present or not — except for
        // the system address deleted only by system calls (see runSystemCall).
        const present = tree.getAccount(plan.address) !== undefined;
        const touched = plan.account !== SYSTEM_ADDRESS || this.#systemAccountTouched;
        if (present || (this.writePolicy === "geth-ubt" && touched)) {
          tree.deleteAccount(plan.address);
        }
      } else if (plan.header !== undefined) {
        tree.putAccount(plan.address, plan.header);
        this.#index.addAccount(plan.account);
        if (plan.code !== undefined && plan.code.length > 0) tree.putCode(plan.address, plan.code);
      }
    }
  }

  /**
   * Persists the tree and index in one batch and makes the cache the committed state. Two-phase:
   * the tree's `persist` marks its nodes clean only once the batch has landed, and the index's
   * pending writes are dropped only then, so a rejected batch leaves everything to write again.
   */
  async #commitState(): Promise<void> {
    if (this.#treeCheckpoint) {
      this.#tree.commitCheckpoint();
      this.#treeCheckpoint = false;
    }
    const operations = this.#index.pendingOperations();
    const root = await this.#tree.persist({ operations });
    this.#index.settlePending(operations.length);
    this.#baseRoot = root;
    this.#lastRoot = root;
    this.#treeAhead = false;
    this.#promoteChanges();
  }

  /** Moves the (now committed) changes into the read caches. */
  #promoteChanges(): void {
    for (const [account, entry] of this.#accounts) {
      this.#cleanAccounts.set(account, entry);
      if (entry === null) this.#cleanCode.delete(account);
    }
    for (const [account, code] of this.#code) this.#cleanCode.set(account, code);
    for (const [account, overlay] of this.#storage) {
      this.#cleanHasStorage.delete(account);
      // An absent account's storage was zeroed in the tree (see #applyChanges).
      const gone = this.#cleanAccounts.get(account) === null;
      let slots = this.#cleanStorage.get(account);
      if (slots === undefined || overlay.wiped || gone) {
        slots = new Map();
        this.#cleanStorage.set(account, slots);
      }
      if (!gone) for (const [slot, value] of overlay.slots) slots.set(slot, value);
    }
    this.#accounts = new Map();
    this.#storage = new Map();
    this.#code = new Map();
    this.#systemUndoPending = false;
    this.#systemAccountTouched = false;
  }
}

interface SlotWrite {
  readonly slot: string;
  readonly key: Uint8Array;
  readonly value: Uint8Array;
}

interface AccountPlan {
  readonly account: string;
  readonly address: Uint8Array;
  /** New header, null to delete, undefined when unchanged. */
  readonly header: AccountSlot | undefined;
  readonly storage: SlotWrite[];
  readonly clear: SlotWrite[];
  readonly code: Uint8Array | undefined;
}

/** Keys whose tree paths a plan reads or writes (for trees loaded lazily from a store). */
function planKeys(tree: BinaryTree, plan: AccountPlan): Uint8Array[] {
  const keys = [tree.keys.basicDataKey(plan.address)];
  for (const w of plan.storage) keys.push(w.key);
  for (const w of plan.clear) keys.push(w.key);
  if (plan.code !== undefined) keys.push(...codeKeys(tree, plan.address, plan.code.length));
  return keys;
}

/** One key per stem holding the code's chunks (chunk i lives at position 128 + i). */
function codeKeys(tree: BinaryTree, address: Uint8Array, codeSize: number): Uint8Array[] {
  const keys: Uint8Array[] = [];
  const count = chunkCount(codeSize);
  for (let i = 0; i < count; i = nextStemChunk(i)) keys.push(tree.keys.codeChunkKey(address, i));
  return keys;
}

function nextStemChunk(chunk: number): number {
  const position = CODE_OFFSET + chunk;
  return (Math.floor(position / STEM_SUBTREE_WIDTH) + 1) * STEM_SUBTREE_WIDTH - CODE_OFFSET;
}

function assertSlot(key: Uint8Array): void {
  if (!(key instanceof Uint8Array) || key.length !== 32) {
    throw new StateManagerError(
      "INVALID_STORAGE_KEY",
      `storage keys must be 32 bytes, got ${key instanceof Uint8Array ? `${key.length} bytes` : typeof key}`,
    );
  }
}

function stripLeadingZeros(value: Uint8Array): Uint8Array {
  let i = 0;
  while (i < value.length && value[i] === 0) i++;
  return value.slice(i);
}

function leftPad32(value: Uint8Array): Uint8Array {
  const out = new Uint8Array(32);
  out.set(value, 32 - value.length);
  return out;
}

/** Compares a 32-byte tree value (undefined = absent = zero) with an unpadded value. */
function sameNumber(stored: Uint8Array | undefined, value: Uint8Array): boolean {
  if (stored === undefined) return value.length === 0;
  const offset = 32 - value.length;
  for (let i = 0; i < offset; i++) if (stored[i] !== 0) return false;
  for (let i = 0; i < value.length; i++) if (stored[offset + i] !== value[i]) return false;
  return true;
}
