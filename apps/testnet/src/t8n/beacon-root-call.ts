import type { Block } from "@ethereumjs/block";
import { bigIntToBytes, createAddressFromString, setLengthLeft } from "@ethereumjs/util";
import type { VM } from "@ethereumjs/vm";
import { systemCall } from "../chain/system-call.js";

/** EIP-4788 constants (from the EIP). */
export const BEACON_ROOTS_ADDRESS = createAddressFromString(
  "0x000f3df6d732807ef1319fb7b8bb8522d0beac02",
);

/** The slots `@ethereumjs/vm` writes directly for a beacon root (ring buffer of 8191). */
export function directWriteSlots(vm: VM, timestamp: bigint): Uint8Array[] {
  const length = BigInt(vm.common.param("historicalRootsLength"));
  const index = timestamp % length;
  return [index, index + length].map((slot) => setLengthLeft(bigIntToBytes(slot), 32));
}

/**
 * EIP-4788 as the EIP and geth do it: call the beacon-roots contract from the system address
 * with the root as calldata, so the contract's own code decides which slots it writes.
 * `@ethereumjs/vm` instead writes two slots of the canonical contract's ring buffer directly;
 * `restore` puts those slots back to what they held before, then the real call runs.
 */
export async function replaceDirectBeaconRootWrite(
  vm: VM,
  block: Block,
  root: Uint8Array,
  restore: readonly { slot: Uint8Array; value: Uint8Array }[],
): Promise<void> {
  const state = vm.stateManager;
  for (const { slot, value } of restore) {
    await state.putStorage(BEACON_ROOTS_ADDRESS, slot, value);
  }
  // geth ignores the call's outcome.
  await systemCall(vm, block, BEACON_ROOTS_ADDRESS, root);
}
