import type { Block } from "@ethereumjs/block";
import { createAddressFromString } from "@ethereumjs/util";
import type { VM } from "@ethereumjs/vm";
import { systemCall } from "./system-call.js";

/** The EIP-4788 beacon roots contract's address (from the EIP). */
export const BEACON_ROOTS_ADDRESS = createAddressFromString(
  "0x000f3df6d732807ef1319fb7b8bb8522d0beac02",
);

/**
 * geth's `ProcessBeaconBlockRoot` (core/state_processor.go): a system call from the system
 * address to the EIP-4788 contract with the root as calldata, so the contract's own code decides
 * what it writes (the library writes two slots of the canonical ring buffer instead: see
 * direct-system-writes.ts). geth ignores the call's outcome; so does this.
 */
export async function callBeaconRootContract(
  vm: VM,
  block: Block,
  root: Uint8Array,
): Promise<void> {
  await systemCall(vm, block, BEACON_ROOTS_ADDRESS, root);
}
