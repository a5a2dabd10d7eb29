import {
  type Account,
  type BatchOperation,
  BinaryTree,
  type DeletionMode,
  type KeyScheme,
  type KVStore,
  openTree,
  ROOT_RECORD_KEY,
  SerialQueue,
  type StorageSlot,
} from "@bintrie/core";
import { bytesToHex, equalBytes, isZero } from "@bintrie/core/bytes";
import {
  accountFromLeaves,
  BASIC_DATA_LEAF_KEY,
  CODE_HASH_LEAF_KEY,
  chunkCount,
  chunkifyCode,
  codeFromChunks,
  storageSlotToBytes,
} from "@bintrie/core/embedding";
import { decodeRootRecord } from "@bintrie/core/store";
import { codeChunkKeys } from "./account-leaves.js";
import { keccak256, ZERO32 } from "./bytes.js";
import {
  type AccountProgress,
  accountProgress,
  type ConversionCursor,
  cursorFraction,
} from "./conversion-cursor.js";
import { Converter } from "./converter.js";
import { type BaseAccount, MptBase } from "./mpt-base.js";
import { lookupPreimage } from "./preimage-lookup.js";
import type { PreimageSource } from "./preimage-source.js";
import { MARK_HAS_TOMBSTONES, MARK_WIPED, SideTables } from "./side-tables.js";
import { assertLayout, DEFAULT_STORE_LAYOUT, StoreKeys, type StoreLayout } from "./store-layout.js";
import { TransitionError } from "./transition-error.js";
import {
  type ConversionCounters,
  decodeTransitionRecord,
  encodeTransitionRecord,
  isTransitionRecord,
  ZERO_COUNTERS,
} from "./transition-record.js";

export interface OpenTransitionOptions {
  /** MPT state root of the base. Required when the store holds no transition yet. */
  readonly baseRoot?: Uint8Array;
  /** Unhashed keys for conversion (and for deleting already converted accounts). */
  readonly preimages?: PreimageSource;
  /** Overlay key scheme. Default 'sha256-be' (go-ethereum). */
  readonly scheme?: KeyScheme;
  /** Overlay group depth. Default 5 (go-ethereum). */
  readonly groupDepth?: number;
  /**
   * 'zero' (default, go-ethereum): deletes write 32 zero bytes, which also hide base values.
   * 'remove': deletes remove leaves and leaf tombstones hide the base; the converted tree then
   * equals a fresh build of the final state exactly. Fixed when the transition is created.
   */
  readonly deletionMode?: DeletionMode;
  /** Overlay memory bound (core's `maxNodes`): evict clean stored subtrees after each persist. */
  readonly maxNodes?: number;
  /** Overlay memory bound in bytes (core's `maxBytes`). */
  readonly maxBytes?: number;
  /** Store key of the overlay root record, which also carries the transition record. */
  readonly rootRecordKey?: Uint8Array;
  /** Overlay node key prefix. Default "vA". */
  readonly keyPrefix?: Uint8Array;
  /** Prefixes of the MPT base and the side tables. */
  readonly layout?: StoreLayout;
}

/** Progress after a conversion step. */
export interface ConversionProgress {
  readonly done: boolean;
  readonly cursor: ConversionCursor;
  readonly counters: ConversionCounters;
  /** Base leaves handled by the last step. */
  readonly stepLeaves: number;
  /** Rough share done, from the cursor's position in the (uniform) hashed key space. */
  readonly fraction: number;
}

export interface ConvertOptions {
  /** Base leaves per step. Default 10 000. */
  readonly leavesPerStep?: number;
  /** Persist after every step so a restart resumes from there. Default true. */
  readonly persist?: boolean;
  /** Called after every step (after its persist). */
  readonly onProgress?: (progress: ConversionProgress) => void;
}

/**
 * A state in transition from a Merkle-Patricia trie to the EIP-7864 binary tree (go-ethereum's
 * `TransitionTrie`, without its resurrection bug).
 *
 * Reads look at the binary overlay first and fall back to the frozen MPT base; writes and
 * deletes go to the overlay only; the state root is the overlay root. Per tree key the visible
 * value is the overlay leaf if there is one, otherwise — unless the account was deleted in the
 * overlay (wiped) or the key tombstoned — the value the base implies for that key. Conversion
 * copies base leaves the overlay lacks, so it never changes what is visible.
 */
export class TransitionState {
  readonly store: KVStore;
  readonly overlay: BinaryTree;
  readonly baseRoot: Uint8Array;
  readonly deletionMode: DeletionMode;
  readonly #keys: StoreKeys;
  readonly #side: SideTables;
  readonly #queue = new SerialQueue();
  #base: MptBase | undefined;
  #preimages: PreimageSource | undefined;
  #converter: Converter | undefined;
  #cursor: ConversionCursor;
  #counters: ConversionCounters;

  private constructor(
    store: KVStore,
    overlay: BinaryTree,
    base: MptBase | undefined,
    baseRoot: Uint8Array,
    keys: StoreKeys,
    cursor: ConversionCursor,
    counters: ConversionCounters,
    markedAccounts: number,
    preimages: PreimageSource | undefined,
  ) {
    this.store = store;
    this.overlay = overlay;
    this.baseRoot = baseRoot;
    this.deletionMode = overlay.deletionMode;
    this.#base = base;
    this.#keys = keys;
    this.#side = new SideTables(store, keys, markedAccounts);
    this.#cursor = cursor;
    this.#counters = counters;
    this.#preimages = preimages;
  }

  /**
   * Opens the transition kept in `store`: resumes from the root record if there is one (its
   * overlay root, base root and conversion cursor), otherwise starts a new one over the MPT
   * state `options.baseRoot` with an empty overlay.
   */
  static async open(store: KVStore, options: OpenTransitionOptions = {}): Promise<TransitionState> {
    const layout = options.layout ?? DEFAULT_STORE_LAYOUT;
    const rootRecordKey = options.rootRecordKey ?? ROOT_RECORD_KEY;
    const recordBytes = await store.get(rootRecordKey);
    const treeOptions = {
      scheme: options.scheme,
      groupDepth: options.groupDepth,
      keyPrefix: options.keyPrefix,
      rootRecordKey,
      maxNodes: options.maxNodes,
      maxBytes: options.maxBytes,
    };
    let overlay: BinaryTree;
    let baseRoot: Uint8Array;
    let cursor: ConversionCursor = { phase: "pending" };
    let counters = ZERO_COUNTERS;
    let markedAccounts = 0;
    if (recordBytes !== undefined) {
      const record = decodeRootRecord(recordBytes);
      if (!isTransitionRecord(record.extra)) {
        throw new TransitionError(
          "NOT_A_TRANSITION",
          `the root record at ${bytesToHex(rootRecordKey)} belongs to a plain binary tree (no transition state); open it with openTree()`,
        );
      }
      const transition = decodeTransitionRecord(record.extra!);
      if (options.baseRoot !== undefined && !equalBytes(options.baseRoot, transition.baseRoot)) {
        throw new TransitionError(
          "RECORD_MISMATCH",
          `the store's transition has base root ${bytesToHex(transition.baseRoot)}, not ${bytesToHex(options.baseRoot)}`,
        );
      }
      if (options.deletionMode !== undefined && options.deletionMode !== transition.deletionMode) {
        throw new TransitionError(
          "RECORD_MISMATCH",
          `the store's transition uses deletion mode '${transition.deletionMode}', not '${options.deletionMode}'`,
        );
      }
      overlay = await openTree(store, {
        ...treeOptions,
        root: record.root,
        deletionMode: transition.deletionMode,
      });
      baseRoot = transition.baseRoot;
      cursor = transition.cursor;
      counters = transition.counters;
      markedAccounts = transition.markedAccounts;
    } else {
      if (options.baseRoot === undefined) {
        throw new TransitionError(
          "NO_BASE_ROOT",
          `the store has no transition at ${bytesToHex(rootRecordKey)}; pass options.baseRoot (the MPT state root) to start one`,
        );
      }
      baseRoot = options.baseRoot.slice();
      overlay = new BinaryTree({ ...treeOptions, store, deletionMode: options.deletionMode });
    }
    assertLayout(layout, [overlay.keyPrefix, overlay.rootRecordKey]);
    // After conversion the base is only needed to wipe converted accounts: open it lazily.
    const base = cursor.phase === "done" ? undefined : await MptBase.open(store, baseRoot, layout);
    return new TransitionState(
      store,
      overlay,
      base,
      baseRoot,
      new StoreKeys(layout),
      cursor,
      counters,
      markedAccounts,
      options.preimages,
    );
  }

  // ---- status ---------------------------------------------------------------------------

  get cursor(): ConversionCursor {
    return this.#converter?.cursor ?? this.#cursor;
  }

  get counters(): ConversionCounters {
    return this.#converter?.counters ?? this.#counters;
  }

  /** True once every base leaf is in the overlay: reads no longer touch the base. */
  get converted(): boolean {
    return this.cursor.phase === "done";
  }

  /** Sets the preimage source used by conversion (and by deleting converted accounts). */
  setPreimageSource(source: PreimageSource): void {
    // The converter is rebuilt from the cursor on the next step (its walks restart there).
    this.#cursor = this.cursor;
    this.#counters = this.counters;
    this.#converter = undefined;
    this.#preimages = source;
  }

  // ---- reads ----------------------------------------------------------------------------

  /** The account, or undefined when absent or deleted (in the overlay, or never existing). */
  getAccount(address: Uint8Array): Promise<Account | undefined> {
    assertAddress(address);
    return this.#queue.run(() => this.#getAccount(address));
  }

  /** The storage value (32 bytes; all zero when unset or deleted). */
  getStorage(address: Uint8Array, slot: StorageSlot): Promise<Uint8Array> {
    assertAddress(address);
    const slot32 = slotBytes(slot);
    return this.#queue.run(async () => {
      const key = this.overlay.keys.storageSlotKey(address, slot32);
      await this.overlay.load([key]);
      const value = this.overlay.get(key);
      if (value !== undefined) return value;
      if (await this.#baseHidden(address, key)) return ZERO32.slice();
      const base = await this.#openBase();
      const account = await base.getAccount(address);
      if (account === undefined) return ZERO32.slice();
      return (await base.getStorage(account, slot32)) ?? ZERO32.slice();
    });
  }

  /** The contract code (empty when the account has none or does not exist). */
  getCode(address: Uint8Array): Promise<Uint8Array> {
    assertAddress(address);
    return this.#queue.run(async () => {
      const account = await this.#getAccount(address);
      if (account === undefined || account.codeSize === 0) return new Uint8Array(0);
      const count = chunkCount(account.codeSize);
      const keys = codeChunkKeys(this.overlay.keys, address, 0, count);
      await this.overlay.load(keys);
      const chunks = new Uint8Array(count * 32);
      let baseChunks: Uint8Array | undefined;
      for (let i = 0; i < count; i++) {
        let chunk = this.overlay.get(keys[i]!);
        if (chunk === undefined && !(await this.#baseHidden(address, keys[i]!))) {
          baseChunks ??= await this.#baseChunks(address);
          if (i < baseChunks.length >>> 5) chunk = baseChunks.subarray(i * 32, i * 32 + 32);
        }
        if (chunk === undefined) {
          throw new TransitionError(
            "CORRUPT_STATE",
            `account ${bytesToHex(address)}: code chunk ${i} of ${count} is in neither the overlay nor the base`,
          );
        }
        chunks.set(chunk, i * 32);
      }
      return codeFromChunks(chunks, account.codeSize);
    });
  }

  // ---- writes (overlay only) ------------------------------------------------------------

  /** Writes the account header (BASIC_DATA and CODE_HASH); storage and code are untouched. */
  putAccount(address: Uint8Array, account: Account): Promise<void> {
    assertAddress(address);
    return this.#queue.run(async () => {
      await this.overlay.load([this.overlay.keys.accountStem(address)]);
      this.overlay.putAccount(address, account);
    });
  }

  /** Writes a storage value (at most 32 bytes, left-padded); a zero value deletes the slot. */
  putStorage(address: Uint8Array, slot: StorageSlot, value: Uint8Array): Promise<void> {
    assertAddress(address);
    const slot32 = slotBytes(slot);
    if (!(value instanceof Uint8Array) || value.length > 32) {
      throw new TransitionError(
        "INVALID_ARGUMENT",
        `storage value for ${bytesToHex(address)} must be at most 32 bytes`,
      );
    }
    if (isZero(value)) return this.deleteStorage(address, slot32);
    return this.#queue.run(async () => {
      await this.overlay.load([this.overlay.keys.storageSlotKey(address, slot32)]);
      this.overlay.putStorage(address, slot32, value);
      this.#side.noteWrittenSlot(address, slot32);
    });
  }

  /**
   * Deletes a storage slot: a zero leaf in 'zero' mode (go-ethereum's DeleteStorage), which hides
   * the base value; in 'remove' mode the leaf is removed and a leaf tombstone hides the base.
   */
  deleteStorage(address: Uint8Array, slot: StorageSlot): Promise<void> {
    assertAddress(address);
    const slot32 = slotBytes(slot);
    return this.#queue.run(async () => {
      const key = this.overlay.keys.storageSlotKey(address, slot32);
      await this.#clearKeys(address, [key]);
    });
  }

  /**
   * Writes the code chunks (set codeSize/codeHash with putAccount). In 'remove' mode chunks of
   * longer earlier code are removed, so the tree matches a fresh build; 'zero' mode leaves them,
   * as go-ethereum does (they are past codeSize and never read).
   */
  putCode(address: Uint8Array, code: Uint8Array): Promise<void> {
    assertAddress(address);
    if (!(code instanceof Uint8Array)) {
      throw new TransitionError(
        "INVALID_ARGUMENT",
        `code for ${bytesToHex(address)} must be bytes`,
      );
    }
    return this.#queue.run(async () => {
      const count = chunkCount(code.length);
      if (this.deletionMode === "remove") {
        // Chunks of longer earlier code, in the overlay or still in the base, must go.
        let earlier = await this.#overlayChunkEnd(address, count);
        if (this.#progressOf(address) === "untouched" && !(await this.#wiped(address))) {
          earlier = Math.max(earlier, (await this.#baseChunks(address)).length >>> 5);
        }
        if (earlier > count) {
          await this.#clearKeys(address, codeChunkKeys(this.overlay.keys, address, count, earlier));
        }
      }
      await this.overlay.load(codeChunkKeys(this.overlay.keys, address, 0, count));
      this.overlay.putCode(address, code);
    });
  }

  /**
   * Deletes the account: its header reads as absent and none of its storage or code stays
   * visible — neither what the overlay wrote nor the base's (no resurrection). Overlay keys are
   * cleared now; base keys of an account not yet converted are hidden by a wipe mark, and
   * conversion later writes them as deleted.
   */
  deleteAccount(address: Uint8Array): Promise<void> {
    assertAddress(address);
    return this.#queue.run(async () => {
      const keys = this.overlay.keys;
      const progress = this.#progressOf(address);
      // Gather first (side-table scan, base walk, preimages: the steps that can fail), then
      // write, so a failure leaves the account as it was rather than half deleted.
      const written = await this.#side.writtenSlots(address);
      const clear = written.map((slot) => keys.storageSlotKey(address, slot));
      if (progress !== "untouched") {
        // Base slots already copied into the overlay are overlay leaves now: clear them too.
        const base = await this.#openBase();
        const account = await base.getAccount(address);
        if (account !== undefined) clear.push(...(await this.#baseSlotKeys(address, account)));
      }
      // Code chunks in the overlay (written or copied) always form a prefix 0..n-1.
      clear.push(...codeChunkKeys(keys, address, 0, await this.#overlayChunkEnd(address, 0)));
      if (this.deletionMode === "zero") {
        await this.overlay.load([keys.accountStem(address)]);
        this.overlay.deleteAccount(address);
      } else {
        clear.push(keys.basicDataKey(address), keys.codeHashKey(address));
      }
      await this.overlay.deleteMany(clear);
      this.#side.forgetSlots(address, written);
      if (progress !== "converted") await this.#side.addAccountMark(address, MARK_WIPED);
    });
  }

  // ---- root and commit ------------------------------------------------------------------

  /** The state root: the overlay root (the base does not contribute). */
  hash(): Uint8Array {
    return this.overlay.hash();
  }

  /**
   * Commits the overlay and returns the store operations that make it durable in one atomic
   * batch: overlay nodes and orphan deletes, the side tables, and the root record whose extra
   * bytes carry the transition record (base root, deletion mode, cursor, counters).
   */
  commitOperations(): Promise<{ root: Uint8Array; operations: BatchOperation[] }> {
    return this.#queue.run(async () => this.#commitOperations());
  }

  /** Commits and writes everything in one atomic batch; returns the root. */
  persist(): Promise<Uint8Array> {
    return this.#queue.run(() => this.#persist());
  }

  // ---- conversion -----------------------------------------------------------------------

  /** Converts about `maxLeaves` base leaves into the overlay (in memory; persist to keep them). */
  convertStep(maxLeaves = 10_000): Promise<ConversionProgress> {
    return this.#queue.run(async () => {
      if (this.converted) return this.#progress(0);
      const stepLeaves = await this.#step(maxLeaves);
      return this.#progress(stepLeaves);
    });
  }

  /** Converts everything, step by step, persisting after each step by default. */
  async convertAll(options: ConvertOptions = {}): Promise<ConversionProgress> {
    const leavesPerStep = options.leavesPerStep ?? 10_000;
    const persist = options.persist ?? true;
    for (;;) {
      const progress = await this.#queue.run(async () => {
        if (this.converted) return this.#progress(0);
        const stepLeaves = await this.#step(leavesPerStep);
        if (persist) await this.#persist();
        return this.#progress(stepLeaves);
      });
      options.onProgress?.(progress);
      if (progress.done) return progress;
    }
  }

  // ---- internals ------------------------------------------------------------------------

  async #getAccount(address: Uint8Array): Promise<Account | undefined> {
    const stem = this.overlay.keys.accountStem(address);
    await this.overlay.load([stem]);
    const slots = this.overlay.getStem(stem);
    const basic = slots?.[BASIC_DATA_LEAF_KEY];
    const hash = slots?.[CODE_HASH_LEAF_KEY];
    if (basic !== undefined) {
      // Both header leaves zero: deleted in the overlay. It must not fall through to the base.
      return accountFromLeaves(basic, hash);
    }
    if (hash !== undefined) {
      throw new TransitionError(
        "CORRUPT_STATE",
        `account ${bytesToHex(address)} has a CODE_HASH leaf but no BASIC_DATA leaf in the overlay`,
      );
    }
    if (await this.#baseHidden(address, this.overlay.keys.basicDataKey(address))) return undefined;
    const reader = await this.#openBase();
    const base = await reader.getAccount(address);
    if (base === undefined) return undefined;
    const code = await reader.getCode(base.codeHash);
    return {
      nonce: base.nonce,
      balance: base.balance,
      codeHash: base.codeHash,
      codeSize: code.length,
    };
  }

  /**
   * Whether the base value behind an overlay-absent key must stay hidden: the account is fully
   * converted (the overlay is complete for it), wiped, or the key has a leaf tombstone.
   */
  async #baseHidden(address: Uint8Array, key: Uint8Array): Promise<boolean> {
    if (this.#progressOf(address) === "converted") return true;
    const mark = await this.#side.accountMark(address);
    if ((mark & MARK_WIPED) !== 0) return true;
    return (mark & MARK_HAS_TOMBSTONES) !== 0 && (await this.#side.hasLeafTombstone(address, key));
  }

  /** Deletes overlay keys the deletion-mode way; in 'remove' mode tombstones hide the base. */
  async #clearKeys(address: Uint8Array, keys: Uint8Array[]): Promise<void> {
    await this.overlay.deleteMany(keys);
    if (this.deletionMode === "remove" && this.#progressOf(address) !== "converted") {
      for (const key of keys) await this.#side.addLeafTombstone(address, key);
    }
  }

  /** The base code of `address`, chunked (empty when the base has no such account). */
  async #baseChunks(address: Uint8Array): Promise<Uint8Array> {
    const base = await this.#openBase();
    const account = await base.getAccount(address);
    if (account === undefined) return new Uint8Array(0);
    return chunkifyCode(await base.getCode(account.codeHash));
  }

  /** The first chunk index >= `from` with no overlay leaf (chunks always fill a prefix). */
  async #overlayChunkEnd(address: Uint8Array, from: number): Promise<number> {
    const probe = 256;
    for (let start = from; ; start += probe) {
      const keys = codeChunkKeys(this.overlay.keys, address, start, start + probe);
      await this.overlay.load(keys);
      for (let i = 0; i < keys.length; i++) {
        if (this.overlay.get(keys[i]!) === undefined) return start + i;
      }
    }
  }

  /** Tree keys of every base storage slot of an account (needs their preimages). */
  async #baseSlotKeys(address: Uint8Array, account: BaseAccount): Promise<Uint8Array[]> {
    const out: Uint8Array[] = [];
    const context = ` (storage of account ${bytesToHex(address)}, which is being deleted)`;
    const preimages = this.#requirePreimages();
    for await (const leaf of (await this.#openBase()).storage(account.storageRoot)) {
      const slot = await lookupPreimage(preimages, leaf.hashedKey, "storage slot", context);
      out.push(this.overlay.keys.storageSlotKey(address, slot));
    }
    return out;
  }

  async #wiped(address: Uint8Array): Promise<boolean> {
    return ((await this.#side.accountMark(address)) & MARK_WIPED) !== 0;
  }

  #progressOf(address: Uint8Array): AccountProgress {
    return accountProgress(this.cursor, keccak256(address));
  }

  /** The transition record, carried in the overlay's root record (same atomic batch). */
  #record(): Uint8Array {
    return encodeTransitionRecord({
      baseRoot: this.baseRoot,
      deletionMode: this.deletionMode,
      cursor: this.cursor,
      counters: this.counters,
      markedAccounts: this.#side.markedAccounts,
    });
  }

  /** Hands the commit over to the caller: the overlay is marked clean, the side tables dropped. */
  #commitOperations(): { root: Uint8Array; operations: BatchOperation[] } {
    const set = this.overlay.commit();
    const operations = this.overlay.nodeSetOperations(set, { extra: this.#record() });
    operations.push(...this.#side.operations());
    this.#side.clearPending();
    return { root: set.root, operations };
  }

  /**
   * Two-phase, like the overlay's persist (which it is): the side tables go into the overlay's
   * batch and are dropped only after it resolved; a rejected batch leaves overlay and side
   * tables exactly as they were, so the next persist writes all of it. Nothing else can stage
   * side-table writes meanwhile: every transition operation runs in this state's queue.
   */
  async #persist(): Promise<Uint8Array> {
    const root = await this.overlay.persist({
      extra: this.#record(),
      operations: this.#side.operations(),
    });
    this.#side.clearPending();
    return root;
  }

  #progress(stepLeaves: number): ConversionProgress {
    const cursor = this.cursor;
    return {
      done: cursor.phase === "done",
      cursor,
      counters: this.counters,
      stepLeaves,
      fraction: cursorFraction(cursor),
    };
  }

  /**
   * One conversion step. After a failure the converter is dropped: its walks may have moved past
   * the leaf that failed, so the next step restarts them from the cursor, which only ever moves
   * past fully converted work (and converting a leaf twice is harmless: the overlay keeps it).
   */
  async #step(maxLeaves: number): Promise<number> {
    const converter = await this.#requireConverter();
    try {
      return await converter.step(maxLeaves);
    } catch (error) {
      this.#cursor = converter.cursor;
      this.#counters = converter.counters;
      this.#converter = undefined;
      throw error;
    }
  }

  async #requireConverter(): Promise<Converter> {
    if (this.#converter === undefined) {
      const target = {
        overlay: this.overlay,
        base: await this.#openBase(),
        side: this.#side,
        preimages: this.#requirePreimages(),
      };
      this.#converter = new Converter(target, this.#cursor, this.#counters);
    }
    return this.#converter;
  }

  /** The MPT base, opened on first use once conversion is done (it is rarely needed then). */
  async #openBase(): Promise<MptBase> {
    this.#base ??= await MptBase.open(this.store, this.baseRoot, this.#keys.layout);
    return this.#base;
  }

  #requirePreimages(): PreimageSource {
    if (this.#preimages === undefined) {
      throw new TransitionError(
        "NO_PREIMAGE_SOURCE",
        "conversion needs a preimage source (options.preimages or setPreimageSource())",
      );
    }
    return this.#preimages;
  }
}

function assertAddress(address: Uint8Array): void {
  if (!(address instanceof Uint8Array) || address.length !== 20) {
    throw new TransitionError(
      "INVALID_ARGUMENT",
      `address must be 20 bytes, got ${address instanceof Uint8Array ? `${address.length} bytes` : typeof address}`,
    );
  }
}

function slotBytes(slot: StorageSlot): Uint8Array {
  if (typeof slot === "bigint") return storageSlotToBytes(slot);
  if (!(slot instanceof Uint8Array) || slot.length !== 32) {
    throw new TransitionError("INVALID_ARGUMENT", "storage slot must be a bigint or 32 bytes");
  }
  return slot;
}
