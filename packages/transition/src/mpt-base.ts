import { EMPTY_CODE_HASH, EMPTY_MPT_ROOT, type KVStore } from "@bintrie/core";
import { bytesToHex, bytesToKeyString, equalBytes } from "@bintrie/core/bytes";
import {
  BranchMPTNode,
  decodeMPTNode,
  ExtensionMPTNode,
  MerklePatriciaTrie,
} from "@ethereumjs/mpt";
import { RLP } from "@ethereumjs/rlp";
import { createAccountFromRLP, ValueEncoding } from "@ethereumjs/util";
import {
  addressArgument,
  assertByteLength,
  invalidArgument,
  rawBytesArgument,
  slotArgument,
} from "./arguments.js";
import { padTo32 } from "./bytes.js";
import { checkStore } from "./check-store.js";
import { KVStoreDB } from "./kv-store-db.js";
import { type MptLeaf, rootAndStart, walkMptLeaves } from "./mpt-walk.js";
import { assertLayout, DEFAULT_STORE_LAYOUT, StoreKeys, type StoreLayout } from "./store-layout.js";
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
 *
 * @example
 * ```ts
 * import { MemoryStore } from "@bintrie/core";
 * import { buildMptBase, MptBase } from "@bintrie/transition";
 *
 * const store = new MemoryStore();
 * const address = "0x0100000000000000000000000000000000000000";
 * const { root } = await buildMptBase(store, { [address]: { balance: "0x1" } });
 * const base = await MptBase.open(store, root);
 * // base.getAccount(address bytes) → { nonce, balance, storageRoot, codeHash }
 * ```
 */
export class MptBase {
  readonly store: KVStore;
  readonly root: Uint8Array;
  readonly keys: StoreKeys;
  readonly #accounts: MerklePatriciaTrie;
  /** Nodes and code read ahead by `prefetch` (keyed by hash), each handed out once. */
  readonly #prefetched = new Map<string, Uint8Array>();
  readonly #prefetchedCode = new Map<string, Uint8Array>();
  readonly #readNodes = async (hashes: readonly Uint8Array[]) => {
    if (this.#prefetched.size === 0) {
      return this.store.getMany(hashes.map((h) => this.keys.mptNode(h)));
    }
    const out: (Uint8Array | undefined)[] = new Array(hashes.length);
    const missing: number[] = [];
    for (let i = 0; i < hashes.length; i++) {
      const blob = take(this.#prefetched, bytesToKeyString(hashes[i]!));
      if (blob === undefined) missing.push(i);
      else out[i] = blob;
    }
    if (missing.length > 0) {
      const blobs = await this.store.getMany(missing.map((i) => this.keys.mptNode(hashes[i]!)));
      for (let j = 0; j < missing.length; j++) out[missing[j]!] = blobs[j];
    }
    return out;
  };

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
    checkStore("MptBase.open: store", store);
    const rootCopy = rawBytesArgument("MptBase.open: root", root, 32);
    assertLayout(layout, []);
    const keys = new StoreKeys(layout);
    if (!equalBytes(root, EMPTY_MPT_ROOT) && (await store.get(keys.mptNode(root))) === undefined) {
      throw new TransitionError(
        "MISSING_BASE_DATA",
        `MPT root node ${bytesToHex(root)} is not in the store (wrong root, or the base was never written)`,
      );
    }
    return new MptBase(store, rootCopy, keys);
  }

  /** The account at `address` (20 bytes or 0x hex), or undefined. */
  async getAccount(address: Uint8Array): Promise<BaseAccount | undefined> {
    const key = addressArgument("MptBase.getAccount: address", address);
    const rlp = await this.#get(this.#accounts, key);
    return rlp === null ? undefined : decodeAccount(rlp);
  }

  /**
   * A storage value (32 bytes, left-padded), or undefined when the slot is empty. `slot` is
   * 32 bytes, a uint256 bigint or a 0x hex quantity.
   */
  async getStorage(account: BaseAccount, slot: Uint8Array): Promise<Uint8Array | undefined> {
    if (typeof account !== "object" || account === null) {
      throw invalidArgument("MptBase.getStorage: account", "a BaseAccount", account);
    }
    const storageRoot = rawBytesArgument(
      "MptBase.getStorage: account.storageRoot",
      account.storageRoot,
      32,
    );
    const key = slotArgument("MptBase.getStorage: slot", slot);
    if (equalBytes(storageRoot, EMPTY_MPT_ROOT)) return undefined;
    const trie = this.#accounts.shallowCopy(false);
    trie.root(storageRoot);
    const rlp = await this.#get(trie, key);
    return rlp === null ? undefined : decodeStorageValue(rlp);
  }

  /** The code with hash `codeHash` (empty for the empty-code hash). */
  async getCode(codeHash: Uint8Array): Promise<Uint8Array> {
    assertByteLength("MptBase.getCode: codeHash", codeHash, 32);
    if (isEmptyCodeHash(codeHash)) return new Uint8Array(0);
    const ahead = take(this.#prefetchedCode, bytesToKeyString(codeHash));
    if (ahead !== undefined) return ahead;
    const code = await this.store.get(this.keys.code(codeHash));
    if (code === undefined) {
      throw new TransitionError(
        "MISSING_BASE_DATA",
        `code with hash ${bytesToHex(codeHash)} is not in the store`,
      );
    }
    return code;
  }

  /**
   * Reads ahead, in one batched read per level, the code and the top `levels` levels of the
   * storage tries of accounts about to be walked; replaces what an earlier call read ahead.
   * Turns several store round trips per account into a few per batch of accounts.
   */
  async prefetch(
    storageRoots: readonly Uint8Array[],
    codeHashes: readonly Uint8Array[],
    levels = 2,
  ): Promise<void> {
    const nodes = this.#prefetched;
    const codeMap = this.#prefetchedCode;
    nodes.clear();
    codeMap.clear();
    const codes = codeHashes.filter((h) => !isEmptyCodeHash(h));
    const codeRead = this.store.getMany(codes.map((h) => this.keys.code(h)));
    let level = storageRoots.filter((r) => !equalBytes(r, EMPTY_MPT_ROOT));
    for (let depth = 0; depth < levels && level.length > 0; depth++) {
      const blobs = await this.store.getMany(level.map((h) => this.keys.mptNode(h)));
      const next: Uint8Array[] = [];
      for (let i = 0; i < level.length; i++) {
        const blob = blobs[i];
        if (blob === undefined) continue; // the walk reports it when it gets there
        nodes.set(bytesToKeyString(level[i]!), blob);
        if (depth + 1 < levels) next.push(...childHashes(blob));
      }
      level = next;
    }
    const codeBlobs = await codeRead;
    for (let i = 0; i < codes.length; i++) {
      const code = codeBlobs[i];
      if (code !== undefined) codeMap.set(bytesToKeyString(codes[i]!), code);
    }
  }

  /** Accounts in hashed-key order from the first hashed address >= `start` (32 bytes). */
  accounts(start?: Uint8Array): AsyncGenerator<MptLeaf> {
    return walkMptLeaves(this.#readNodes, ...rootAndStart("MptBase.accounts", this.root, start));
  }

  /** Storage leaves of one account in hashed-slot order from the first >= `start` (32 bytes). */
  storage(storageRoot: Uint8Array, start?: Uint8Array): AsyncGenerator<MptLeaf> {
    return walkMptLeaves(this.#readNodes, ...rootAndStart("MptBase.storage", storageRoot, start));
  }

  async #get(trie: MerklePatriciaTrie, key: Uint8Array): Promise<Uint8Array | null> {
    try {
      return await trie.get(key);
    } catch (error) {
      if (error instanceof Error && error.message.includes("Missing node")) {
        throw new TransitionError(
          "MISSING_BASE_DATA",
          `MPT node on the path of key ${bytesToHex(key)} (root ${bytesToHex(trie.root())}) is not in the store`,
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
      `storage trie value ${bytesToHex(rlp)} is not the RLP of at most 32 bytes`,
    );
  }
  return padTo32(decoded);
}

export function isEmptyCodeHash(codeHash: Uint8Array): boolean {
  return equalBytes(codeHash, EMPTY_CODE_HASH);
}

/** The hashed (not inlined) children of an encoded MPT node. */
function childHashes(blob: Uint8Array): Uint8Array[] {
  const node = decodeMPTNode(blob);
  const out: Uint8Array[] = [];
  if (node instanceof BranchMPTNode) {
    for (let i = 0; i < 16; i++) {
      const ref = node.getBranch(i);
      if (ref instanceof Uint8Array && ref.length === 32) out.push(ref);
    }
  } else if (node instanceof ExtensionMPTNode) {
    const ref = node.value();
    if (ref instanceof Uint8Array && ref.length === 32) out.push(ref);
  }
  return out;
}

/** Removes and returns the value at `key`. */
function take(map: Map<string, Uint8Array>, key: string): Uint8Array | undefined {
  const value = map.get(key);
  if (value !== undefined) map.delete(key);
  return value;
}
