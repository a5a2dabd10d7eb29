import type { Charge } from "../access-events.js";
import type { UbtContext } from "../ubt-context.js";

/**
 * geth `EVM.Call` (core/vm/evm.go) under EIP-4762: calling an account that does not exist
 * (not a precompile, not from the system address) writes its CODE_HASH leaf — the proof of
 * absence — paid from the callee's gas before anything else. BASIC_DATA was already paid by
 * the CALL (or the transaction). Returns the gas to take, or undefined when it does not fit.
 */
export function absentCalleeGas(
  ctx: UbtContext,
  callee: string,
  gasLimit: bigint,
): bigint | undefined {
  const wanted = ctx.events.codeHashGas(callee, true, gasLimit, false);
  return wanted > gasLimit ? undefined : wanted;
}

/**
 * geth `EVM.create` under EIP-4762: `ContractCreatePreCheckGas` (both header leaves of the new
 * address, read) before the collision check. Returns undefined on out of gas.
 */
export function createPreCheckGas(
  ctx: UbtContext,
  address: string,
  gasLimit: bigint,
): bigint | undefined {
  const wanted = ctx.events.contractCreatePreCheckGas(address, gasLimit);
  return wanted > gasLimit ? undefined : wanted;
}

/**
 * geth `EVM.create` under EIP-4762: `ContractCreateInitGas` (both header leaves written) once
 * the address is free. Returns undefined on out of gas.
 */
export function createInitGas(
  ctx: UbtContext,
  address: string,
  gasLimit: bigint,
): bigint | undefined {
  const { consumed, wanted }: Charge = ctx.events.contractCreateInitGas(address, gasLimit);
  return consumed < wanted ? undefined : wanted;
}

/**
 * geth `EVM.initNewContract` under EIP-4762: the deployed code pays a chunk write per 31 bytes
 * (`CodeChunksRangeGas(…, isWrite)`) instead of 200 gas per byte; too little gas is
 * `ErrCodeStoreOutOfGas` (the frame fails, all gas gone). Returns undefined on out of gas.
 */
export function codeDepositGas(
  ctx: UbtContext,
  address: string,
  code: Uint8Array,
  gasLeft: bigint,
): bigint | undefined {
  const length = BigInt(code.length);
  const { consumed, wanted } = ctx.events.codeChunksRangeGas(
    address,
    0n,
    length,
    length,
    true,
    gasLeft,
  );
  return code.length > 0 && consumed < wanted ? undefined : wanted;
}
