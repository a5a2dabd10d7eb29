import {
  BIGINT_0,
  BIGINT_1,
  bytesToBigInt,
  type EOACode7702AuthorizationListBytesItem,
  eoaCode7702RecoverAuthority,
  MAX_UINT64,
  SECP256K1_ORDER_DIV_2,
} from "@ethereumjs/util";

/** One EIP-7702 authorization tuple as a set-code transaction holds it. */
export type Authorization = EOACode7702AuthorizationListBytesItem;

const DELEGATION_PREFIX = [0xef, 0x01, 0x00];

/** EIP-7702's delegation designator: 0xef0100 and a 20-byte address (geth's ParseDelegation). */
export function isDelegation(code: Uint8Array): boolean {
  return code.length === 23 && DELEGATION_PREFIX.every((byte, i) => code[i] === byte);
}

/** A transaction's authorization list, if it is a set-code transaction. */
export function authorizationsOf(tx: object): readonly Authorization[] {
  return (tx as { authorizationList?: Authorization[] }).authorizationList ?? [];
}

/**
 * The authority of an authorization that passes geth's `validateAuthorization` checks up to
 * the recovery (chain id 0 or `chainId`, a nonce below 2^64 − 1, s in the lower half, y parity
 * 0 or 1, a recoverable signature); undefined for one geth skips before it reads the authority.
 */
export function recoverAuthority(data: Authorization, chainId: bigint): Uint8Array | undefined {
  const authChainId = bytesToBigInt(data[0]);
  if (authChainId !== BIGINT_0 && authChainId !== chainId) return undefined;
  if (bytesToBigInt(data[2]) >= MAX_UINT64) return undefined;
  if (bytesToBigInt(data[5]) > SECP256K1_ORDER_DIV_2 || bytesToBigInt(data[3]) > BIGINT_1) {
    return undefined;
  }
  try {
    return eoaCode7702RecoverAuthority(data).bytes;
  } catch {
    // Not recoverable: geth skips it.
    return undefined;
  }
}
