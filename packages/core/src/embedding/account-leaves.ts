import { describeValue } from "@bintrie/codec";
import { isZero } from "../bytes/is-zero.js";
import type { Account } from "../tree/account.js";
import { unpackBasicData } from "./basic-data.js";
import { EMPTY_CODE_HASH } from "./code-hash.js";
import { BasicDataError } from "./errors.js";

/**
 * The account an account stem's two header leaves hold, with go-ethereum's rule that both
 * leaves zero is a deleted (absent) account; a missing CODE_HASH leaf reads as the empty code
 * hash. The caller decides what a missing BASIC_DATA leaf means (absent, or another layer).
 * A leaf that is not 32 bytes (or not a Uint8Array) is BasicDataError('INVALID_LENGTH').
 *
 * @example
 * ```ts
 * import { accountFromLeaves, packBasicData } from "@bintrie/core/embedding";
 *
 * const basic = packBasicData({ nonce: 1n, balance: 10n, codeSize: 0 });
 * accountFromLeaves(basic, undefined)?.nonce; // 1n
 * accountFromLeaves(new Uint8Array(32), new Uint8Array(32)); // undefined (deleted)
 * ```
 */
export function accountFromLeaves(
  basicData: Uint8Array,
  codeHash: Uint8Array | undefined,
): Account | undefined {
  if (!(basicData instanceof Uint8Array) || basicData.length !== 32) {
    throw new BasicDataError(
      "INVALID_LENGTH",
      `BASIC_DATA leaf must be 32 bytes, got ${describeValue(basicData)}`,
    );
  }
  if (codeHash !== undefined && (!(codeHash instanceof Uint8Array) || codeHash.length !== 32)) {
    throw new BasicDataError(
      "INVALID_LENGTH",
      `CODE_HASH leaf must be 32 bytes or undefined, got ${describeValue(codeHash)}`,
    );
  }
  if (isZero(basicData) && codeHash !== undefined && isZero(codeHash)) return undefined;
  const { nonce, balance, codeSize } = unpackBasicData(basicData);
  return { nonce, balance, codeSize, codeHash: codeHash ?? EMPTY_CODE_HASH.slice() };
}
