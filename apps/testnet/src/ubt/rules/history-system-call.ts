import type { Block } from "@ethereumjs/block";
import type { VM } from "@ethereumjs/vm";
import { callHistoryContract } from "../../chain/history-contract-call.js";
import { HISTORY_STORAGE_ADDRESS, type UbtContext } from "../ubt-context.js";

/**
 * geth `ProcessParentBlockHash` as block import runs it for every block with
 * `IsPrague || IsUBT`: the EIP-2935 system call with the header's parent hash, which pays no
 * code chunks and has its own access events.
 *
 * geth's t8n runs it only when `IsPrague`, so a `Verkle` t8n skips it (see the t8n).
 */
export async function processParentBlockHash(vm: VM, ctx: UbtContext, block: Block): Promise<void> {
  ctx.beginMessage();
  // geth adds the contract to the access list before the call (and the slot its SSTORE writes
  // is warmed by the call): under UBT nothing resets them, so both are warm for the block.
  ctx.warmForBlock(HISTORY_STORAGE_ADDRESS);
  await callHistoryContract(vm, block, block.header.parentHash);
}
