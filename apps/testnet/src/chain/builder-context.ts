import { type Block, createBlock, type HeaderData } from "@ethereumjs/block";
import type { VM } from "@ethereumjs/vm";
import { systemCallContextOf } from "./system-call-context.js";

/** What `buildBlock` returns, as far as this reads it. */
interface BlockBuilderLike {
  readonly headerData?: HeaderData;
}

/**
 * The block a `buildBlock` builder is building, as its system calls and opcodes see it: the
 * header the builder completed from its options and the parent (number, timestamp, coinbase,
 * base fee, excess blob gas…), without the roots it does not know yet. The VM's system calls,
 * the library's request queue calls at `build()` among them, run in it from here on (geth runs
 * them in the block's context; the library passes none).
 */
export function enterBuilderBlock(vm: VM, builder: object): Block {
  const headerData = (builder as BlockBuilderLike).headerData;
  const block = createBlock({ header: headerData }, { common: vm.common, setHardfork: true });
  systemCallContextOf(vm)?.setBlock(block);
  return block;
}
