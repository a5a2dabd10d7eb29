import type { TypedTransaction } from "@ethereumjs/tx";
import { bytesToUnprefixedHex } from "@ethereumjs/util";
import type { VM } from "@ethereumjs/vm";
import { authorizationsOf, recoverAuthority } from "../../chain/authorization-authority.js";
import { addressKey } from "../ubt-context.js";
import type { UbtRunState, WarmJournal } from "./run-state.js";

/** The UBT warm model's handle: a block's start, and what geth warms for the whole block. */
export interface UbtWarmSet {
  /** Starts a block: nothing is warm. */
  resetWarmSet(): void;
  /**
   * Warms an address (unprefixed lowercase hex), and a slot of it (32 bytes), until the block
   * ends, whatever reverts meanwhile: what geth's access list gets outside any snapshot.
   */
  warmForBlock(address: string, slot?: Uint8Array): void;
}

/**
 * geth's warm model under UBT (params/config.go `Rules`: `IsEIP2929 = IsBerlin && !isUBT`;
 * core/state/statedb.go `Prepare` builds the access list only when `IsEIP2929`). Nothing is
 * pre-warmed — not the origin, the destination, the precompiles, the coinbase or a 2930 access
 * list; only the system calls' contracts, which geth adds before calling them — and the access
 * list is never reset between transactions: it lives as long as the block's StateDB. Where an
 * instruction table still reads it (Osaka's, on `Binary`), the first touch in the block is cold.
 * `Verkle`'s EIP-4762 opcodes never read it.
 *
 * Two EIP-7702 warm-ups geth makes outside `Prepare` do happen, before the transaction's call
 * and so surviving its failure: each authority whose authorization passes the chain id, nonce
 * and signature checks (`validateAuthorization`, even if its nonce or code then rule it out),
 * and the delegation target of a delegated destination (`execute`). ethereumjs makes both with
 * `addAlwaysWarmAddress`, like the pre-warm geth does not make (the access list's entries among
 * it): the authorities are told apart by recovering them as the library does, the target by
 * coming once the transaction's call has begun.
 *
 * A created contract's address is not warmed either (geth `EVM.create` adds it only when
 * `IsEIP2929`): ethereumjs' `runCall` warms it right after its `beforeMessage` event, and that one
 * warm-up is skipped.
 *
 * Installed as hooks on the VM's journal instance (ethereumjs' `addAlwaysWarm*` pre-warm,
 * `addWarmedAddress` for the created address, the `cleanJournal` reset).
 */
export function installUbtWarmModel(vm: VM): UbtWarmSet {
  const journal = vm.evm.journal as unknown as WarmJournal & {
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
  // The current transaction's authorities geth warms, and whether its call has begun.
  let authorities: ReadonlySet<string> = new Set();
  let inCall = false;
  vm.events.on("beforeTx", (tx: TypedTransaction, resolve?: (r?: unknown) => void) => {
    authorities = warmedAuthorities(tx, vm.common.chainId());
    inCall = false;
    resolve?.();
  });
  vm.events.on("afterTx", (_event: unknown, resolve?: (r?: unknown) => void) => {
    authorities = new Set();
    inCall = false;
    resolve?.();
  });
  vm.evm.events?.on("beforeMessage", (message: { to?: unknown }, resolve?: () => void) => {
    skipCreatedAddress = message.to === undefined;
    inCall = true;
    resolve?.();
  });
  const clean = journal.cleanJournal.bind(journal);
  let keep = true;
  journal.cleanJournal = () => {
    const warm = journal.journal;
    clean();
    if (keep && warm !== undefined) journal.journal = warm;
  };
  // Outside the journal's diffs: no revert takes it back, and cleanJournal keeps the map.
  const warmForBlock = (address: string, slot?: Uint8Array) => {
    let slots = journal.journal.get(address);
    if (slots === undefined) {
      slots = new Set();
      journal.journal.set(address, slots);
    }
    if (slot !== undefined) slots.add(bytesToUnprefixedHex(slot));
  };
  journal.addAlwaysWarmAddress = (address, accessList) => {
    // An EIP-2930 access list entry (the library's only call that reports it, made before
    // `beforeTx`): never warm under UBT.
    if (accessList === true) return;
    const key = address.replace(/^0x/, "").toLowerCase();
    // In a call: the delegation target of a delegated destination (evm _loadCode, depth 0).
    if (inCall || authorities.has(key)) warmForBlock(key);
  };
  journal.addAlwaysWarmSlot = () => {};
  return {
    resetWarmSet() {
      keep = false;
      journal.cleanJournal();
      keep = true;
    },
    warmForBlock,
  };
}

/**
 * The authorities of a set-code transaction's authorizations that pass geth's checks up to the
 * recovery (see recoverAuthority): the ones it warms.
 */
function warmedAuthorities(tx: TypedTransaction, chainId: bigint): ReadonlySet<string> {
  const found = new Set<string>();
  for (const data of authorizationsOf(tx)) {
    const authority = recoverAuthority(data, chainId);
    if (authority !== undefined) found.add(addressKey(authority));
  }
  return found;
}

/**
 * Runs a CREATE or CREATE2 gas handler of the library without the warm-up it makes of the
 * creating contract's own address (EIP-2929 `accessAddressEIP2929` on `getAddress()`: harmless
 * where the transaction pre-warms its destination). geth's create gas touches no access list,
 * and under UBT nothing pre-warms, so that address stays as cold as it was (a later BALANCE of
 * it by another contract pays 2,600).
 */
export async function withoutSelfWarm(
  runState: UbtRunState,
  charge: () => Promise<bigint>,
): Promise<bigint> {
  const journal = runState.interpreter.journal;
  const self = runState.interpreter.getAddress().bytes;
  const wasWarm = journal.isWarmedAddress(self);
  const gas = await charge();
  if (!wasWarm) {
    const key = bytesToUnprefixedHex(self);
    journal.journal.delete(key);
    journal.journalDiff[journal.journalDiff.length - 1]![1][0].delete(key);
  }
  return gas;
}
