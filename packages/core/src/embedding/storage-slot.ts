import { describeValue } from "@bintrie/codec";
import { HEADER_STORAGE_OFFSET, MAIN_STORAGE_OFFSET } from "./constants.js";
import { KeyDerivationError } from "./errors.js";
import type { TreeLocation } from "./tree-location.js";
import { isUint256, readUint256BigEndian, writeUint256 } from "./uint256.js";

/** A storage slot: a uint256, or its 32-byte big-endian encoding (exactly 32 bytes, like geth). */
export type StorageSlot = Uint8Array | bigint;

/**
 * A slot as the account-level API takes it: a {@link StorageSlot}, or a `0x` hex quantity of at
 * most 64 digits (`"0x0"`, `"0x01"`, a 32-byte keccak hash), as viem and JSON-RPC write slots.
 */
export type StorageSlotLike = StorageSlot | string;

const SLOT_HEX = /^0x[0-9a-fA-F]{1,64}$/;

/**
 * `slot` as a {@link StorageSlot}: a hex string becomes its bigint; bytes and bigints pass
 * through (their range and length are checked where they are used). A malformed string, or a
 * value that is none of the three, is a KeyDerivationError('INVALID_SLOT') naming it.
 *
 * @example
 * ```ts
 * import { toStorageSlot } from "@bintrie/core/embedding";
 *
 * toStorageSlot("0x2a"); // 42n
 * ```
 */
export function toStorageSlot(slot: StorageSlotLike): StorageSlot {
  if (typeof slot !== "string") {
    if (typeof slot !== "bigint" && !(slot instanceof Uint8Array)) {
      throw new KeyDerivationError(
        "INVALID_SLOT",
        `storage slot must be a bigint, 32 bytes or a 0x hex quantity, got ${describeValue(slot)}`,
      );
    }
    return slot;
  }
  if (!SLOT_HEX.test(slot)) {
    throw new KeyDerivationError(
      "INVALID_SLOT",
      `storage slot ${describeValue(slot)} is not a 0x hex quantity of at most 64 digits`,
    );
  }
  return BigInt(slot);
}

/** Throws a KeyDerivationError naming the slot unless it is a uint256 or exactly 32 bytes. */
export function assertStorageSlot(slot: StorageSlot): void {
  if (typeof slot === "bigint") {
    if (!isUint256(slot)) {
      throw new KeyDerivationError("INVALID_SLOT", `storage slot ${slot} is outside 0..2^256-1`);
    }
  } else if (!(slot instanceof Uint8Array) || slot.length !== 32) {
    throw new KeyDerivationError(
      "INVALID_SLOT",
      `storage slot must be a uint256 bigint or exactly 32 bytes, got ${describeValue(slot)}`,
    );
  }
}

/**
 * The 32-byte big-endian encoding of a slot number (into `out` if given).
 *
 * @example
 * ```ts
 * import { storageSlotToBytes } from "@bintrie/core/embedding";
 *
 * storageSlotToBytes(1n)[31]; // 1: 32 big-endian bytes
 * ```
 */
export function storageSlotToBytes(slot: bigint, out: Uint8Array = new Uint8Array(32)): Uint8Array {
  if (typeof slot !== "bigint") {
    throw new KeyDerivationError(
      "INVALID_SLOT",
      `storage slot must be a uint256 bigint, got ${describeValue(slot)}`,
    );
  }
  assertStorageSlot(slot);
  if (!(out instanceof Uint8Array) || out.length !== 32) {
    throw new KeyDerivationError(
      "INVALID_SLOT",
      `slot output buffer must be 32 bytes, got ${describeValue(out)}`,
    );
  }
  writeUint256(new DataView(out.buffer, out.byteOffset, 32), 0, slot, false);
  return out;
}

/** Whether a 32-byte big-endian slot is a header slot (0..63, stored on the account stem). */
export function isHeaderSlotBytes(slot32: Uint8Array): boolean {
  for (let i = 0; i < 31; i++) if (slot32[i] !== 0) return false;
  return (slot32[31] ?? 0) < HEADER_STORAGE_OFFSET;
}

/**
 * Whether a slot is a header slot (0..63): those live at subindex 64 + slot of the account stem.
 *
 * @example
 * ```ts
 * import { isHeaderStorageSlot } from "@bintrie/core/embedding";
 *
 * isHeaderStorageSlot(63n); // true: slots 0..63 live on the account stem
 * isHeaderStorageSlot(64n); // false
 * ```
 */
export function isHeaderStorageSlot(slot: StorageSlot): boolean {
  assertStorageSlot(slot);
  return typeof slot === "bigint" ? slot < BigInt(HEADER_STORAGE_OFFSET) : isHeaderSlotBytes(slot);
}

/**
 * Where a slot lives: slots 0..63 at position 64 + slot, every other slot at 2^248 + slot (which
 * may exceed 2^256; the tree index still fits in 32 bytes, with bit 248 as geth's overflow byte).
 *
 * @example
 * ```ts
 * import { storageSlotLocation } from "@bintrie/core/embedding";
 *
 * storageSlotLocation(5n); // { treeIndex: 0n, subIndex: 69 }
 * ```
 */
export function storageSlotLocation(slot: StorageSlot): TreeLocation {
  assertStorageSlot(slot);
  const value = typeof slot === "bigint" ? slot : readUint256BigEndian(slot, 0);
  const position =
    value < BigInt(HEADER_STORAGE_OFFSET)
      ? BigInt(HEADER_STORAGE_OFFSET) + value
      : MAIN_STORAGE_OFFSET + value;
  return { treeIndex: position >> 8n, subIndex: Number(position & 0xffn) };
}
