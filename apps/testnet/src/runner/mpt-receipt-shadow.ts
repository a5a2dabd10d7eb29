import type { Block } from "@ethereumjs/block";
import { type Common, Hardfork } from "@ethereumjs/common";
import { MerkleStateManager } from "@ethereumjs/statemanager";
import type { VM } from "@ethereumjs/vm";
import { applyAlloc } from "../fixtures/alloc.js";
import type { FixtureAlloc } from "../fixtures/blockchain-test.js";
import {
  createExecutionVM,
  type ExecutionVMOptions,
  runBlockAsGeth,
} from "../ubt/create-ubt-vm.js";

/** What the MPT execution of a block computed. */
export interface MptBlockRoots {
  /** Receipts root: before Byzantium each receipt holds the MPT state root after its transaction. */
  readonly receiptsRoot: Uint8Array;
  /** MPT state root after the block. */
  readonly stateRoot: Uint8Array;
  /** Each receipt's root: the MPT state root after its transaction. */
  readonly receiptRoots: readonly Uint8Array[];
}

/**
 * Before Byzantium (EIP-658) a receipt carries the MPT state root after its transaction instead
 * of a status, so a block's receipts root depends on MPT state, which binary state has no
 * counterpart for. This runs the same blocks, with the same rules, on an MPT state
 * (@ethereumjs/statemanager's MerkleStateManager) beside the binary one: `run` checks a header's
 * receipts root and MPT state root against it, and t8n prints its receipts' roots. Used for
 * blocks before Byzantium, and by `run` on any fork for a fixture with a block expected to fail
 * (whose fault may be its MPT state root).
 */
export class MptReceiptShadow {
  readonly #vm: VM;
  /** The MPT root of the fixture's `pre`: the genesis header's state root. */
  readonly genesisRoot: Uint8Array;

  private constructor(vm: VM, genesisRoot: Uint8Array) {
    this.#vm = vm;
    this.genesisRoot = genesisRoot;
  }

  /** Whether a block of this fork has receipts with MPT roots (a fork before Byzantium). */
  static needed(common: Common): boolean {
    return !common.gteHardfork(Hardfork.Byzantium);
  }

  /**
   * Writes `pre` into a fresh MPT state and opens a VM on it over the chain's blockchain (or
   * t8n's stand-in serving the env's block hashes).
   */
  static async create(
    common: Common,
    pre: FixtureAlloc,
    blockchain: ExecutionVMOptions["blockchain"],
  ): Promise<MptReceiptShadow> {
    const shadowCommon = common.copy();
    const state = new MerkleStateManager({ common: shadowCommon });
    const { root } = await applyAlloc(state, pre);
    const { vm } = await createExecutionVM({
      common: shadowCommon,
      stateManager: state,
      blockchain,
    });
    return new MptReceiptShadow(vm, root);
  }

  /**
   * Runs `block` on the MPT state. With `keep` false (a block the fixture expects to fail) the
   * caller decides afterwards: `settle(true)` keeps its changes, `settle(false)` reverts them.
   * `validate` false skips the block's and header's checks (t8n's block has no real parent).
   */
  async run(
    block: Block,
    { keep = true, validate = true }: { keep?: boolean; validate?: boolean } = {},
  ): Promise<MptBlockRoots> {
    if (!keep) await this.#vm.evm.journal.checkpoint();
    const result = await runBlockAsGeth(this.#vm, undefined, {
      block,
      generate: true,
      setHardfork: true,
      ...(validate ? {} : { skipBlockValidation: true, skipHeaderValidation: true }),
    });
    return {
      receiptsRoot: result.receiptsRoot,
      stateRoot: result.stateRoot,
      // Every receipt before Byzantium has one (run only there).
      receiptRoots: result.receipts.map((r) => ("stateRoot" in r ? r.stateRoot : new Uint8Array())),
    };
  }

  /** Ends a `run(block, false)`: keeps its changes or reverts them. */
  async settle(kept: boolean): Promise<void> {
    if (kept) await this.#vm.evm.journal.commit();
    else await this.#vm.evm.journal.revert();
  }
}
