import type { Block } from "@ethereumjs/block";
import type { StateManagerInterface } from "@ethereumjs/common";
import { Address, hexToBytes } from "@ethereumjs/util";
import type { VM } from "@ethereumjs/vm";
import { HISTORY_STORAGE_ADDRESS } from "../ubt/ubt-context.js";
import { systemCall } from "./system-call.js";

const HISTORY = new Address(hexToBytes(`0x${HISTORY_STORAGE_ADDRESS}`));

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

/**
 * Runs `build` (the library's block builder start) with the EIP-2935 contract's code hidden
 * from its direct slot write, which runs in every Prague block (geth's t8n calls the contract
 * only when the env gives block hashes) and throws for block 0 (a negative slot).
 */
export async function withoutDirectHistoryWrite<T>(
  state: StateManagerInterface,
  build: () => Promise<T>,
): Promise<T> {
  const getCode = state.getCode;
  state.getCode = async (address: Address) =>
    address.equals(HISTORY) ? new Uint8Array(0) : getCode.call(state, address);
  try {
    return await build();
  } finally {
    state.getCode = getCode;
  }
}
