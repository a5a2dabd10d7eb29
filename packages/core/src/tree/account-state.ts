import { describeValue } from "@bintrie/codec";
import { type BytesLike, bytesToHex, toBytes } from "../bytes/hex.js";
import { accountFromLeaves } from "../embedding/account-leaves.js";
import { packBasicData } from "../embedding/basic-data.js";
import { chunkifyCode, codeFromChunks } from "../embedding/chunkify.js";
import {
  BASIC_DATA_LEAF_KEY,
  CODE_HASH_LEAF_KEY,
  CODE_OFFSET,
  STEM_SUBTREE_WIDTH,
} from "../embedding/constants.js";
import type { KeyDeriver } from "../embedding/key-deriver.js";
import { type StorageSlotLike, toStorageSlot } from "../embedding/storage-slot.js";
import type { Account, AccountInput } from "./account.js";
import { TreeError } from "./tree-error.js";

const ZERO32 = new Uint8Array(32);

/**
 * What AccountState needs of a tree: its leaf and stem operations and its deletion mode. A
 * narrow interface, so this file does not import BinaryTree (which uses it).
 */
export interface AccountTree {
  readonly deletionMode: "zero" | "remove";
  get(key: Uint8Array): Uint8Array | undefined;
  put(key: Uint8Array, value: Uint8Array): void;
  delete(key: Uint8Array): void;
  getStem(stem: Uint8Array): (Uint8Array | undefined)[] | undefined;
  putStem(stem: Uint8Array, values: ReadonlyArray<Uint8Array | null | undefined>): void;
}

/**
 * The EIP-7864 account layout on a tree, with go-ethereum's semantics: deletes write 32 zero
 * bytes (nothing is removed), an account whose two header leaves are both zero reads as absent,
 * and code lives only in 31-byte chunks at subindex 128+i. Addresses, values and code are bytes
 * or `0x` hex; slots are bigints, 32 bytes or `0x` hex quantities.
 *
 * @example
 * ```ts
 * import { BinaryTree } from "@bintrie/core";
 *
 * // BinaryTree's account methods delegate here.
 * const tree = new BinaryTree();
 * tree.putStorage("0x00000000000000000000000000000000000000aa", "0x01", "0x2a");
 * tree.getStorage("0x00000000000000000000000000000000000000aa", 1n)?.[31]; // 42
 * ```
 */
export class AccountState {
  readonly #tree: AccountTree;
  readonly #keys: KeyDeriver;

  constructor(tree: AccountTree, keys: KeyDeriver) {
    this.#tree = tree;
    this.#keys = keys;
  }

  /** The account header, or undefined when absent or deleted (both header leaves zero). */
  getAccount(addressLike: BytesLike): Account | undefined {
    const address = toBytes(addressLike, "address");
    const slots = this.#tree.getStem(this.#keys.accountStem(address));
    const basic = slots?.[BASIC_DATA_LEAF_KEY];
    const hash = slots?.[CODE_HASH_LEAF_KEY];
    if (basic === undefined && hash === undefined) return undefined;
    if (basic === undefined) {
      throw new TreeError(
        "CORRUPT_NODE",
        `account ${bytesToHex(address)} has a code hash but no basic data`,
      );
    }
    return accountFromLeaves(basic, hash);
  }

  /** Writes the BASIC_DATA and CODE_HASH leaves; other leaves of the stem stay as they are. */
  putAccount(addressLike: BytesLike, account: AccountInput): void {
    const address = toBytes(addressLike, "address");
    if (typeof account !== "object" || account === null) {
      throw new TreeError(
        "INVALID_VALUE",
        `putAccount ${bytesToHex(address)}: account must be { nonce, balance, codeSize, codeHash }, got ${describeValue(account)}`,
      );
    }
    // Names (a hex string) only for the string form or a failure: these run per state write.
    const codeHash =
      account.codeHash instanceof Uint8Array
        ? account.codeHash
        : toBytes(account.codeHash, `account ${bytesToHex(address)}: codeHash`);
    if (codeHash.length !== 32) {
      throw new TreeError(
        "INVALID_VALUE",
        `account ${bytesToHex(address)}: codeHash must be 32 bytes, got ${codeHash.length}`,
      );
    }
    const values: (Uint8Array | undefined)[] = [];
    values[BASIC_DATA_LEAF_KEY] = packBasicData({
      codeSize: account.codeSize,
      nonce: account.nonce,
      balance: account.balance,
    });
    values[CODE_HASH_LEAF_KEY] = codeHash;
    this.#tree.putStem(this.#keys.accountStem(address), values);
  }

  /**
   * geth's DeleteAccount: both header leaves become 32 zero bytes (in 'remove' deletion mode
   * they are removed); storage and code stay.
   */
  deleteAccount(addressLike: BytesLike): void {
    const address = toBytes(addressLike, "address");
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
  getStorage(address: BytesLike, slot: StorageSlotLike): Uint8Array | undefined {
    return this.#tree.get(this.#keys.storageSlotKey(address, toStorageSlot(slot)));
  }

  /** Writes a storage value, left-padded to 32 bytes (geth's UpdateStorage). */
  putStorage(addressLike: BytesLike, slot: StorageSlotLike, valueLike: BytesLike): void {
    const address = toBytes(addressLike, "address");
    const value =
      valueLike instanceof Uint8Array
        ? valueLike
        : toBytes(valueLike, `storage value for ${bytesToHex(address)}`);
    if (value.length > 32) {
      throw new TreeError(
        "INVALID_VALUE",
        `storage value for ${bytesToHex(address)} must be at most 32 bytes, got ${value.length}`,
      );
    }
    const padded = new Uint8Array(32);
    padded.set(value, 32 - value.length);
    this.#tree.put(this.#keys.storageSlotKey(address, toStorageSlot(slot)), padded);
  }

  /** geth's DeleteStorage: the slot becomes a present leaf of 32 zero bytes ('remove' mode: removed). */
  deleteStorage(address: BytesLike, slot: StorageSlotLike): void {
    this.#tree.delete(this.#keys.storageSlotKey(address, toStorageSlot(slot)));
  }

  /**
   * Writes the code's chunks (geth's UpdateContractCode: every chunk, including all-zero ones,
   * one stem write per stem). The account header's codeSize/codeHash are set by putAccount.
   */
  putCode(addressLike: BytesLike, codeLike: BytesLike): void {
    const address = toBytes(addressLike, "address");
    const code =
      codeLike instanceof Uint8Array
        ? codeLike
        : toBytes(codeLike, `code of ${bytesToHex(address)}`);
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
  getCode(addressLike: BytesLike): Uint8Array {
    const address = toBytes(addressLike, "address");
    const account = this.getAccount(address);
    if (account === undefined || account.codeSize === 0) return new Uint8Array(0);
    return codeFromChunks(this.#readChunks(address, account.codeSize), account.codeSize);
  }

  /** The packed chunks covering `codeSize` bytes; a missing chunk is a CORRUPT_NODE error. */
  #readChunks(address: Uint8Array, codeSize: number): Uint8Array {
    const count = Math.ceil(codeSize / 31);
    // Every chunk is found before the buffer is made: a corrupt code size (up to 2^32 - 1)
    // then fails at its first missing chunk, not in an allocation of up to 4 GiB.
    const found: Uint8Array[] = [];
    for (let i = 0; i < count; i++) {
      const chunk = this.#tree.get(this.#keys.codeChunkKey(address, i));
      if (chunk === undefined) {
        throw new TreeError(
          "CORRUPT_NODE",
          `account ${bytesToHex(address)}: code chunk ${i} of ${count} is missing`,
        );
      }
      found.push(chunk);
    }
    const chunks = new Uint8Array(count * 32);
    for (let i = 0; i < count; i++) chunks.set(found[i]!, i * 32);
    return chunks;
  }
}
