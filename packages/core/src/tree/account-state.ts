import { packBasicData, unpackBasicData } from "../embedding/basic-data.js";
import { chunkifyCode, codeFromChunks } from "../embedding/chunkify.js";
import { EMPTY_CODE_HASH } from "../embedding/code-hash.js";
import {
  BASIC_DATA_LEAF_KEY,
  CODE_HASH_LEAF_KEY,
  CODE_OFFSET,
  STEM_SUBTREE_WIDTH,
} from "../embedding/constants.js";
import type { KeyDeriver } from "../embedding/key-deriver.js";
import type { StorageSlot } from "../embedding/storage-slot.js";
import { hexOf } from "../hex-of.js";
import type { Account } from "./account.js";
import type { BinaryTree } from "./binary-tree.js";
import { TreeError } from "./tree-error.js";

const ZERO32 = new Uint8Array(32);

/**
 * The EIP-7864 account layout on a tree, with go-ethereum's semantics: deletes write 32 zero
 * bytes (nothing is removed), an account whose two header leaves are both zero reads as absent,
 * and code lives only in 31-byte chunks at subindex 128+i.
 */
export class AccountState {
  readonly #tree: BinaryTree;
  readonly #keys: KeyDeriver;

  constructor(tree: BinaryTree, keys: KeyDeriver) {
    this.#tree = tree;
    this.#keys = keys;
  }

  /** The account header, or undefined when absent or deleted (both header leaves zero). */
  getAccount(address: Uint8Array): Account | undefined {
    const slots = this.#tree.getStem(this.#keys.accountStem(address));
    const basic = slots?.[BASIC_DATA_LEAF_KEY];
    const hash = slots?.[CODE_HASH_LEAF_KEY];
    if (basic === undefined && hash === undefined) return undefined;
    if (basic === undefined) {
      throw new TreeError(
        "CORRUPT_NODE",
        `account ${hexOf(address)} has a code hash but no basic data`,
      );
    }
    if (isZero(basic) && hash !== undefined && isZero(hash)) return undefined;
    const { nonce, balance, codeSize } = unpackBasicData(basic);
    return { nonce, balance, codeSize, codeHash: hash ?? EMPTY_CODE_HASH.slice() };
  }

  /** Writes the BASIC_DATA and CODE_HASH leaves; other leaves of the stem stay as they are. */
  putAccount(address: Uint8Array, account: Account): void {
    if (!(account.codeHash instanceof Uint8Array) || account.codeHash.length !== 32) {
      throw new TreeError("INVALID_VALUE", `account ${hexOf(address)}: codeHash must be 32 bytes`);
    }
    const values: (Uint8Array | undefined)[] = [];
    values[BASIC_DATA_LEAF_KEY] = packBasicData({
      codeSize: account.codeSize,
      nonce: account.nonce,
      balance: account.balance,
    });
    values[CODE_HASH_LEAF_KEY] = account.codeHash;
    this.#tree.putStem(this.#keys.accountStem(address), values);
  }

  /**
   * geth's DeleteAccount: both header leaves become 32 zero bytes (in 'remove' deletion mode
   * they are removed); storage and code stay.
   */
  deleteAccount(address: Uint8Array): void {
    if (this.#tree.deletionMode === "remove") {
      this.#tree.delete(this.#keys.basicDataKey(address));
      this.#tree.delete(this.#keys.codeHashKey(address));
      return;
    }
    const values: Uint8Array[] = [];
    values[BASIC_DATA_LEAF_KEY] = ZERO32;
    values[CODE_HASH_LEAF_KEY] = ZERO32;
    this.#tree.putStem(this.#keys.accountStem(address), values);
  }

  /** The 32-byte slot value, or undefined when never written. */
  getStorage(address: Uint8Array, slot: StorageSlot): Uint8Array | undefined {
    return this.#tree.get(this.#keys.storageSlotKey(address, slot));
  }

  /** Writes a storage value, left-padded to 32 bytes (geth's UpdateStorage). */
  putStorage(address: Uint8Array, slot: StorageSlot, value: Uint8Array): void {
    if (!(value instanceof Uint8Array) || value.length > 32) {
      throw new TreeError(
        "INVALID_VALUE",
        `storage value for ${hexOf(address)} must be at most 32 bytes, got ${value?.length}`,
      );
    }
    const padded = new Uint8Array(32);
    padded.set(value, 32 - value.length);
    this.#tree.put(this.#keys.storageSlotKey(address, slot), padded);
  }

  /** geth's DeleteStorage: the slot becomes a present leaf of 32 zero bytes ('remove' mode: removed). */
  deleteStorage(address: Uint8Array, slot: StorageSlot): void {
    this.#tree.delete(this.#keys.storageSlotKey(address, slot));
  }

  /**
   * Writes the code's chunks (geth's UpdateContractCode: every chunk, including all-zero ones,
   * one stem write per stem). The account header's codeSize/codeHash are set by putAccount.
   */
  putCode(address: Uint8Array, code: Uint8Array): void {
    const chunks = chunkifyCode(code);
    const count = chunks.length >>> 5;
    let i = 0;
    while (i < count) {
      const position = CODE_OFFSET + i;
      const treeIndex = Math.floor(position / STEM_SUBTREE_WIDTH);
      const values: Uint8Array[] = [];
      // All chunks that share this stem go in one stem write.
      while (i < count && Math.floor((CODE_OFFSET + i) / STEM_SUBTREE_WIDTH) === treeIndex) {
        values[(CODE_OFFSET + i) % STEM_SUBTREE_WIDTH] = chunks.subarray(i << 5, (i << 5) + 32);
        i++;
      }
      this.#tree.putStem(this.#keys.treeStem(address, BigInt(treeIndex)), values);
    }
  }

  /** The code, rebuilt from its chunks and the code size in BASIC_DATA (empty when absent). */
  getCode(address: Uint8Array): Uint8Array {
    const account = this.getAccount(address);
    if (account === undefined || account.codeSize === 0) return new Uint8Array(0);
    return codeFromChunks(this.readChunks(address, account.codeSize), account.codeSize);
  }

  /** The packed chunks covering `codeSize` bytes; a missing chunk is a CORRUPT_NODE error. */
  readChunks(address: Uint8Array, codeSize: number): Uint8Array {
    const count = Math.ceil(codeSize / 31);
    const chunks = new Uint8Array(count << 5);
    for (let i = 0; i < count; i++) {
      const chunk = this.#tree.get(this.#keys.codeChunkKey(address, i));
      if (chunk === undefined) {
        throw new TreeError(
          "CORRUPT_NODE",
          `account ${hexOf(address)}: code chunk ${i} of ${count} is missing`,
        );
      }
      chunks.set(chunk, i << 5);
    }
    return chunks;
  }

  /** Keys whose nodes a store-backed tree must load before reading this account's header. */
  accountKeys(address: Uint8Array): Uint8Array[] {
    return [this.#keys.basicDataKey(address)];
  }
}

function isZero(bytes: Uint8Array): boolean {
  for (let i = 0; i < bytes.length; i++) if (bytes[i] !== 0) return false;
  return true;
}
