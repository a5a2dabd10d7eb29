import type { Block } from "@ethereumjs/block";
import { Address, hexToBytes } from "@ethereumjs/util";
import type { VM } from "@ethereumjs/vm";
import { HISTORY_STORAGE_ADDRESS } from "../ubt/ubt-context.js";
import { systemCall } from "./system-call.js";

/** The EIP-2935 history contract's address. */
export const HISTORY = new Address(hexToBytes(`0x${HISTORY_STORAGE_ADDRESS}`));

/**
 * geth's `ProcessParentBlockHash` (core/state_processor.go): a system call from the system
 * address to the EIP-2935 contract with the parent hash as calldata, so the contract's own code
 * writes its ring-buffer slot ((number − 1) mod 8191 in 256 bits, also for block 0). Nothing
 * happens when the contract is absent. Returns the call's error (geth panics on one), if any.
 */
export async function callHistoryContract(
  vm: VM,
  block: Block,
  parentHash: Uint8Array,
): Promise<string | undefined> {
  return systemCall(vm, block, HISTORY, parentHash);
}
