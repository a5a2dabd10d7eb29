import {
  type Account,
  type AccountInput,
  type BatchOperation,
  BinaryTree,
  type BytesLike,
  type DeletionMode,
  type KeyScheme,
  type KVStore,
  openTree,
  ROOT_RECORD_KEY,
  SerialQueue,
  type StorageSlotLike,
} from "@bintrie/core";
import { bytesToHex, bytesToKeyString, equalBytes, isZero } from "@bintrie/core/bytes";
import {
  accountFromLeaves,
  BASIC_DATA_LEAF_KEY,
  CODE_HASH_LEAF_KEY,
  chunkCount,
  chunkifyCode,
  codeFromChunks,
} from "@bintrie/core/embedding";
import { decodeRootRecord } from "@bintrie/core/store";
import { codeChunkKeys } from "./account-leaves.js";
import {
  accountArgument,
  addressArgument,
  bytesArgument,
  invalidArgument,
  objectArgument,
  optionsArgument,
  positiveIntegerArgument,
  rawBytesArgument,
  slotArgument,
} from "./arguments.js";
import { keccak256, ZERO32 } from "./bytes.js";
import { checkStore } from "./check-store.js";
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
import {
  assertLayout,
  DEFAULT_STORE_LAYOUT,
  describeLayout,
  StoreKeys,
  type StoreLayout,
  sameLayout,
} from "./store-layout.js";
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

const OPEN_OPTION_KEYS: readonly (keyof OpenTransitionOptions)[] = [
  "baseRoot",
  "preimages",
  "scheme",
  "groupDepth",
  "deletionMode",
  "maxNodes",
  "maxBytes",
  "rootRecordKey",
  "keyPrefix",
  "layout",
];

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

const CONVERT_OPTION_KEYS: readonly (keyof ConvertOptions)[] = [
  "leavesPerStep",
  "persist",
  "onProgress",
];

/**
 * A state in transition from a Merkle-Patricia trie to the EIP-7864 binary tree (go-ethereum's
 * `TransitionTrie`, without its resurrection bug).
 *
 * Reads look at the binary overlay first and fall back to the frozen MPT base; writes and
 * deletes go to the overlay only; the state root is the overlay root. Per tree key the visible
 * value is the overlay leaf if there is one, otherwise — unless the account was deleted in the
 * overlay (wiped) or the key tombstoned — the value the base implies for that key. Conversion
 * copies base leaves the overlay lacks, so it never changes what is visible.
 *
 * @example
 * ```ts
 * import { MemoryStore } from "@bintrie/core";
 * import { buildMptBase, preimagesFromAlloc, TransitionState } from "@bintrie/transition";
 *
 * const alloc = { "0x0100000000000000000000000000000000000000": { balance: "0x1" } };
 * const store = new MemoryStore();
 * const { root: baseRoot } = await buildMptBase(store, alloc);
 * const state = await TransitionState.open(store, { baseRoot, preimages: preimagesFromAlloc(alloc) });
 * await state.convertAll(); // MPT leaves → binary overlay, resumable
 * state.converted; // true
 * ```
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
  /** Every converted account has its base-storage entry (see TransitionRecord). */
  readonly #baseStorageIndexed: boolean;
  /** Batches commitOperations() handed out that are not known to be in the store yet. */
  #handedOut: { root: Uint8Array; operations: BatchOperation[] }[] = [];

  private constructor(
    store: KVStore,
    overlay: BinaryTree,
    base: MptBase | undefined,
    baseRoot: Uint8Array,
    keys: StoreKeys,
    transition: {
      cursor: ConversionCursor;
      counters: ConversionCounters;
      markedAccounts: number;
      baseStorageIndexed: boolean;
    },
    preimages: PreimageSource | undefined,
  ) {
    this.store = store;
    this.overlay = overlay;
    this.baseRoot = baseRoot;
    this.deletionMode = overlay.deletionMode;
    this.#base = base;
    this.#keys = keys;
    this.#side = new SideTables(store, keys, transition.markedAccounts);
    this.#cursor = transition.cursor;
    this.#counters = transition.counters;
    this.#baseStorageIndexed = transition.baseStorageIndexed;
    this.#preimages = preimages;
  }

  /**
   * Opens the transition kept in `store`: resumes from the root record if there is one (its
   * overlay root, base root and conversion cursor), otherwise starts a new one over the MPT
   * state `options.baseRoot` with an empty overlay.
   */
  static async open(store: KVStore, options?: OpenTransitionOptions): Promise<TransitionState> {
    checkStore("TransitionState.open: store", store);
    const o = optionsArgument<OpenTransitionOptions>(
      "TransitionState.open: options",
      options,
      OPEN_OPTION_KEYS,
    );
    const requestedRoot =
      o.baseRoot === undefined
        ? undefined
        : rawBytesArgument("TransitionState.open: options.baseRoot", o.baseRoot, 32);
    if (o.deletionMode !== undefined && o.deletionMode !== "zero" && o.deletionMode !== "remove") {
      throw invalidArgument(
        "TransitionState.open: options.deletionMode",
        "'zero' or 'remove'",
        o.deletionMode,
      );
    }
    if (o.preimages !== undefined)
      checkPreimageSource("TransitionState.open: options.preimages", o.preimages);
    const rootRecordKey =
      o.rootRecordKey === undefined
        ? ROOT_RECORD_KEY
        : bytesOption("TransitionState.open: options.rootRecordKey", o.rootRecordKey);
    const keyPrefix =
      o.keyPrefix === undefined
        ? undefined
        : bytesOption("TransitionState.open: options.keyPrefix", o.keyPrefix);
    const requestedLayout = o.layout === undefined ? undefined : copyLayout(o.layout);
    if (requestedLayout !== undefined) assertLayout(requestedLayout, []);
    const recordBytes = await store.get(rootRecordKey);
    const treeOptions = {
      scheme: o.scheme,
      groupDepth: o.groupDepth,
      keyPrefix,
      rootRecordKey,
      maxNodes: o.maxNodes,
      maxBytes: o.maxBytes,
    };
    let overlay: BinaryTree;
    let baseRoot: Uint8Array;
    let layout = requestedLayout ?? DEFAULT_STORE_LAYOUT;
    let transition = {
      cursor: { phase: "pending" } as ConversionCursor,
      counters: ZERO_COUNTERS,
      markedAccounts: 0,
      baseStorageIndexed: true,
    };
    if (recordBytes !== undefined) {
      const record = decodeRootRecord(recordBytes);
      if (!isTransitionRecord(record.extra)) {
        throw new TransitionError(
          "NOT_A_TRANSITION",
          `the root record at ${bytesToHex(rootRecordKey)} belongs to a plain binary tree (no transition state); open it with openTree()`,
        );
      }
      const stored = decodeTransitionRecord(record.extra!);
      if (requestedRoot !== undefined && !equalBytes(requestedRoot, stored.baseRoot)) {
        throw new TransitionError(
          "RECORD_MISMATCH",
          `the store's transition has base root ${bytesToHex(stored.baseRoot)}, not ${bytesToHex(requestedRoot)}`,
        );
      }
      if (o.deletionMode !== undefined && o.deletionMode !== stored.deletionMode) {
        throw new TransitionError(
          "RECORD_MISMATCH",
          `the store's transition uses deletion mode '${stored.deletionMode}', not '${o.deletionMode}'`,
        );
      }
      // A version-1 record did not keep the layout: the one given (or the default) is used.
      if (stored.layout !== undefined) {
        if (requestedLayout !== undefined && !sameLayout(requestedLayout, stored.layout)) {
          throw new TransitionError(
            "RECORD_MISMATCH",
            `the store's transition uses store layout ${describeLayout(stored.layout)}, not ${describeLayout(requestedLayout)}`,
          );
        }
        layout = stored.layout;
      }
      overlay = await openTree(store, {
        ...treeOptions,
        root: record.root,
        deletionMode: stored.deletionMode,
      });
      baseRoot = stored.baseRoot;
      transition = {
        cursor: stored.cursor,
        counters: stored.counters,
        markedAccounts: stored.markedAccounts,
        baseStorageIndexed: stored.baseStorageIndexed === true,
      };
    } else {
      if (requestedRoot === undefined) {
        throw new TransitionError(
          "NO_BASE_ROOT",
          `the store has no transition at ${bytesToHex(rootRecordKey)}; pass options.baseRoot (the MPT state root) to start one`,
        );
      }
      baseRoot = requestedRoot;
      overlay = new BinaryTree({ ...treeOptions, store, deletionMode: o.deletionMode });
    }
    assertLayout(layout, [overlay.keyPrefix, overlay.rootRecordKey]);
    // After conversion the base is only needed to wipe converted accounts: open it lazily.
    const base =
      transition.cursor.phase === "done" ? undefined : await MptBase.open(store, baseRoot, layout);
    return new TransitionState(
      store,
      overlay,
      base,
      baseRoot,
      new StoreKeys(layout),
      transition,
      o.preimages,
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

  /**
   * Sets the preimage source used by conversion (and by deleting converted accounts). Queued
   * like every operation: it takes effect after the operations already called (a running step
   * keeps its source) and before those called later.
   */
  setPreimageSource(source: PreimageSource): void {
    checkPreimageSource("setPreimageSource: source", source);
    void this.#queue.run(async () => {
      // The converter is rebuilt from the cursor on the next step (its walks restart there).
      this.#cursor = this.cursor;
      this.#counters = this.counters;
      this.#converter = undefined;
      this.#preimages = source;
    });
  }

  // ---- reads ----------------------------------------------------------------------------

  /** The account, or undefined when absent or deleted (in the overlay, or never existing). */
  getAccount(addressLike: BytesLike): Promise<Account | undefined> {
    return this.#call(() => {
      const address = addressArgument("getAccount: address", addressLike);
      return () => this.#getAccount(address);
    });
  }

  /** The storage value (32 bytes; all zero when unset or deleted). */
  getStorage(addressLike: BytesLike, slot: StorageSlotLike): Promise<Uint8Array> {
    return this.#call(() => {
      const address = addressArgument("getStorage: address", addressLike);
      const slot32 = slotArgument("getStorage: slot", slot);
      return async () => {
        const key = this.overlay.keys.storageSlotKey(address, slot32);
        await this.overlay.load([key]);
        const value = this.overlay.get(key);
        if (value !== undefined) return value;
        if (await this.#baseHidden(address, key)) return ZERO32.slice();
        const base = await this.#openBase();
        const account = await base.getAccount(address);
        if (account === undefined) return ZERO32.slice();
        return (await base.getStorage(account, slot32)) ?? ZERO32.slice();
      };
    });
  }

  /** The contract code (empty when the account has none or does not exist). */
  getCode(addressLike: BytesLike): Promise<Uint8Array> {
    return this.#call(() => {
      const address = addressArgument("getCode: address", addressLike);
      return async () => {
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
      };
    });
  }

  // ---- writes (overlay only) ------------------------------------------------------------
  //
  // Each write reads and loads everything it needs first, then changes the overlay in one
  // all-or-nothing step (a synchronous write, or one deleteMany) and stages its side-table
  // entries synchronously after it. A failed store read thus leaves memory as it was, and
  // hash() never sees half of a write.

  /** Writes the account header (BASIC_DATA and CODE_HASH); storage and code are untouched. */
  putAccount(addressLike: BytesLike, account: AccountInput): Promise<void> {
    return this.#call(() => {
      const address = addressArgument("putAccount: address", addressLike);
      const header = accountArgument("putAccount: account", account);
      return async () => {
        await this.overlay.load([this.overlay.keys.accountStem(address)]);
        this.overlay.putAccount(address, header);
      };
    });
  }

  /** Writes a storage value (at most 32 bytes, left-padded); a zero value deletes the slot. */
  putStorage(addressLike: BytesLike, slot: StorageSlotLike, valueLike: BytesLike): Promise<void> {
    return this.#call(() => {
      const address = addressArgument("putStorage: address", addressLike);
      const slot32 = slotArgument("putStorage: slot", slot);
      const value = bytesArgument("putStorage: value", valueLike);
      if (value.length > 32) {
        throw new TransitionError(
          "INVALID_ARGUMENT",
          `putStorage: value must be at most 32 bytes, got ${value.length} bytes`,
        );
      }
      if (isZero(value)) return () => this.#deleteStorage(address, slot32);
      return async () => {
        await this.overlay.load([this.overlay.keys.storageSlotKey(address, slot32)]);
        this.overlay.putStorage(address, slot32, value);
        this.#side.noteWrittenSlot(address, slot32);
      };
    });
  }

  /**
   * Deletes a storage slot: a zero leaf in 'zero' mode (go-ethereum's DeleteStorage), which hides
   * the base value; in 'remove' mode the leaf is removed and a leaf tombstone hides the base.
   */
  deleteStorage(addressLike: BytesLike, slot: StorageSlotLike): Promise<void> {
    return this.#call(() => {
      const address = addressArgument("deleteStorage: address", addressLike);
      const slot32 = slotArgument("deleteStorage: slot", slot);
      return () => this.#deleteStorage(address, slot32);
    });
  }

  /**
   * Writes the code chunks (set codeSize/codeHash with putAccount). In 'remove' mode chunks of
   * longer earlier code are removed, so the tree matches a fresh build; 'zero' mode leaves them,
   * as go-ethereum does (they are past codeSize and never read).
   */
  putCode(addressLike: BytesLike, codeLike: BytesLike): Promise<void> {
    return this.#call(() => {
      const address = addressArgument("putCode: address", addressLike);
      const code = bytesArgument("putCode: code", codeLike);
      return async () => {
        const count = chunkCount(code.length);
        const writeKeys = codeChunkKeys(this.overlay.keys, address, 0, count);
        let clear: Uint8Array[] = [];
        if (this.deletionMode === "remove") {
          // Chunks of longer earlier code, in the overlay or still in the base, must go.
          let earlier = await this.#overlayChunkEnd(address, count);
          if (this.#progressOf(address) === "untouched" && !(await this.#wiped(address))) {
            earlier = Math.max(earlier, (await this.#baseChunks(address)).length >>> 5);
          }
          if (earlier > count) clear = codeChunkKeys(this.overlay.keys, address, count, earlier);
        }
        if (clear.length === 0) {
          await this.overlay.load(writeKeys);
          this.overlay.putCode(address, code);
          return;
        }
        // The longer old code's last chunks go and the new chunks land in one overlay call, so
        // a failed read (or an eviction of a bounded overlay) can never leave just one of them.
        const chunks = chunkifyCode(code);
        const puts = writeKeys.map((key, i) => ({
          key,
          value: chunks.subarray(i << 5, (i << 5) + 32),
        }));
        await this.#clearKeys(address, clear, puts);
      };
    });
  }

  /**
   * Deletes the account: its header reads as absent and none of its storage or code stays
   * visible — neither what the overlay wrote nor the base's (no resurrection). Overlay keys are
   * cleared now; base keys of an account not yet converted are hidden by a wipe mark, and
   * conversion later writes them as deleted.
   */
  deleteAccount(addressLike: BytesLike): Promise<void> {
    return this.#call(() => {
      const address = addressArgument("deleteAccount: address", addressLike);
      return () => this.#deleteAccount(address);
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
   * bytes carry the transition record. The overlay is marked clean at once, so the state keeps
   * these operations until `commitWritten(root)` says the batch landed (or a later persist()
   * wrote them): each later commitOperations() returns them again together with the new ones,
   * and persist() writes them first. A failed batch thus never leaves the store incomplete.
   */
  commitOperations(): Promise<{ root: Uint8Array; operations: BatchOperation[] }> {
    return this.#queue.run(async () => this.#commitOperations());
  }

  /**
   * Tells the state that the batch commitOperations() returned with `root` landed: it stops
   * keeping that batch (and earlier ones) for a retry. Unknown roots are ignored.
   */
  commitWritten(root: Uint8Array): void {
    const landed = rawBytesArgument("commitWritten: root", root, 32);
    void this.#queue.run(async () => {
      const at = this.#handedOut.findIndex((b) => equalBytes(b.root, landed));
      if (at >= 0) this.#handedOut = this.#handedOut.slice(at + 1);
    });
  }

  /**
   * Commits and writes everything in one atomic batch; returns the root. Batches handed out
   * by commitOperations() and not confirmed with commitWritten() are written first, in a batch
   * of their own (a complete earlier state).
   */
  persist(): Promise<Uint8Array> {
    return this.#queue.run(() => this.#persist());
  }

  // ---- conversion -----------------------------------------------------------------------

  /** Converts about `maxLeaves` base leaves into the overlay (in memory; persist to keep them). */
  convertStep(maxLeaves = 10_000): Promise<ConversionProgress> {
    let leaves: number;
    try {
      leaves = positiveIntegerArgument("convertStep: maxLeaves", maxLeaves);
    } catch (error) {
      return Promise.reject(error); // checked at call time; reported as a rejection (as before)
    }
    return this.#queue.run(async () => {
      if (this.converted) return this.#progress(0);
      const stepLeaves = await this.#step(leaves);
      return this.#progress(stepLeaves);
    });
  }

  /** Converts everything, step by step, persisting after each step by default. */
  async convertAll(options?: ConvertOptions): Promise<ConversionProgress> {
    const o = optionsArgument<ConvertOptions>("convertAll: options", options, CONVERT_OPTION_KEYS);
    const leavesPerStep =
      o.leavesPerStep === undefined
        ? 10_000
        : positiveIntegerArgument("convertAll: options.leavesPerStep", o.leavesPerStep);
    if (o.persist !== undefined && typeof o.persist !== "boolean") {
      throw invalidArgument("convertAll: options.persist", "a boolean", o.persist);
    }
    if (o.onProgress !== undefined && typeof o.onProgress !== "function") {
      throw invalidArgument("convertAll: options.onProgress", "a function", o.onProgress);
    }
    const persist = o.persist ?? true;
    const onProgress = o.onProgress;
    for (;;) {
      const progress = await this.#queue.run(async () => {
        if (this.converted) return this.#progress(0);
        const stepLeaves = await this.#step(leavesPerStep);
        if (persist) await this.#persist();
        return this.#progress(stepLeaves);
      });
      onProgress?.(progress);
      if (progress.done) return progress;
    }
  }

  // ---- internals ------------------------------------------------------------------------

  /**
   * Runs `prepare` now, at call time (argument checks and copies: bad arguments throw
   * synchronously, nothing is queued), and the operation it returns in the queue.
   */
  #call<T>(prepare: () => () => Promise<T>): Promise<T> {
    return this.#queue.run(prepare());
  }

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

  async #deleteStorage(address: Uint8Array, slot32: Uint8Array): Promise<void> {
    await this.#clearKeys(address, [this.overlay.keys.storageSlotKey(address, slot32)]);
  }

  async #deleteAccount(address: Uint8Array): Promise<void> {
    const keys = this.overlay.keys;
    const progress = this.#progressOf(address);
    // Every read first (side-table scan, base walk, preimages, overlay loads, the mark): the
    // steps that can fail. Then one all-or-nothing overlay delete and synchronous staging.
    const written = await this.#side.writtenSlots(address);
    const clear = written.map((slot) => keys.storageSlotKey(address, slot));
    // Base slots already copied into the overlay are overlay leaves now: clear them too.
    if (progress !== "untouched" && (await this.#hadBaseStorage(address, progress))) {
      const base = await this.#openBase();
      const account = await base.getAccount(address);
      if (account !== undefined) clear.push(...(await this.#baseSlotKeys(address, account)));
    }
    // Code chunks in the overlay (written or copied) always form a prefix 0..n-1.
    clear.push(...codeChunkKeys(keys, address, 0, await this.#overlayChunkEnd(address, 0)));
    // Both modes: 'zero' writes zero header leaves (geth's DeleteAccount), 'remove' removes them.
    clear.push(keys.basicDataKey(address), keys.codeHashKey(address));
    const mark = progress === "converted" ? 0 : await this.#side.accountMark(address);
    await this.overlay.deleteMany(unique(clear));
    this.#side.forgetSlots(address, written);
    // Its copied base slots are gone: a later delete need not look at the base for them.
    if (progress !== "untouched") this.#side.forgetBaseStorage(address);
    if (progress !== "converted") this.#side.markAccount(address, mark, MARK_WIPED);
  }

  /**
   * Whether the account had base storage that conversion copied (or is copying) into the
   * overlay. From the side table when every converted account is indexed, so no base is read.
   */
  async #hadBaseStorage(address: Uint8Array, progress: AccountProgress): Promise<boolean> {
    if (progress === "partial" || !this.#baseStorageIndexed) return true;
    return this.#side.hasBaseStorage(address);
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

  /**
   * Deletes overlay keys the deletion-mode way; in 'remove' mode tombstones hide the base. The
   * mark is read before the one overlay change, and the tombstones staged synchronously after
   * it, so a failure leaves no removed key without its tombstone. `then` (synchronous but for
   * a rare reload) runs right after the removal.
   */
  async #clearKeys(
    address: Uint8Array,
    keys: readonly Uint8Array[],
    puts: readonly { key: Uint8Array; value: Uint8Array }[] = [],
  ): Promise<void> {
    const tombstone =
      keys.length > 0 &&
      this.deletionMode === "remove" &&
      this.#progressOf(address) !== "converted";
    const mark = tombstone ? await this.#side.accountMark(address) : 0;
    if (keys.length > 0 || puts.length > 0) await this.overlay.updateMany({ deletes: keys, puts });
    if (tombstone) this.#side.addLeafTombstones(address, keys, mark);
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
      layout: this.#keys.layout,
      baseStorageIndexed: this.#baseStorageIndexed,
    });
  }

  /**
   * Hands the commit over to the caller: the overlay is marked clean and the side tables
   * dropped, but the operations are kept (with every earlier batch not confirmed) until
   * commitWritten() or a persist() that lands.
   */
  #commitOperations(): { root: Uint8Array; operations: BatchOperation[] } {
    const set = this.overlay.commit();
    const operations = this.overlay.nodeSetOperations(set, { extra: this.#record() });
    operations.push(...this.#side.operations());
    this.#side.clearPending();
    this.#handedOut.push({ root: set.root, operations });
    return { root: set.root, operations: this.#handedOutOperations() };
  }

  /**
   * The handed-out batches as one: the last operation per key wins, which is what applying
   * them in order leaves, whether or not some of them already landed.
   */
  #handedOutOperations(): BatchOperation[] {
    const byKey = new Map<string, BatchOperation>();
    for (const batch of this.#handedOut) {
      for (const op of batch.operations) {
        const k = bytesToKeyString(op.key);
        byKey.delete(k); // keep the order of last writes
        byKey.set(k, op);
      }
    }
    return [...byKey.values()];
  }

  /**
   * Two-phase, like the overlay's persist (which it is): the side tables go into the overlay's
   * batch and are dropped only after it resolved; a rejected batch leaves overlay and side
   * tables exactly as they were, so the next persist writes all of it. Nothing else can stage
   * side-table writes meanwhile: every transition operation runs in this state's queue.
   */
  async #persist(): Promise<Uint8Array> {
    if (this.#handedOut.length > 0) {
      // The overlay counts these nodes as stored: they must be before its next batch builds on
      // them (a batch of their own: core's persist would put them after its newer nodes).
      await this.store.batch(this.#handedOutOperations());
      this.#handedOut = [];
    }
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

/** The keys without repeats (a written slot can also be a copied base slot). */
function unique(keys: readonly Uint8Array[]): Uint8Array[] {
  const seen = new Map<string, Uint8Array>();
  for (const key of keys) seen.set(bytesToKeyString(key), key);
  return [...seen.values()];
}

/** An object with a preimage(hashedKey) method. */
function checkPreimageSource(what: string, source: unknown): void {
  objectArgument(what, source);
  if (typeof (source as PreimageSource).preimage !== "function") {
    throw invalidArgument(what, "a PreimageSource (an object with preimage(hashedKey))", source);
  }
}

/** A non-empty Uint8Array option; a copy. */
function bytesOption(what: string, value: unknown): Uint8Array {
  if (!(value instanceof Uint8Array) || value.length === 0) {
    throw invalidArgument(what, "non-empty bytes (a Uint8Array)", value);
  }
  return value.slice();
}

/** The layout's prefixes, copied (checked by assertLayout). */
function copyLayout(layout: StoreLayout): StoreLayout {
  objectArgument("TransitionState.open: options.layout", layout);
  const copy = (p: unknown) => (p instanceof Uint8Array ? p.slice() : p) as Uint8Array;
  return {
    mptNodePrefix: copy(layout.mptNodePrefix),
    codePrefix: copy(layout.codePrefix),
    sidePrefix: copy(layout.sidePrefix),
  };
}
