import type { TypedTransaction } from "@ethereumjs/tx";
import { addressKey, type UbtContext } from "../ubt-context.js";

/**
 * geth `stateTransition.execute` (core/state_transition.go) under EIP-4762: a transaction starts
 * with fresh access events holding the origin (BASIC_DATA written, CODE_HASH read) and the
 * destination (BASIC_DATA written if it sends value, CODE_HASH written if it does not exist),
 * free — the 21000 covers them.
 */
export function beginTransaction(
  ctx: UbtContext,
  tx: TypedTransaction,
  destinationExists: boolean,
): void {
  const events = ctx.beginMessage();
  ctx.transaction = { gasLimit: tx.gasLimit, authorizations: tx.type === 4 };
  events.addTxOrigin(addressKey(tx.getSenderAddress().bytes));
  if (tx.to !== undefined) {
    events.addTxDestination(addressKey(tx.to.bytes), tx.value !== 0n, !destinationExists);
  }
}

/**
 * geth `stateTransition.execute`: after paying the fee, the coinbase's header leaves join the
 * witness (written) when the fee is not zero. It costs nothing: the transaction's gas is settled.
 */
export function touchCoinbaseAfterFee(ctx: UbtContext, fee: bigint): void {
  if (fee !== 0n && ctx.coinbase !== undefined) {
    ctx.events.addAccount(ctx.coinbase, true, (1n << 64n) - 1n);
  }
}
