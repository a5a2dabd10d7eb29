import type { VM } from "@ethereumjs/vm";

/**
 * geth's warm model under UBT (params/config.go `Rules`: `IsEIP2929 = IsBerlin && !isUBT`;
 * core/state/statedb.go `Prepare` builds the access list only when `IsEIP2929`). Nothing is
 * pre-warmed — not the origin, the destination, the precompiles, the coinbase or a 2930 access
 * list — and the access list is never reset between transactions: it lives as long as the
 * block's StateDB. Where an instruction table still reads it (Osaka's, on `Binary`), the first
 * touch in the block is cold. `Verkle`'s EIP-4762 opcodes never read it.
 *
 * Installed as hooks on the VM's journal instance (ethereumjs' `addAlwaysWarm*` pre-warm and
 * `cleanJournal` reset). `resetWarmSet` starts a block.
 */
export function installUbtWarmModel(vm: VM): { resetWarmSet(): void } {
  const journal = vm.evm.journal as unknown as {
    journal: Map<string, Set<string>>;
    cleanJournal(): void;
    addAlwaysWarmAddress(address: string, report?: boolean): void;
    addAlwaysWarmSlot(address: string, slot: string, report?: boolean): void;
  };
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
    },
  };
}
