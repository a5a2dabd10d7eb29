import type { Block } from "@ethereumjs/block";
import { Address, hexToBytes } from "@ethereumjs/util";
import type { VM } from "@ethereumjs/vm";
import { SYSTEM_ADDRESS } from "../ubt/ubt-context.js";

/** geth's gas for every system call (core/state_processor.go `systemCallGasBudget`). */
export const SYSTEM_CALL_GAS = 30_000_000n;
const SYSTEM = new Address(hexToBytes(`0x${SYSTEM_ADDRESS}`));

/**
 * A system call as geth makes one (core/state_processor.go `ProcessBeaconBlockRoot`,
 * `ProcessParentBlockHash`): from the system address, 30M gas, no value, in `block`'s context.
 * It leaves the system account alone: no nonce bump (a delegate-style message in ethereumjs
 * moves no value and touches no caller). Returns the call's error, in geth's words, if any.
 */
export async function systemCall(
  vm: VM,
  block: Block,
  to: Address,
  data: Uint8Array,
): Promise<string | undefined> {
  const result = await vm.evm.runCall({
    block,
    caller: SYSTEM,
    origin: SYSTEM,
    to,
    data,
    gasLimit: SYSTEM_CALL_GAS,
    skipNonceIncrement: true,
    delegatecall: true,
  } as never);
  const error = result.execResult.exceptionError?.error;
  return error === undefined ? undefined : gethCallError(error);
}

/** A failed call's error as geth words it (the library's "revert" is geth's "execution reverted"). */
export function gethCallError(error: string): string {
  return error === "revert" ? "execution reverted" : error;
}
