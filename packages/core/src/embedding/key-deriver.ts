import { describeValue } from "@bintrie/codec";
import { type BytesLike, hexToBytes } from "../bytes/hex.js";
import { getHasher } from "../hash/get-hasher.js";
import type { Hasher } from "../hash/hasher.js";
import { assertChunkIndex } from "./code-chunk-location.js";
import {
  BASIC_DATA_LEAF_KEY,
  CODE_HASH_LEAF_KEY,
  CODE_OFFSET,
  HEADER_STORAGE_OFFSET,
  KEY_SIZE,
  STEM_SIZE,
  STEM_SUBTREE_WIDTH,
} from "./constants.js";
import { KeyDerivationError } from "./errors.js";
import { hashFunctionOfScheme, isBigEndianScheme, type KeyScheme } from "./key-scheme.js";
import {
  assertStorageSlot,
  isHeaderSlotBytes,
  type StorageSlotLike,
  toStorageSlot,
} from "./storage-slot.js";
import { isUint256, writeUint256 } from "./uint256.js";

/** Bytes of the key-derivation preimage: 12 zero bytes || address (20) || tree index (32). */
const PREIMAGE_SIZE = 64;
const ADDRESS_AT = 12;
const TREE_INDEX_AT = 32;

/**
 * Derives EIP-7864 tree keys for one scheme:
 * key = H(12 zero bytes || address || tree_index as 32 bytes)[0..31) || subIndex.
 * Reuses one 64-byte preimage buffer, so bulk derivation allocates only the returned keys.
 * Holds scratch state, so calls must not interleave; JS guarantees that within one thread.
 *
 * @example
 * ```ts
 * import { KeyDeriver } from "@bintrie/core/embedding";
 *
 * const keys = new KeyDeriver("sha256-be");
 * const address = "0x00000000000000000000000000000000000000aa";
 * keys.basicDataKey(address); // the same key as basicDataKey("sha256-be", address)
 * keys.storageSlotKey(address, 5n)[31]; // 69
 * ```
 */
export class KeyDeriver {
  readonly scheme: KeyScheme;
  readonly hasher: Hasher;
  private readonly bigEndian: boolean;
  private readonly preimage = new Uint8Array(PREIMAGE_SIZE);
  private readonly preimageView = new DataView(this.preimage.buffer);
  private readonly digestScratch = new Uint8Array(32);
  private readonly slotScratch = new Uint8Array(32);
  private readonly slotScratchView = new DataView(this.slotScratch.buffer);

  constructor(scheme: KeyScheme, hasher: Hasher = getHasher(hashFunctionOfScheme(scheme))) {
    const expected = hashFunctionOfScheme(scheme);
    if (typeof hasher !== "object" || hasher === null || typeof hasher.hash64Batch !== "function") {
      throw new KeyDerivationError(
        "HASHER_MISMATCH",
        `key scheme ${scheme} needs a ${expected} Hasher, got ${describeValue(hasher)}`,
      );
    }
    if (hasher.name !== expected) {
      throw new KeyDerivationError(
        "HASHER_MISMATCH",
        `key scheme ${scheme} needs a ${expected} hasher, got ${String(hasher.name)}`,
      );
    }
    this.scheme = scheme;
    this.hasher = hasher;
    this.bigEndian = isBigEndianScheme(scheme);
  }

  /** The key at (treeIndex, subIndex) of `address`; treeIndex in 0..2^256-1, subIndex in 0..255. */
  treeKey(address: BytesLike, treeIndex: bigint, subIndex: number): Uint8Array {
    assertSubIndex(subIndex);
    this.writeAddress(address);
    this.writeTreeIndex(treeIndex);
    return this.finishKey(subIndex);
  }

  /** The 31-byte stem of tree index `treeIndex` of `address`. */
  treeStem(address: BytesLike, treeIndex: bigint): Uint8Array {
    this.writeAddress(address);
    this.writeTreeIndex(treeIndex);
    this.hasher.hash64Batch(this.preimage, 0, 1, this.digestScratch, 0);
    return this.digestScratch.slice(0, STEM_SIZE);
  }

  /** The account stem (tree index 0): basic data, code hash, header storage, first 128 chunks. */
  accountStem(address: BytesLike): Uint8Array {
    return this.treeStem(address, 0n);
  }

  /** Key of the BASIC_DATA leaf (account stem, subindex 0). */
  basicDataKey(address: BytesLike): Uint8Array {
    this.writeAddress(address);
    this.writeSmallTreeIndex(0);
    return this.finishKey(BASIC_DATA_LEAF_KEY);
  }

  /** Key of the CODE_HASH leaf (account stem, subindex 1). */
  codeHashKey(address: BytesLike): Uint8Array {
    this.writeAddress(address);
    this.writeSmallTreeIndex(0);
    return this.finishKey(CODE_HASH_LEAF_KEY);
  }

  /**
   * Key of a storage slot. Slots 0..63 go to subindex 64 + slot of the account stem; every other
   * slot to position 2^248 + slot, i.e. tree index 2^240 + (slot >> 8), subindex slot & 0xff.
   * For slots with top byte 0xff the addition carries into bit 248, which big-endian schemes
   * write as byte 0 of the tree index (geth's "overflow" byte).
   */
  storageSlotKey(address: BytesLike, slotLike: StorageSlotLike): Uint8Array {
    const slot = toStorageSlot(slotLike);
    assertStorageSlot(slot);
    let slot32: Uint8Array;
    if (typeof slot === "bigint") {
      writeUint256(this.slotScratchView, 0, slot, false);
      slot32 = this.slotScratch;
    } else {
      slot32 = slot;
    }
    this.writeAddress(address);
    if (isHeaderSlotBytes(slot32)) {
      this.writeSmallTreeIndex(0);
      return this.finishKey(HEADER_STORAGE_OFFSET + (slot32[31] ?? 0));
    }
    // tree index = 2^240 + (slot >> 8) as 32 big-endian bytes B, built straight from the slot:
    // B[0] = carry out of slot[0] + 1, B[1] = (slot[0] + 1) mod 256, B[2..31] = slot[1..30].
    const top = slot32[0] ?? 0;
    this.writeTreeIndexByte(0, top === 0xff ? 1 : 0);
    this.writeTreeIndexByte(1, (top + 1) & 0xff);
    for (let i = 2; i < 32; i++) this.writeTreeIndexByte(i, slot32[i - 1] ?? 0);
    return this.finishKey(slot32[31] ?? 0);
  }

  /** Key of code chunk `chunkIndex`: position 128 + i. */
  codeChunkKey(address: BytesLike, chunkIndex: number | bigint): Uint8Array {
    assertChunkIndex(chunkIndex);
    this.writeAddress(address);
    if (typeof chunkIndex === "number" && chunkIndex <= Number.MAX_SAFE_INTEGER - CODE_OFFSET) {
      const position = CODE_OFFSET + chunkIndex;
      this.writeSmallTreeIndex(Math.floor(position / STEM_SUBTREE_WIDTH));
      return this.finishKey(position % STEM_SUBTREE_WIDTH);
    }
    const position = BigInt(CODE_OFFSET) + BigInt(chunkIndex);
    this.writeTreeIndex(position >> 8n);
    return this.finishKey(Number(position & 0xffn));
  }

  /** Hashes the preimage and returns stem || subIndex in a new 32-byte array. */
  private finishKey(subIndex: number): Uint8Array {
    const key = new Uint8Array(KEY_SIZE);
    this.hasher.hash64Batch(this.preimage, 0, 1, key, 0);
    key[STEM_SIZE] = subIndex;
    return key;
  }

  /**
   * Accepts a 20-byte address, or a 32-byte one already padded with 12 zero bytes, as bytes or
   * as their hex (`0x` optional).
   */
  private writeAddress(input: BytesLike): void {
    const address = typeof input === "string" ? hexToBytes(input, "address") : input;
    if (!(address instanceof Uint8Array)) {
      throw new KeyDerivationError(
        "INVALID_ADDRESS",
        `address must be a Uint8Array or a hex string, got ${describeNonBytes(address)}`,
      );
    }
    if (address.length === 20) {
      this.preimage.set(address, ADDRESS_AT);
      return;
    }
    if (address.length === 32) {
      for (let i = 0; i < ADDRESS_AT; i++) {
        if (address[i] !== 0) {
          throw new KeyDerivationError(
            "INVALID_ADDRESS",
            `32-byte address must start with 12 zero bytes, byte ${i} is ${address[i]}`,
          );
        }
      }
      for (let i = ADDRESS_AT; i < 32; i++) this.preimage[i] = address[i] ?? 0;
      return;
    }
    throw new KeyDerivationError(
      "INVALID_ADDRESS",
      `address must be 20 bytes (or 32 bytes with 12 leading zeros), got ${address.length} bytes`,
    );
  }

  private writeTreeIndex(treeIndex: bigint): void {
    if (!isUint256(treeIndex)) {
      throw new KeyDerivationError(
        "INVALID_TREE_INDEX",
        `tree index must be a bigint in 0..2^256-1, got ${describeValue(treeIndex)}`,
      );
    }
    writeUint256(this.preimageView, TREE_INDEX_AT, treeIndex, !this.bigEndian);
  }

  /** Fast path for tree indices below 2^53 (account stem, code chunks): no bigint work. */
  private writeSmallTreeIndex(treeIndex: number): void {
    const high = Math.floor(treeIndex / 0x1_0000_0000);
    const low = treeIndex >>> 0;
    const view = this.preimageView;
    if (this.bigEndian) {
      this.preimage.fill(0, TREE_INDEX_AT, TREE_INDEX_AT + 24);
      view.setUint32(TREE_INDEX_AT + 24, high);
      view.setUint32(TREE_INDEX_AT + 28, low);
    } else {
      view.setUint32(TREE_INDEX_AT, low, true);
      view.setUint32(TREE_INDEX_AT + 4, high, true);
      this.preimage.fill(0, TREE_INDEX_AT + 8, PREIMAGE_SIZE);
    }
  }

  /** Writes byte `i` of the big-endian tree index, mirrored for little-endian schemes. */
  private writeTreeIndexByte(i: number, value: number): void {
    this.preimage[this.bigEndian ? TREE_INDEX_AT + i : PREIMAGE_SIZE - 1 - i] = value;
  }
}

/** describeValue, with the type in front of a number, bigint or boolean ("number 7"). */
function describeNonBytes(x: unknown): string {
  const type = typeof x;
  return type === "number" || type === "bigint" || type === "boolean"
    ? `${type} ${describeValue(x)}`
    : describeValue(x);
}

function assertSubIndex(subIndex: number): void {
  if (!Number.isInteger(subIndex) || subIndex < 0 || subIndex > 255) {
    throw new KeyDerivationError(
      "INVALID_SUB_INDEX",
      `sub index ${describeValue(subIndex)} is not an integer in 0..255`,
    );
  }
}

const sharedDerivers = new Map<KeyScheme, KeyDeriver>();

/** Package-internal: the shared deriver of `scheme` (over the shared hasher), created on first use. */
export function sharedKeyDeriver(scheme: KeyScheme): KeyDeriver {
  let deriver = sharedDerivers.get(scheme);
  if (deriver === undefined) {
    deriver = new KeyDeriver(scheme);
    sharedDerivers.set(scheme, deriver);
  }
  return deriver;
}
