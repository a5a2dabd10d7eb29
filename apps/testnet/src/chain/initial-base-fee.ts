/**
 * EIP-1559's INITIAL_BASE_FEE (geth's `params.InitialBaseFee`): the base fee of the London block
 * (its parent has none) and of a genesis that gives none.
 */
export const INITIAL_BASE_FEE = 1_000_000_000n;
