import type { Address } from "@ethereumjs/util";
import { bytesToUnprefixedHex } from "@ethereumjs/util";
import { TestnetError } from "../chain/testnet-error.js";
import { addressesWithStorage } from "../fixtures/alloc.js";
import type { FixtureAlloc } from "../fixtures/blockchain-test.js";
import type { BinaryStateManager } from "../state/binary-state-manager.js";
import { SYSTEM_ADDRESS } from "../state/system-address.js";
import { T8N_EXIT_EVM } from "./t8n-exit-codes.js";

/**
 * The accounts the block deletes, as the state manager is asked to delete them (EIP-161's
 * cleanup of a touched empty account, a self-destruct), recorded from now on.
 */
export function recordDeletions(state: BinaryStateManager): Set<string> {
  const deleted = new Set<string>();
  const deleteAccount = state.deleteAccount.bind(state);
  state.deleteAccount = async (address: Address) => {
    deleted.add(bytesToUnprefixedHex(address.bytes));
    await deleteAccount(address);
  };
  return deleted;
}

/**
 * geth's state commit from Cancun on (MPT state; not UBT, whose accounts have no storage root)
 * refuses to destruct an account that held storage when the block began ("unexpected storage
 * wiping"): after EIP-6780 only an account made in the same transaction can be destroyed, and
 * one that could be is new. What reaches it is an alloc no chain can hold: an account with
 * storage but no nonce, balance or code, which EIP-161 deletes once touched (even when an
 * EIP-7702 authorization then brings it back). geth ends such a t8n with exit 2; so does this.
 * The system address is left out: geth's system calls never delete it, and the state manager
 * undoes the library's deletions of it.
 */
export function refuseStorageWiping(
  deleted: Set<string>,
  alloc: FixtureAlloc,
  source: string,
): void {
  if (deleted.size === 0) return;
  const holders = addressesWithStorage(alloc);
  for (const address of deleted) {
    if (address === SYSTEM_ADDRESS || !holders.has(address)) continue;
    throw new TestnetError(
      "INVALID_INPUT",
      `${source}: account 0x${address}: could not commit state: unexpected storage wiping, ${address} (it holds storage with no nonce, balance or code, and the block deleted it as an empty account; geth refuses to wipe storage from Cancun on)`,
      { file: source, gethExitCode: T8N_EXIT_EVM },
    );
  }
}
