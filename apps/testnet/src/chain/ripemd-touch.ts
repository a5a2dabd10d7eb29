import type { Account } from "@ethereumjs/util";
import { Address, hexToBytes } from "@ethereumjs/util";
import type { VM } from "@ethereumjs/vm";

const RIPEMD160 = "0000000000000000000000000000000000000003";
const RIPEMD160_ADDRESS = new Address(hexToBytes(`0x${RIPEMD160}`));

interface TouchJournal {
  touched: Set<string>;
  putAccount(address: Address, account: Account | undefined): Promise<void>;
  checkpoint(): Promise<void>;
  commit(): Promise<void>;
  revert(): Promise<void>;
  cleanup(): Promise<void>;
}

/**
 * Mainnet's old RIPEMD-160 (0x03) touch quirk as geth keeps it (core/state/journal.go
 * `touchChange`, `StateDB.Finalise`), on every network:
 * - only a *touch* survives a revert: a zero-value transfer to an empty 0x03 (a CALL or
 *   STATICCALL of it) keeps it in the transaction's dirty set for good; a transfer of value is
 *   an ordinary balance change and goes with its frame. ethereumjs keeps any touch of 0x03
 *   through a revert, so an empty 0x03 given value by a call that then failed was deleted here
 *   and kept by geth;
 * - `Finalise` deletes 0x03 only if its state object is still there: when the revert also
 *   rolled back the account the touch created, nothing is deleted (on the binary tree a deletion
 *   writes zero header leaves).
 */
export function installRipemdTouchRule(vm: VM): void {
  const journal = vm.evm.journal as unknown as TouchJournal;
  const state = vm.stateManager;
  /** Whether 0x03 was in the touched set at each open checkpoint. */
  const touchedAtCheckpoint: boolean[] = [];
  /** A zero-value touch of an empty 0x03 happened in this transaction (it outlives reverts). */
  let kept = false;
  const { putAccount, checkpoint, commit, revert, cleanup } = journal;
  journal.putAccount = async (address, account) => {
    if (!kept && account?.isEmpty() === true && address.equals(RIPEMD160_ADDRESS)) {
      const before = await state.getAccount(address);
      kept = before === undefined || before.isEmpty();
    }
    return putAccount.call(journal, address, account);
  };
  journal.checkpoint = async () => {
    touchedAtCheckpoint.push(journal.touched.has(RIPEMD160));
    return checkpoint.call(journal);
  };
  journal.commit = async () => {
    touchedAtCheckpoint.pop();
    return commit.call(journal);
  };
  journal.revert = async () => {
    const touchedBefore = touchedAtCheckpoint.pop() ?? true;
    await revert.call(journal);
    if (!touchedBefore && !kept) journal.touched.delete(RIPEMD160);
  };
  journal.cleanup = async () => {
    if (
      journal.touched.has(RIPEMD160) &&
      (await vm.stateManager.getAccount(RIPEMD160_ADDRESS)) === undefined
    ) {
      journal.touched.delete(RIPEMD160);
    }
    kept = false;
    touchedAtCheckpoint.length = 0;
    return cleanup.call(journal);
  };
}
