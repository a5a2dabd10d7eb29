import { type Block, createBlock, type HeaderData } from "@ethereumjs/block";
import { type BlockBuilder, type BuildBlockOpts, buildBlock, type VM } from "@ethereumjs/vm";
import type { UbtContext } from "../ubt/ubt-context.js";
import { startBlockAsGeth } from "./block-start-calls.js";
import { withoutDirectSystemWrites } from "./direct-system-writes.js";
import { systemCallContextOf } from "./system-call-context.js";
import {
  type PaidWithdrawal,
  paysWithdrawalsAfterRequests,
  payWithdrawals,
  withWithdrawalsAfterRequests,
} from "./withdrawal-payment.js";

/** A block `openBlockAsGeth` opened: the library's builder and the block as its calls see it. */
export interface OpenedBlock {
  readonly builder: BlockBuilder;
  /**
   * The header the builder completed from its options and the parent (number, timestamp,
   * coinbase, base fee, excess blob gas…), without the roots it does not know yet.
   */
  readonly context: Block;
}

/**
 * `buildBlock` as geth's block processing starts a block (the fill and the devnet build their
 * chains with it): the library's direct writes of the EIP-4788 and EIP-2935 slots are off, and
 * the block starts as block import starts one (`startBlockAsGeth`: the system calls' context,
 * the queue contracts' check, whose failure `sealBlockAsGeth` returns, the contract calls).
 */
export async function openBlockAsGeth(
  vm: VM,
  ubt: UbtContext | undefined,
  opts: BuildBlockOpts,
): Promise<OpenedBlock> {
  const builder = await withoutDirectSystemWrites(vm, () => buildBlock(vm, opts));
  // Paid by sealBlockAsGeth, in geth's import order.
  (builder as unknown as { processWithdrawals(): Promise<void> }).processWithdrawals =
    async () => {};
  const headerData = (builder as unknown as { readonly headerData: HeaderData }).headerData;
  const context = createBlock({ header: headerData }, { common: vm.common, setHardfork: true });
  await startBlockAsGeth(vm, ubt, context);
  return { builder, context };
}

/**
 * Seals a block `openBlockAsGeth` opened, paying its withdrawals as geth's import does: from
 * Prague on after the request queue calls, before them otherwise (the order cannot be seen
 * then), every one touching its account (the library's builder skips zero amounts). `refusal`:
 * geth's reason to refuse the block, in its words (a request queue contract without code, or
 * whose call failed: its PostExecution fails).
 */
export async function sealBlockAsGeth(
  vm: VM,
  builder: BlockBuilder,
): Promise<{ block: Block; refusal: string | undefined }> {
  const withdrawals = (builder as unknown as { readonly withdrawals?: PaidWithdrawal[] })
    .withdrawals;
  const build = async () => (await builder.build()).block;
  let block: Block;
  if (paysWithdrawalsAfterRequests(vm, withdrawals)) {
    block = await withWithdrawalsAfterRequests(vm, withdrawals!, build);
  } else {
    await payWithdrawals(vm, withdrawals ?? []);
    block = await build();
  }
  return { block, refusal: systemCallContextOf(vm)?.takeQueueFailure() };
}
