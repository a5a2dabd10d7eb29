import { Account, type Address } from "@ethereumjs/util";
import type { VM } from "@ethereumjs/vm";

/** A withdrawal as the library's blocks and builders hold one (amount in Gwei). */
export interface PaidWithdrawal {
  readonly address: Address;
  readonly amount: bigint;
}

const GWEI = 1_000_000_000n;

/**
 * Whether a block of the VM's fork pays its withdrawals in geth's import order, after the
 * request queue calls (core/state_processor.go: `PostExecution`, then the engine's `Finalize`).
 * The library pays them before (runBlock's applyBlock, BlockBuilder.build), as geth's t8n does;
 * only forks with EIP-7685 requests can tell the two apart.
 */
export function paysWithdrawalsAfterRequests(
  vm: VM,
  withdrawals: readonly unknown[] | undefined,
): boolean {
  return vm.common.isActivatedEIP(7685) && withdrawals !== undefined && withdrawals.length > 0;
}

/**
 * Runs `run` (a `runBlock` or a builder's `build()` whose own withdrawal payment is off) and
 * pays `withdrawals` when the block's state root is first asked for: after the request queue
 * calls, before the root. Each is paid as the library pays it (every one touches its account,
 * a zero one too; EIP-158 then deletes the touched empty ones).
 */
export async function withWithdrawalsAfterRequests<T>(
  vm: VM,
  withdrawals: readonly PaidWithdrawal[],
  run: () => Promise<T>,
): Promise<T> {
  const state = vm.stateManager;
  const getStateRoot = state.getStateRoot;
  let paid = false;
  state.getStateRoot = async () => {
    if (!paid) {
      paid = true;
      await payWithdrawals(vm, withdrawals);
    }
    return getStateRoot.call(state);
  };
  try {
    return await run();
  } finally {
    state.getStateRoot = getStateRoot;
  }
}

/**
 * Pays `withdrawals` as the library's block import pays them (geth's `AddBalance` each): every
 * one touches its account, a zero one too, and with EIP-158 the touched empty ones then go.
 */
export async function payWithdrawals(
  vm: VM,
  withdrawals: readonly PaidWithdrawal[],
): Promise<void> {
  await creditAccounts(
    vm,
    withdrawals.map(({ address, amount }) => ({ address, wei: amount * GWEI })),
  );
}

/**
 * geth's `StateDB.AddBalance` for each credit, then its `Finalise`: every credit touches its
 * account, 0 too; from EIP-158 (Spurious Dragon) on the touched empty accounts then go, before
 * it they stay (created, if absent). Withdrawals and t8n's block reward are paid this way.
 */
export async function creditAccounts(
  vm: VM,
  credits: readonly { readonly address: Address; readonly wei: bigint }[],
): Promise<void> {
  if (credits.length === 0) return;
  for (const { address, wei } of credits) {
    const account = (await vm.stateManager.getAccount(address)) ?? new Account();
    account.balance += wei;
    await vm.evm.journal.putAccount(address, account);
  }
  await vm.evm.journal.cleanup();
}
