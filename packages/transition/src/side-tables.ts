import type { BatchOperation, KVStore } from "@bintrie/core";
import { bytesToHex, bytesToKeyString, keyStringToBytes } from "@bintrie/core/bytes";
import { increment } from "./bytes.js";
import type { StoreKeys } from "./store-layout.js";
import { TransitionError } from "./transition-error.js";

/** Account mark: deleted in the overlay, so none of its base state may bytesToHex or be converted. */
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

  async addAccountMark(address: Uint8Array, flags: number): Promise<void> {
    const current = await this.accountMark(address);
    if ((current | flags) !== current) {
      if (current === 0) this.#markedAccounts++;
      this.#put(this.#keys.accountMark(address), Uint8Array.of(current | flags));
    }
  }

  // ---- leaf tombstones ------------------------------------------------------------------

  async addLeafTombstone(address: Uint8Array, treeKey: Uint8Array): Promise<void> {
    this.#put(this.#keys.leafTombstone(address, treeKey), EMPTY);
    await this.addAccountMark(address, MARK_HAS_TOMBSTONES);
  }

  async hasLeafTombstone(address: Uint8Array, treeKey: Uint8Array): Promise<boolean> {
    return (await this.#get(this.#keys.leafTombstone(address, treeKey))) !== undefined;
  }

  /** The tree keys of every leaf tombstone of `address` (one char per byte). */
  async leafTombstones(address: Uint8Array): Promise<Set<string>> {
    const prefix = this.#keys.leafTombstones(address);
    const out = new Set<string>();
    for (const key of await this.#scan(prefix)) {
      out.add(bytesToKeyString(key.subarray(prefix.length)));
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

  /** Drops every account mark and leaf tombstone: once all is converted no read needs them. */
  async dropConversionMarks(): Promise<void> {
    if (this.#store.entries === undefined || this.#markedAccounts === 0) return;
    for (const kind of ["marks", "tombstones"] as const) {
      for (const key of await this.#scan(this.#keys.sideTable(kind))) this.#del(key);
    }
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
