import { hexToBytes } from "@ethereumjs/util";
import type { VM } from "@ethereumjs/vm";
import { HISTORY_STORAGE_ADDRESS } from "../ubt-context.js";

const HISTORY_STORAGE_BYTES = hexToBytes(`0x${HISTORY_STORAGE_ADDRESS}`);

/**
 * geth's warm model under UBT (params/config.go `Rules`: `IsEIP2929 = IsBerlin && !isUBT`;
 * core/state/statedb.go `Prepare` builds the access list only when `IsEIP2929`). Nothing is
 * pre-warmed — not the origin, the destination, the precompiles, the coinbase or a 2930 access
 * list; only the system calls' contracts, which geth adds before calling them — and the access
 * list is never reset between transactions: it lives as long as the block's StateDB. Where an instruction table still reads it (Osaka's, on `Binary`), the first
 * touch in the block is cold. `Verkle`'s EIP-4762 opcodes never read it.
 *
 * A created contract's address is not warmed either (geth `EVM.create` adds it only when
 * `IsEIP2929`): ethereumjs' `runCall` warms it right after its `beforeMessage` event, and that one
 * warm-up is skipped.
 *
 * Installed as hooks on the VM's journal instance (ethereumjs' `addAlwaysWarm*` pre-warm,
 * `addWarmedAddress` for the created address, the `cleanJournal` reset). `resetWarmSet` starts a
 * block.
 */
export function installUbtWarmModel(vm: VM): { resetWarmSet(): void } {
  const journal = vm.evm.journal as unknown as {
    journal: Map<string, Set<string>>;
    cleanJournal(): void;
    addAlwaysWarmAddress(address: string, report?: boolean): void;
    addAlwaysWarmSlot(address: string, slot: string, report?: boolean): void;
    addWarmedAddress(address: Uint8Array): void;
  };
  const warm = journal.addWarmedAddress.bind(journal);
  let skipCreatedAddress = false;
  journal.addWarmedAddress = (address) => {
    if (skipCreatedAddress) {
      skipCreatedAddress = false;
      return;
    }
    warm(address);
  };
  vm.evm.events?.on("beforeMessage", (message: { to?: unknown }, resolve?: () => void) => {
    skipCreatedAddress = message.to === undefined;
    resolve?.();
  });
  const clean = journal.cleanJournal.bind(journal);
  let keep = true;
  journal.cleanJournal = () => {
    const warm = journal.journal;
    clean();
    if (keep && warm !== undefined) journal.journal = warm;
  };
  journal.addAlwaysWarmAddress = () => {};
  journal.addAlwaysWarmSlot = () => {};
  return {
    resetWarmSet() {
      keep = false;
      journal.cleanJournal();
      keep = true;
      // geth's ProcessParentBlockHash adds the history contract to the access list before its
      // system call, in every UBT block (and t8n's from Prague on), and nothing resets it: warm
      // for the whole block. Only Osaka's table (Binary) reads it, where t8n runs the call too.
      warm(HISTORY_STORAGE_BYTES);
    },
  };
}
