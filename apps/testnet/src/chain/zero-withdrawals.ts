import type { StateManagerInterface } from "@ethereumjs/common";
import { Account, createAddressFromString } from "@ethereumjs/util";

/** A withdrawal as `buildBlock` takes it (amount in Gwei). */
export interface WithdrawalInput {
  readonly address: `0x${string}`;
  readonly amount: bigint;
}

/**
 * geth's EIP-4895 step adds every withdrawal with `AddBalance`, so a zero amount still touches
 * its account and an empty one is deleted at the block's end (on UBT state that writes the
 * account's header leaves as zeros). ethereumjs's `buildBlock` skips zero amounts entirely
 * (its `runBlock` does not), so the block builders touch those accounts here, before
 * `build()` pays the others. An address that also gets a non-zero amount ends up non-empty:
 * geth's touch is then a no-op, so it is left to `build()`.
 */
export async function touchZeroWithdrawals(
  state: StateManagerInterface,
  withdrawals: readonly WithdrawalInput[] | undefined,
): Promise<void> {
  if (withdrawals === undefined) return;
  const paid = new Set(
    withdrawals.filter((w) => w.amount !== 0n).map((w) => w.address.toLowerCase()),
  );
  const touched = new Set<string>();
  for (const w of withdrawals) {
    const key = w.address.toLowerCase();
    if (w.amount !== 0n || paid.has(key) || touched.has(key)) continue;
    touched.add(key);
    const address = createAddressFromString(key);
    const account = (await state.getAccount(address)) ?? new Account();
    if (account.isEmpty()) await state.deleteAccount(address);
  }
}
