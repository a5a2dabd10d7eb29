import { type BatchOperation, bytesToHex, hexToBytes, type KVStore } from "@bintrie/core";
import { StateManagerError } from "./state-manager-error.js";

/** Store key prefix of index entries (next to the tree's "vA" node keys and its root record). */
const INDEX_PREFIX = new Uint8Array([0x74, 0x69]); // "ti"
const ACCOUNT_TAG = 0;
const SLOT_TAG = 1;
const PRESENT = new Uint8Array([1]);

/**
 * Every address whose account header, and every (address, slot) whose storage leaf, was ever
 * written to the tree. A binary tree cannot enumerate an account's storage (slot keys are
 * hashed), so this is how `clearStorage`, post-state comparison and state dumps find them. It
 * only grows: entries whose leaf is now zero or deleted stay, and readers filter by value.
 */
export class StateIndex {
  readonly #slots = new Map<string, Set<string>>();
  #pending: BatchOperation[] = [];

  /** Records an address (unprefixed lowercase hex); true when it is new. */
  addAccount(address: string): boolean {
    if (this.#slots.has(address)) return false;
    this.#slots.set(address, new Set());
    this.#pending.push({ type: "put", key: accountKey(address), value: PRESENT });
    return true;
  }

  /** Records a slot (unprefixed lowercase 64-digit hex) of an address. */
  addSlot(address: string, slot: string): void {
    this.addAccount(address);
    const slots = this.#slots.get(address)!;
    if (slots.has(slot)) return;
    slots.add(slot);
    this.#pending.push({ type: "put", key: slotKey(address, slot), value: PRESENT });
  }

  addresses(): IterableIterator<string> {
    return this.#slots.keys();
  }

  slots(address: string): ReadonlySet<string> | undefined {
    return this.#slots.get(address);
  }

  get accountCount(): number {
    return this.#slots.size;
  }

  /** An independent copy (for a state-manager copy that persists to its own store). */
  clone(): StateIndex {
    const copy = new StateIndex();
    for (const [address, slots] of this.#slots) copy.#slots.set(address, new Set(slots));
    copy.#pending = [...this.#pending];
    return copy;
  }

  /**
   * Store writes for entries added since the last settle, without dropping them: the caller
   * puts them in a batch and calls `settlePending` once that batch has landed (two-phase, so a
   * rejected batch loses nothing and the next one writes them again).
   */
  pendingOperations(): BatchOperation[] {
    return [...this.#pending];
  }

  /** Drops the first `count` pending writes (those of a batch that has resolved). */
  settlePending(count: number): void {
    this.#pending = this.#pending.slice(count);
  }

  /** Rebuilds an index from a store written with `pendingOperations` (needs `entries`). */
  static async load(store: KVStore): Promise<StateIndex> {
    const index = new StateIndex();
    if (store.entries === undefined) {
      throw new StateManagerError(
        "CORRUPT_INDEX",
        "the store has no ordered `entries()`, so the account index cannot be read back",
      );
    }
    const lt = new Uint8Array([0x74, 0x6a]);
    for await (const [key] of store.entries({ gte: INDEX_PREFIX, lt })) {
      const tag = key[2];
      if (tag === ACCOUNT_TAG && key.length === 23) {
        index.addAccount(hex(key.subarray(3)));
      } else if (tag === SLOT_TAG && key.length === 55) {
        index.addSlot(hex(key.subarray(3, 23)), hex(key.subarray(23)));
      } else {
        throw new StateManagerError(
          "CORRUPT_INDEX",
          `index entry 0x${hex(key)} has an unknown tag or length`,
        );
      }
    }
    index.#pending = [];
    return index;
  }
}

function accountKey(address: string): Uint8Array {
  const key = new Uint8Array(23);
  key.set(INDEX_PREFIX, 0);
  key[2] = ACCOUNT_TAG;
  writeHex(key, 3, address);
  return key;
}

function slotKey(address: string, slot: string): Uint8Array {
  const key = new Uint8Array(55);
  key.set(INDEX_PREFIX, 0);
  key[2] = SLOT_TAG;
  writeHex(key, 3, address);
  writeHex(key, 23, slot);
  return key;
}

function writeHex(out: Uint8Array, at: number, digits: string): void {
  out.set(hexToBytes(digits), at);
}

/** Unprefixed lower-case hex, the index's address and slot form. */
function hex(bytes: Uint8Array): string {
  return bytesToHex(bytes).slice(2);
}
