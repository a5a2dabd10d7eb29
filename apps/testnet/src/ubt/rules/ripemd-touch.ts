import { Address, hexToBytes } from "@ethereumjs/util";
import type { VM } from "@ethereumjs/vm";

const RIPEMD160 = "0000000000000000000000000000000000000003";
const RIPEMD160_ADDRESS = new Address(hexToBytes(`0x${RIPEMD160}`));

/**
 * geth keeps RIPEMD-160 (0x03) in a transaction's mutation set through a revert (mainnet's old
 * touch quirk, core/state/journal.go `ripemdMagic`), but `Finalise` deletes it only if its state
 * object is still there: when the revert also rolled back the account the touch created, nothing
 * is deleted. ethereumjs keeps 0x03 touched too, and its cleanup deletes every touched account
 * that is absent or empty; on the binary tree a deletion writes zero header leaves. So a touch of
 * 0x03 is dropped when, at the transaction's end, 0x03 does not exist.
 */
export function installRipemdTouchRule(vm: VM): void {
  const journal = vm.evm.journal as unknown as {
    touched: Set<string>;
    cleanup(): Promise<void>;
  };
  const cleanup = journal.cleanup.bind(journal);
  journal.cleanup = async () => {
    if (
      journal.touched.has(RIPEMD160) &&
      (await vm.stateManager.getAccount(RIPEMD160_ADDRESS)) === undefined
    ) {
      journal.touched.delete(RIPEMD160);
    }
    return cleanup();
  };
}
