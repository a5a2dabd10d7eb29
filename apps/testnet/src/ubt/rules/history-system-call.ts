import type { Block } from "@ethereumjs/block";
import { Address, hexToBytes } from "@ethereumjs/util";
import type { VM } from "@ethereumjs/vm";
import { HISTORY_STORAGE_ADDRESS, SYSTEM_ADDRESS, type UbtContext } from "../ubt-context.js";

const SYSTEM_CALL_GAS = 30_000_000n;
const HISTORY = new Address(hexToBytes(`0x${HISTORY_STORAGE_ADDRESS}`));
const SYSTEM = new Address(hexToBytes(`0x${SYSTEM_ADDRESS}`));

/**
 * geth `ProcessParentBlockHash` (core/state_processor.go), run by block import for every block
 * with `IsPrague || IsUBT`: a system call from the system address to the EIP-2935 contract with
 * the parent hash as calldata, so the contract's own code writes its ring-buffer slot. Nothing
 * happens when the contract is absent. A system call moves no value and bumps no nonce (a
 * delegate-style message in ethereumjs), pays no code chunks, and has its own access events.
 *
 * geth's t8n runs it only when `IsPrague`, so a `Verkle` t8n skips it (see the t8n).
 */
export async function processParentBlockHash(vm: VM, ctx: UbtContext, block: Block): Promise<void> {
  ctx.beginMessage();
  // geth adds the contract to the access list before the call (and the slot its SSTORE writes
  // is warmed by the call): under UBT nothing resets them, so both are warm for the block.
  ctx.warmForBlock(HISTORY_STORAGE_ADDRESS);
  await vm.evm.runCall({
    block,
    caller: SYSTEM,
    origin: SYSTEM,
    to: HISTORY,
    data: block.header.parentHash,
    gasLimit: SYSTEM_CALL_GAS,
    skipNonceIncrement: true,
    delegatecall: true,
  } as never);
}
