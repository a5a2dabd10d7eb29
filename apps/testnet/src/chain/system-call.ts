import type { Block } from "@ethereumjs/block";
import { Address, hexToBytes } from "@ethereumjs/util";
import type { VM } from "@ethereumjs/vm";
import { SYSTEM_ADDRESS } from "../state/system-address.js";

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
  return error === undefined ? undefined : gethCallError(error, failedOpcode(result.execResult));
}

/** The opcode a failed call stopped at, where the library's result says. */
export function failedOpcode(execResult: { readonly runState?: unknown }): number | undefined {
  const opcode = (execResult.runState as { opCode?: unknown } | undefined)?.opCode;
  return typeof opcode === "number" ? opcode : undefined;
}

/**
 * A failed call's error as geth words it (core/vm/errors.go), where the library's differs:
 * "revert", "invalid JUMP at <location>" and, at 0xfe, "invalid opcode". Others pass as they are.
 */
export function gethCallError(error: string, opcode?: number): string {
  if (error === "revert") return "execution reverted";
  if (error.startsWith("invalid JUMP")) return "invalid jump destination";
  if (error === "invalid opcode" && opcode === 0xfe) return "invalid opcode: INVALID";
  return error;
}
