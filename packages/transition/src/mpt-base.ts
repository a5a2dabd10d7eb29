import { EMPTY_CODE_HASH, type KVStore } from "@bintrie/core";
import { MerklePatriciaTrie } from "@ethereumjs/mpt";
import { RLP } from "@ethereumjs/rlp";
import { createAccountFromRLP, ValueEncoding } from "@ethereumjs/util";
import { bytesEqual, EMPTY_TRIE_ROOT, padTo32, show } from "./bytes.js";
import { KVStoreDB } from "./kv-store-db.js";
import { type MptLeaf, walkMptLeaves } from "./mpt-walk.js";
import { DEFAULT_STORE_LAYOUT, StoreKeys, type StoreLayout } from "./store-layout.js";
import { TransitionError } from "./transition-error.js";

/** An account as the MPT stores it: RLP([nonce, balance, storageRoot, codeHash]). */
export interface BaseAccount {
  readonly nonce: bigint;
  readonly balance: bigint;
  readonly storageRoot: Uint8Array;
  readonly codeHash: Uint8Array;
}

/**
 * The frozen Merkle-Patricia state under the overlay, read from a core `KVStore`: the account
 * trie (keys keccak(address), values account RLP), one storage trie per account (keys
 * keccak(slot), values RLP of the value without leading zeros) and code keyed by its hash.
 * Read-only: nothing here writes to the store.
 */
export class MptBase {
  readonly store: KVStore;
  readonly root: Uint8Array;
  readonly keys: StoreKeys;
  readonly #accounts: MerklePatriciaTrie;
  readonly #readNodes = (hashes: readonly Uint8Array[]) =>
    this.store.getMany(hashes.map((h) => this.keys.mptNode(h)));

  private constructor(store: KVStore, root: Uint8Array, keys: StoreKeys) {
    this.store = store;
    this.root = root;
    this.keys = keys;
    this.#accounts = new MerklePatriciaTrie({
      db: new KVStoreDB(store, keys.layout.mptNodePrefix),
      valueEncoding: ValueEncoding.Bytes,
      useKeyHashing: true,
      root,
    });
  }

  /** Opens the state with MPT root `root`; its root node must be in the store. */
  static async open(
    store: KVStore,
    root: Uint8Array,
    layout: StoreLayout = DEFAULT_STORE_LAYOUT,
  ): Promise<MptBase> {
    if (!(root instanceof Uint8Array) || root.length !== 32) {
      throw new TransitionError("INVALID_ARGUMENT", "base root must be 32 bytes");
    }
    const keys = new StoreKeys(layout);
    if (!bytesEqual(root, EMPTY_TRIE_ROOT) && (await store.get(keys.mptNode(root))) === undefined) {
      throw new TransitionError(
        "MISSING_BASE_DATA",
        `MPT root node ${show(root)} is not in the store (wrong root, or the base was never written)`,
      );
    }
    return new MptBase(store, root.slice(), keys);
  }

  /** The account at `address` (20 bytes), or undefined. */
  async getAccount(address: Uint8Array): Promise<BaseAccount | undefined> {
    const rlp = await this.#get(this.#accounts, address);
    return rlp === null ? undefined : decodeAccount(rlp);
  }

  /** A storage value (32 bytes, left-padded), or undefined when the slot is empty. */
  async getStorage(account: BaseAccount, slot: Uint8Array): Promise<Uint8Array | undefined> {
    if (bytesEqual(account.storageRoot, EMPTY_TRIE_ROOT)) return undefined;
    const trie = this.#accounts.shallowCopy(false);
    trie.root(account.storageRoot);
    const rlp = await this.#get(trie, slot);
    return rlp === null ? undefined : decodeStorageValue(rlp);
  }

  /** The code with hash `codeHash` (empty for the empty-code hash). */
  async getCode(codeHash: Uint8Array): Promise<Uint8Array> {
    if (isEmptyCodeHash(codeHash)) return new Uint8Array(0);
    const code = await this.store.get(this.keys.code(codeHash));
    if (code === undefined) {
      throw new TransitionError(
        "MISSING_BASE_DATA",
        `code with hash ${show(codeHash)} is not in the store`,
      );
    }
    return code;
  }

  /** Accounts in hashed-key order from the first hashed address >= `start`. */
  accounts(start?: Uint8Array): AsyncGenerator<MptLeaf> {
    return walkMptLeaves(this.#readNodes, this.root, start);
  }

  /** Storage leaves of one account in hashed-slot order from the first >= `start`. */
  storage(storageRoot: Uint8Array, start?: Uint8Array): AsyncGenerator<MptLeaf> {
    return walkMptLeaves(this.#readNodes, storageRoot, start);
  }

  async #get(trie: MerklePatriciaTrie, key: Uint8Array): Promise<Uint8Array | null> {
    try {
      return await trie.get(key);
    } catch (error) {
      if (error instanceof Error && error.message.includes("Missing node")) {
        throw new TransitionError(
          "MISSING_BASE_DATA",
          `MPT node on the path of key ${show(key)} (root ${show(trie.root())}) is not in the store`,
        );
      }
      throw error;
    }
  }
}

export function decodeAccount(rlp: Uint8Array): BaseAccount {
  const a = createAccountFromRLP(rlp);
  return { nonce: a.nonce, balance: a.balance, storageRoot: a.storageRoot, codeHash: a.codeHash };
}

/** A storage trie value: RLP of the value without leading zeros → 32 bytes. */
export function decodeStorageValue(rlp: Uint8Array): Uint8Array {
  const decoded = RLP.decode(rlp);
  if (!(decoded instanceof Uint8Array) || decoded.length > 32) {
    throw new TransitionError(
      "MISSING_BASE_DATA",
      `storage trie value ${show(rlp)} is not the RLP of at most 32 bytes`,
    );
  }
  return padTo32(decoded);
}

export function isEmptyCodeHash(codeHash: Uint8Array): boolean {
  return bytesEqual(codeHash, EMPTY_CODE_HASH);
}
