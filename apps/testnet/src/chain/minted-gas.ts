import { TestnetError, type TestnetErrorContext } from "./testnet-error.js";

/** Why a call can give back more gas than it was given on a UBT network. */
export const MINTED_GAS_CAUSE =
  "EIP-4762 charges a value call no transfer gas but still gives the callee its 2300 stipend";

/**
 * geth's gas pool panics ("gas used underflow") when a block's gas used goes below zero, which
 * gas minted by EIP-4762 value calls can make it: `where` names the point (t8n reads the pool at
 * the end of the block, the chain maker after each transaction).
 */
export function refuseNegativeBlockGas(
  builder: object,
  where: string,
  context: TestnetErrorContext = {},
): void {
  const { gasUsed } = builder as { gasUsed: bigint };
  if (gasUsed >= 0n) return;
  throw new TestnetError(
    "GAS_RETURNED_OVER_LIMIT",
    `${where}: the block's gas used is ${gasUsed}: its calls returned more gas than they were given (${MINTED_GAS_CAUSE}); geth panics here (gas used underflow)`,
    context,
  );
}
