import type { Block } from "@ethereumjs/block";
import type { VM } from "@ethereumjs/vm";
import { BEACON_ROOTS_ADDRESS, directWriteSlots } from "../../t8n/beacon-root-call.js";
import { addressKey, type UbtContext } from "../ubt-context.js";

const BEACON_ROOTS = addressKey(BEACON_ROOTS_ADDRESS.bytes);

/**
 * geth `ProcessBeaconBlockRoot` (core/state_processor.go), run for every block with a parent
 * beacon root: it adds the EIP-4788 contract to the access list and calls it, and the call's two
 * SSTOREs warm the ring-buffer slots they write. Under UBT nothing resets the access list, so
 * the contract (present or not) and, when it has code, both slots are warm for the block.
 * `@ethereumjs/vm` writes the slots directly, warming nothing: this warms what geth's call does.
 */
export async function warmBeaconRoots(vm: VM, ctx: UbtContext, block: Block): Promise<void> {
  if (!vm.common.isActivatedEIP(4788) || block.header.parentBeaconBlockRoot === undefined) return;
  ctx.warmForBlock(BEACON_ROOTS);
  if ((await vm.stateManager.getCode(BEACON_ROOTS_ADDRESS)).length === 0) return;
  for (const slot of directWriteSlots(vm, block.header.timestamp)) {
    ctx.warmForBlock(BEACON_ROOTS, slot);
  }
}
