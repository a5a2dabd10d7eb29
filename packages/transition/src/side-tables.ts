import type { BatchOperation, KVStore } from "@bintrie/core";
import { bytesToHex, bytesToKeyString, keyStringToBytes } from "@bintrie/core/bytes";
import { increment } from "./bytes.js";
import type { StoreKeys } from "./store-layout.js";
import { TransitionError } from "./transition-error.js";

/** Account mark: deleted in the overlay, so none of its base state may show or be converted. */
export const MARK_WIPED = 1;
/** Account mark: some of its keys have leaf tombstones ('remove' deletion mode). */
export const MARK_HAS_TOMBSTONES = 2;

const EMPTY = new Uint8Array(0);

/**
 * The transition's bookkeeping next to the overlay, staged in memory and written in the same
 * atomic batch as the overlay's nodes and root record:
 * - account marks (address → flags): wiped accounts hide their whole base state;
 * - leaf tombstones (address, tree key): in 'remove' mode a deleted key is absent from the
 *   overlay, so this hides the base value behind it;
 * - written slots (address, slot): the storage the overlay itself wrote for an account (main
 *   storage keys are hashed, so the tree cannot list them), so deleting the account can clear
 *   exactly that.
 */
export class SideTables {
  readonly #store: KVStore;
  readonly #keys: StoreKeys;
  /** Staged writes by store key (one char per byte); null = delete. */
  readonly #pending = new Map<string, Uint8Array | null>();
  #markedAccounts: number;

  constructor(store: KVStore, keys: StoreKeys, markedAccounts: number) {
    this.#store = store;
    this.#keys = keys;
    this.#markedAccounts = markedAccounts;
  }

  /** Accounts marked since the marks were last dropped (kept in the transition record). */
  get markedAccounts(): number {
    return this.#markedAccounts;
  }

  // ---- account marks --------------------------------------------------------------------

  async accountMark(address: Uint8Array): Promise<number> {
    // No account was ever marked: skip the store read (the normal case during conversion).
    if (this.#markedAccounts === 0) return 0;
    const value = await this.#get(this.#keys.accountMark(address));
    return value === undefined || value.length === 0 ? 0 : value[0]!;
  }

  /**
   * Stages `flags` on top of `current` (the mark read with accountMark() in the same queued
   * operation). Synchronous, so an operation can read first and apply all of its changes last.
   */
  markAccount(address: Uint8Array, current: number, flags: number): void {
    if ((current | flags) === current) return;
    if (current === 0) this.#markedAccounts++;
    this.#put(this.#keys.accountMark(address), Uint8Array.of(current | flags));
  }

  // ---- leaf tombstones ------------------------------------------------------------------

  /** Stages leaf tombstones for `treeKeys` and the account's tombstone flag (see markAccount). */
  addLeafTombstones(address: Uint8Array, treeKeys: readonly Uint8Array[], current: number): void {
    if (treeKeys.length === 0) return;
    for (const key of treeKeys) this.#put(this.#keys.leafTombstone(address, key), EMPTY);
    this.markAccount(address, current, MARK_HAS_TOMBSTONES);
  }

  async hasLeafTombstone(address: Uint8Array, treeKey: Uint8Array): Promise<boolean> {
    return (await this.#get(this.#keys.leafTombstone(address, treeKey))) !== undefined;
  }

  /**
   * Which of `treeKeys` have a leaf tombstone: point reads (one batched store read), so
   * conversion does not need the store's ordered iteration.
   */
  async leafTombstoned(address: Uint8Array, treeKeys: readonly Uint8Array[]): Promise<boolean[]> {
    const keys = treeKeys.map((k) => this.#keys.leafTombstone(address, k));
    const out: boolean[] = new Array(keys.length).fill(false);
    const unstaged: number[] = [];
    for (let i = 0; i < keys.length; i++) {
      const staged = this.#pending.get(bytesToKeyString(keys[i]!));
      if (staged === undefined) unstaged.push(i);
      else out[i] = staged !== null;
    }
    if (unstaged.length > 0) {
      const found = await this.#store.getMany(unstaged.map((i) => keys[i]!));
      for (let j = 0; j < unstaged.length; j++) out[unstaged[j]!] = found[j] !== undefined;
    }
    return out;
  }

  // ---- what the overlay wrote -----------------------------------------------------------

  noteWrittenSlot(address: Uint8Array, slot: Uint8Array): void {
    this.#put(this.#keys.writtenSlot(address, slot), EMPTY);
  }

  async writtenSlots(address: Uint8Array): Promise<Uint8Array[]> {
    const prefix = this.#keys.writtenSlots(address);
    return (await this.#scan(prefix)).map((key) => key.slice(prefix.length));
  }

  /** Drops written-slot records of `address` (after a wipe cleared those keys). */
  forgetSlots(address: Uint8Array, slots: readonly Uint8Array[]): void {
    for (const slot of slots) this.#del(this.#keys.writtenSlot(address, slot));
  }

  // ---- accounts converted with base storage -------------------------------------------

  /** Conversion copied (or will copy) base storage of `address` into the overlay. */
  noteBaseStorage(address: Uint8Array): void {
    this.#put(this.#keys.baseStorage(address), EMPTY);
  }

  async hasBaseStorage(address: Uint8Array): Promise<boolean> {
    return (await this.#get(this.#keys.baseStorage(address))) !== undefined;
  }

  /** After a delete cleared the copied slots. */
  forgetBaseStorage(address: Uint8Array): void {
    this.#del(this.#keys.baseStorage(address));
  }

  /** Whether every mark and tombstone can be listed (and so dropped): the store is ordered. */
  get canList(): boolean {
    return this.#store.entries !== undefined;
  }

  /**
   * Drops every account mark and leaf tombstone: once all is converted no read needs them. Lists
   * them all first and stages the deletes only then, so a failed listing changes nothing. A
   * store without ordered iteration keeps them (they are never read again).
   */
  async dropConversionMarks(): Promise<void> {
    if (!this.canList || this.#markedAccounts === 0) return;
    const marks = await this.#scan(this.#keys.sideTable("marks"));
    const tombstones = await this.#scan(this.#keys.sideTable("tombstones"));
    for (const key of marks) this.#del(key);
    for (const key of tombstones) this.#del(key);
    this.#markedAccounts = 0;
  }

  // ---- staging --------------------------------------------------------------------------

  /** The staged writes as store operations (for the commit batch). */
  operations(): BatchOperation[] {
    const ops: BatchOperation[] = [];
    for (const [k, v] of this.#pending) {
      const key = keyStringToBytes(k);
      ops.push(v === null ? { type: "del", key } : { type: "put", key, value: v });
    }
    return ops;
  }

  /** Forgets the staged writes (after their batch landed). */
  clearPending(): void {
    this.#pending.clear();
  }

  get pendingCount(): number {
    return this.#pending.size;
  }

  #put(key: Uint8Array, value: Uint8Array): void {
    this.#pending.set(bytesToKeyString(key), value);
  }

  #del(key: Uint8Array): void {
    this.#pending.set(bytesToKeyString(key), null);
  }

  async #get(key: Uint8Array): Promise<Uint8Array | undefined> {
    const staged = this.#pending.get(bytesToKeyString(key));
    if (staged !== undefined) return staged ?? undefined;
    return this.#store.get(key);
  }

  /** Keys under `prefix`: the store's (ordered iteration) merged with the staged writes. */
  async #scan(prefix: Uint8Array): Promise<Uint8Array[]> {
    const entries = this.#store.entries;
    if (entries === undefined) {
      throw new TransitionError(
        "STORE_NOT_ORDERED",
        `listing side-table keys under ${bytesToHex(prefix)} needs KVStore.entries(), which this store does not implement`,
      );
    }
    const found = new Map<string, Uint8Array>();
    for await (const [key] of entries.call(this.#store, { gte: prefix, lt: increment(prefix) })) {
      found.set(bytesToKeyString(key), key);
    }
    const p = bytesToKeyString(prefix);
    for (const [k, v] of this.#pending) {
      if (!k.startsWith(p)) continue;
      if (v === null) found.delete(k);
      else found.set(k, keyStringToBytes(k));
    }
    return [...found.values()];
  }
}
