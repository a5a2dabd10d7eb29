import type { Address } from "@ethereumjs/util";
import type { VM } from "@ethereumjs/vm";
import { BEACON_ROOTS_ADDRESS } from "./beacon-root-call.js";
import { HISTORY } from "./history-contract-call.js";

/**
 * Runs `run` (the library's `runBlock`, or `buildBlock`'s start) without the library's direct
 * writes of the EIP-4788 beacon root and the EIP-2935 parent hash, which stand in for geth's
 * system calls: they write the canonical contracts' slots whatever code the contracts have, and
 * the EIP-2935 one throws for block 0 (a negative slot). The caller makes the real calls
 * (block-start-calls.ts). The library reads each contract's code once, first thing, and writes
 * nothing when there is none: for each active EIP, that first read sees no code. Every later
 * read (a transaction's) sees the contract as it is.
 */
export async function withoutDirectSystemWrites<T>(vm: VM, run: () => Promise<T>): Promise<T> {
  const state = vm.stateManager;
  const hidden: Address[] = [];
  if (vm.common.isActivatedEIP(4788)) hidden.push(BEACON_ROOTS_ADDRESS);
  if (vm.common.isActivatedEIP(2935)) hidden.push(HISTORY);
  if (hidden.length === 0) return run();
  const getCode = state.getCode;
  state.getCode = async (address: Address) => {
    const at = hidden.findIndex((h) => h.equals(address));
    if (at < 0) return getCode.call(state, address);
    hidden.splice(at, 1);
    return new Uint8Array(0);
  };
  try {
    return await run();
  } finally {
    state.getCode = getCode;
  }
}
