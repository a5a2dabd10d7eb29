import type { Block } from "@ethereumjs/block";
import type { VM } from "@ethereumjs/vm";
import { processParentBlockHash } from "../ubt/rules/history-system-call.js";
import { addressKey, type UbtContext } from "../ubt/ubt-context.js";
import { BEACON_ROOTS_ADDRESS, callBeaconRootContract } from "./beacon-root-call.js";
import { callHistoryContract } from "./history-contract-call.js";
import { missingRequestContract } from "./request-system-calls.js";
import { systemCallContextOf } from "./system-call-context.js";

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

/**
 * A block's start as geth's block processing makes it (block import, and the fill and devnet
 * builders): every system call of the block, the library's request queue calls at its end among
 * them, runs in `block`'s context; a fork's request queue contract without code is noted as
 * geth's reason to refuse the block (it cannot gain or lose its code within a block, so it is
 * checked here); then the calls before the transactions (`callBlockStartContracts`).
 */
export async function startBlockAsGeth(
  vm: VM,
  ubt: UbtContext | undefined,
  block: Block,
): Promise<void> {
  const systemCalls = systemCallContextOf(vm);
  systemCalls?.setBlock(block);
  const missing = await missingRequestContract(vm);
  if (missing !== undefined) systemCalls?.failQueue(missing);
  ubt?.beginBlock(block.header.coinbase);
  await callBlockStartContracts(vm, ubt, block);
}
