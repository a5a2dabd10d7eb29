import type { Block } from "@ethereumjs/block";
import type { VM } from "@ethereumjs/vm";
import { processParentBlockHash } from "../ubt/rules/history-system-call.js";
import { addressKey, type UbtContext } from "../ubt/ubt-context.js";
import { BEACON_ROOTS_ADDRESS, callBeaconRootContract } from "./beacon-root-call.js";
import { callHistoryContract } from "./history-contract-call.js";

const BEACON_ROOTS = addressKey(BEACON_ROOTS_ADDRESS.bytes);

/**
 * The system calls geth's block import makes before a block's transactions
 * (core/state_processor.go `Process`): `ProcessBeaconBlockRoot` when the block has a parent
 * beacon root (EIP-4788), then `ProcessParentBlockHash` (Prague, or every UBT block). The
 * contracts run their own code; the library's direct writes that stand in for these calls must
 * be off (`withoutDirectSystemWrites`). Under UBT geth adds the beacon contract to the access
 * list before its call and nothing resets that list within the block, so the contract (present
 * or not) and what its call touched are warm for the block; the history call's are likewise.
 */
export async function callBlockStartContracts(
  vm: VM,
  ubt: UbtContext | undefined,
  block: Block,
): Promise<void> {
  const root = block.header.parentBeaconBlockRoot;
  if (vm.common.isActivatedEIP(4788) && root !== undefined) {
    if (ubt !== undefined) {
      ubt.beginMessage();
      ubt.warmForBlock(BEACON_ROOTS);
    }
    await callBeaconRootContract(vm, block, root);
  }
  if (ubt !== undefined) await processParentBlockHash(vm, ubt, block);
  else if (vm.common.isActivatedEIP(2935)) {
    // geth panics when the call fails: nothing to match (the block is run on).
    await callHistoryContract(vm, block, block.header.parentHash);
  }
}
