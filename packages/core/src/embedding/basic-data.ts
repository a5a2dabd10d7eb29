import { describeValue } from "@bintrie/codec";
import {
  BASIC_DATA_BALANCE_OFFSET,
  BASIC_DATA_CODE_SIZE_OFFSET,
  BASIC_DATA_NONCE_OFFSET,
  BASIC_DATA_VERSION_OFFSET,
} from "./constants.js";
import { BasicDataError } from "./errors.js";
import { isUint256 } from "./uint256.js";

/** The decoded BASIC_DATA leaf of an account. */
export interface BasicData {
  /** Byte 0; always 0 today. */
  readonly version: number;
  /** uint32 at bytes 4..7 (the EIP reserves byte 4 and uses 3 bytes; equal below 2^24). */
  readonly codeSize: number;
  /** uint64 at bytes 8..15. */
  readonly nonce: bigint;
  /** The 16 bytes at 16..31 (see {@link basicDataBalanceField} for balances over 16 bytes). */
  readonly balance: bigint;
}

/** Input of {@link packBasicData}; `version` defaults to 0. */
export interface BasicDataInput {
  readonly version?: number;
  readonly codeSize: number;
  readonly nonce: bigint;
  readonly balance: bigint;
}

const MAX_UINT64 = (1n << 64n) - 1n;
const MAX_UINT32 = 0xffff_ffff;
const BALANCE_FIELD_LIMIT = 1n << 128n;

/**
 * The balance geth stores in bytes 16..31 for `balance` (a uint256).
 *
 * geth's `UpdateAccount` takes the minimal big-endian bytes of the balance and, if there are
 * more than 16, keeps `bytes[16:]`: it drops the first 16 bytes of the *minimal* encoding and
 * right-aligns the rest. Only for a full 32-byte balance is that the low 128 bits; a 17..31-byte
 * balance keeps just its low (length - 16) bytes. Balances below 2^128 are stored as they are.
 * Copied for byte compatibility (unreachable on mainnet; geth devmode can hit it).
 *
 * @example
 * ```ts
 * import { basicDataBalanceField } from "@bintrie/core/embedding";
 *
 * basicDataBalanceField(1000n); // 1000n: balances below 2^128 are stored as they are
 * ```
 */
export function basicDataBalanceField(balance: bigint): bigint {
  if (!isUint256(balance)) {
    throw new BasicDataError(
      "INVALID_BALANCE",
      `balance must be a bigint in 0..2^256-1, got ${describeValue(balance)}`,
    );
  }
  if (balance < BALANCE_FIELD_LIMIT) return balance;
  let minimalLength = 16;
  while (balance >> BigInt(8 * minimalLength) > 0n) minimalLength++;
  return BigInt.asUintN(8 * (minimalLength - 16), balance);
}

/**
 * Packs an account header into its 32-byte BASIC_DATA value with geth's layout: version at
 * byte 0, code size as uint32 big-endian at 4..7, nonce uint64 at 8..15, balance right-aligned
 * at 16..31 (with geth's truncation of balances over 16 bytes, see {@link basicDataBalanceField}).
 *
 * @example
 * ```ts
 * import { packBasicData } from "@bintrie/core";
 *
 * const leaf = packBasicData({ nonce: 1n, balance: 10n, codeSize: 0 });
 * leaf[15]; // 1: the nonce's last byte
 * ```
 */
export function packBasicData(
  input: BasicDataInput,
  out: Uint8Array = new Uint8Array(32),
): Uint8Array {
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    throw new BasicDataError(
      "INVALID_ARGUMENT",
      `BASIC_DATA input must be an object { codeSize, nonce, balance, version? }, got ${describeValue(input)}`,
    );
  }
  const { version = 0, codeSize, nonce, balance } = input;
  if (!Number.isInteger(version) || version < 0 || version > 0xff) {
    throw new BasicDataError(
      "INVALID_VERSION",
      `version ${describeValue(version)} is not an integer in 0..255`,
    );
  }
  if (!Number.isInteger(codeSize) || codeSize < 0 || codeSize > MAX_UINT32) {
    throw new BasicDataError(
      "INVALID_CODE_SIZE",
      `code size ${describeValue(codeSize)} is not an integer in 0..2^32-1`,
    );
  }
  if (typeof nonce !== "bigint" || nonce < 0n || nonce > MAX_UINT64) {
    throw new BasicDataError(
      "INVALID_NONCE",
      `nonce must be a bigint in 0..2^64-1, got ${describeValue(nonce)}`,
    );
  }
  if (!isUint256(balance)) {
    throw new BasicDataError(
      "INVALID_BALANCE",
      `balance must be a bigint in 0..2^256-1, got ${describeValue(balance)}`,
    );
  }
  if (!(out instanceof Uint8Array) || out.length !== 32) {
    throw new BasicDataError(
      "INVALID_LENGTH",
      `BASIC_DATA output must be 32 bytes, got ${describeValue(out)}`,
    );
  }
  const field = basicDataBalanceField(balance);
  const view = new DataView(out.buffer, out.byteOffset, 32);
  view.setUint32(0, 0);
  view.setUint8(BASIC_DATA_VERSION_OFFSET, version);
  view.setUint32(BASIC_DATA_CODE_SIZE_OFFSET, codeSize);
  view.setBigUint64(BASIC_DATA_NONCE_OFFSET, nonce);
  view.setBigUint64(BASIC_DATA_BALANCE_OFFSET, field >> 64n);
  view.setBigUint64(BASIC_DATA_BALANCE_OFFSET + 8, BigInt.asUintN(64, field));
  return out;
}

/**
 * Reads a 32-byte BASIC_DATA value (inverse of {@link packBasicData} for stored fields).
 *
 * @example
 * ```ts
 * import { packBasicData, unpackBasicData } from "@bintrie/core";
 *
 * unpackBasicData(packBasicData({ nonce: 1n, balance: 10n, codeSize: 3 })).codeSize; // 3
 * ```
 */
export function unpackBasicData(value32: Uint8Array): BasicData {
  if (!(value32 instanceof Uint8Array) || value32.length !== 32) {
    throw new BasicDataError(
      "INVALID_LENGTH",
      `BASIC_DATA value must be 32 bytes, got ${describeValue(value32)}`,
    );
  }
  const view = new DataView(value32.buffer, value32.byteOffset, 32);
  return {
    version: view.getUint8(BASIC_DATA_VERSION_OFFSET),
    codeSize: view.getUint32(BASIC_DATA_CODE_SIZE_OFFSET),
    nonce: view.getBigUint64(BASIC_DATA_NONCE_OFFSET),
    balance:
      (view.getBigUint64(BASIC_DATA_BALANCE_OFFSET) << 64n) |
      view.getBigUint64(BASIC_DATA_BALANCE_OFFSET + 8),
  };
}
