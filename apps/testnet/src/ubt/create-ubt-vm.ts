import { assertKnownOptions } from "@bintrie/codec";
import { type Block, createBlock, paramsBlock } from "@ethereumjs/block";
import type { Blockchain } from "@ethereumjs/blockchain";
import type { StateManagerInterface } from "@ethereumjs/common";
import type { EVMMockBlockchainInterface } from "@ethereumjs/evm";
import type { TypedTransaction } from "@ethereumjs/tx";
import {
  createVM,
  type RunBlockOpts,
  type RunBlockResult,
  runBlock,
  type VM,
} from "@ethereumjs/vm";
import { startBlockAsGeth } from "../chain/block-start-calls.js";
import { withoutDirectSystemWrites } from "../chain/direct-system-writes.js";
import { installRipemdTouchRule } from "../chain/ripemd-touch.js";
import { installSystemCallContext } from "../chain/system-call-context.js";
import { TestnetError } from "../chain/testnet-error.js";
import {
  paysWithdrawalsAfterRequests,
  withWithdrawalsAfterRequests,
} from "../chain/withdrawal-payment.js";
import { ubtPrecompiles } from "./rules/precompile-set.js";
import { beginTransaction, touchCoinbaseAfterFee } from "./rules/transaction-events.js";
import { installUbtWarmModel } from "./rules/warm-set.js";
import { isUbtCommon, type UbtCommon } from "./ubt-common.js";
import { UbtContext } from "./ubt-context.js";
import { UbtEVM } from "./ubt-evm.js";

export interface ExecutionVMOptions {
  readonly common: import("@ethereumjs/common").Common;
  readonly stateManager: StateManagerInterface;
  readonly blockchain?: Blockchain | EVMMockBlockchainInterface;
}

const EXECUTION_VM_OPTION_KEYS: readonly (keyof ExecutionVMOptions)[] = [
  "common",
  "stateManager",
  "blockchain",
];

/** A VM with its UBT context (undefined for an MPT network). */
export interface ExecutionVM {
  readonly vm: VM;
  readonly ubt: UbtContext | undefined;
}

/**
 * The VM for a network: plain `createVM` for MPT networks; for UBT networks (a `UbtCommon`)
 * the `UbtEVM` and the transaction hooks of geth's UBT rules.
 */
export async function createExecutionVM(options: ExecutionVMOptions): Promise<ExecutionVM> {
  assertKnownOptions(options, EXECUTION_VM_OPTION_KEYS, "createExecutionVM", TestnetError);
  const { common, stateManager, blockchain } = options;
  if (!isUbtCommon(common)) {
    const vm = await createVM({ common, stateManager, blockchain: blockchain as Blockchain });
    withBlockParams(vm);
    installRipemdTouchRule(vm);
    installSystemCallContext(vm);
    return { vm, ubt: undefined };
  }
  const ctx = new UbtContext((common as UbtCommon).ubtNetwork);
  const evm = new UbtEVM(ctx, {
    common,
    stateManager,
    blockchain: blockchain as EVMMockBlockchainInterface,
    customPrecompiles: ubtPrecompiles(common),
  });
  const vm = await createVM({ common, stateManager, blockchain: blockchain as Blockchain, evm });
  withBlockParams(vm);
  const warm = installUbtWarmModel(vm);
  installRipemdTouchRule(vm);
  installSystemCallContext(vm);
  ctx.onBeginBlock = () => warm.resetWarmSet();
  ctx.warmForBlock = warm.warmForBlock;
  vm.events.on("beforeTx", (tx: TypedTransaction, resolve?: (r?: unknown) => void) => {
    const to = tx.to;
    const lookup = to === undefined ? Promise.resolve(undefined) : stateManager.getAccount(to);
    // An event listener cannot reject the VM's emit: a failed lookup is handed to the EVM,
    // which throws it when the transaction's first frame starts.
    lookup
      .then(
        (account) => beginTransaction(ctx, tx, account !== undefined),
        (error: unknown) => {
          ctx.pendingError = error;
        },
      )
      .finally(() => resolve?.());
  });
  vm.events.on("afterTx", (event: { minerValue?: bigint }, resolve?: (r?: unknown) => void) => {
    touchCoinbaseAfterFee(ctx, event.minerValue ?? 0n);
    resolve?.();
  });
  return { vm, ubt: ctx };
}

/**
 * `buildBlock` derives the block's excess blob gas from its parent with the VM's common, whose
 * params are the VM's and the EVM's only: from Osaka on (EIP-7918's reserve price reads
 * `blobBaseCost`) that throws once the parent's blob gas reaches the target. The block's params
 * are added to it.
 */
function withBlockParams(vm: VM): void {
  vm.common.updateParams(paramsBlock);
}

/**
 * `runBlock` as geth's block import runs a block: inside one journal checkpoint, geth's system
 * calls before the transactions (the EIP-4788 beacon root, the EIP-2935 parent hash: the
 * contracts' own code runs, see block-start-calls.ts) and then the block; a block that fails
 * leaves no trace of either. Its system calls run in the block's context (see
 * installSystemCallContext).
 */
export async function runBlockAsGeth(
  vm: VM,
  ubt: UbtContext | undefined,
  opts: RunBlockOpts & { block: Block },
): Promise<RunBlockResult> {
  const { block } = opts;
  // The calls below run before runBlock, which would set the block's fork only then.
  if (opts.setHardfork === true) {
    vm.common.setHardforkBy({
      blockNumber: block.header.number,
      timestamp: block.header.timestamp,
    });
  }
  await vm.evm.journal.checkpoint();
  try {
    await startBlockAsGeth(vm, ubt, block);
    const result = await withoutDirectSystemWrites(vm, () => runBlockInGethOrder(vm, opts));
    await vm.evm.journal.commit();
    return result;
  } catch (cause) {
    await vm.evm.journal.revert();
    throw cause;
  }
}

/**
 * `runBlock`, with a Prague-or-later block's withdrawals paid after its request queue calls, as
 * geth's import pays them (see withdrawal-payment.ts): the block is validated whole, as
 * runBlock would, then run as a copy without withdrawals whose root is taken once they are paid.
 */
async function runBlockInGethOrder(
  vm: VM,
  opts: RunBlockOpts & { block: Block },
): Promise<RunBlockResult> {
  const { block } = opts;
  if (!paysWithdrawalsAfterRequests(vm, block.withdrawals)) return runBlock(vm, opts);
  if (opts.skipBlockValidation !== true) {
    if (block.header.gasLimit >= 0x8000000000000000n) {
      throw new TestnetError(
        "INVALID_INPUT",
        `block ${block.header.number}: gas limit ${block.header.gasLimit} is over 2^63 - 1`,
      );
    }
    if (opts.skipHeaderValidation !== true) {
      await (vm.blockchain as Blockchain).validateHeader(block.header);
    }
    await block.validateData(false, true, opts.validateBlockSize ?? false);
  }
  const withoutWithdrawals = createBlock(
    {
      header: block.header,
      transactions: block.transactions,
      uncleHeaders: block.uncleHeaders,
      withdrawals: [],
    },
    { common: block.common },
  );
  return withWithdrawalsAfterRequests(vm, block.withdrawals!, () =>
    runBlock(vm, { ...opts, block: withoutWithdrawals, skipBlockValidation: true }),
  );
}
