import type { Block } from "@ethereumjs/block";
import { Hardfork } from "@ethereumjs/common";
import type { VM } from "@ethereumjs/vm";
import { BinaryStateManager } from "../state/binary-state-manager.js";
import { SYSTEM_ADDRESS } from "../state/system-address.js";
import { requestQueueFailure } from "./request-system-calls.js";
import { failedOpcode, SYSTEM_CALL_GAS } from "./system-call.js";

/** A log as the library keeps one: address, topics, data. */
export type SystemCallLog = [Uint8Array, Uint8Array[], Uint8Array];

interface CallOptions {
  readonly message?: unknown;
  readonly caller?: { toString(): string };
  readonly to?: { toString(): string };
  readonly block?: Block;
  readonly gasLimit?: bigint;
  readonly delegatecall?: boolean;
}

/** What `installSystemCallContext` returns. */
export interface SystemCallContext {
  /** Names the block the next system calls run in (and drops the logs not taken). */
  setBlock(block: Block): void;
  /** The logs the system calls emitted since the last take. */
  takeLogs(): SystemCallLog[];
  /** The first failed request queue call since the last take, in geth's words. */
  takeQueueFailure(): string | undefined;
  /** Records a request queue failure found outside a call (a queue contract without code). */
  failQueue(message: string): void;
}

const installed = new WeakMap<VM, SystemCallContext>();

/** The context `installSystemCallContext` put on `vm` (every VM of createExecutionVM has one). */
export function systemCallContextOf(vm: VM): SystemCallContext | undefined {
  return installed.get(vm);
}

/**
 * System calls as geth makes them, also those the library starts itself (the EIP-7002/7251
 * request queues at the block's end): in the block's context (the library passes none, so
 * NUMBER, TIMESTAMP, COINBASE… read 0 and BASEFEE throws), with 30M gas (the library gives the
 * queues 1M), and followed by geth's `Finalise` (EIP-161: a touched empty account goes; what the
 * call wrote is the original value a later SSTORE prices against).
 * `setBlock` names the block the calls run in; `takeLogs` returns the logs the calls emitted
 * since the last take (geth's state keeps them beside the transactions' and hashes them all);
 * `takeQueueFailure` the first request queue call that failed (geth then refuses the block).
 */
export function installSystemCallContext(vm: VM): SystemCallContext {
  const evm = vm.evm as unknown as { runCall(opts: CallOptions): Promise<unknown> };
  const runCall = evm.runCall.bind(evm);
  let current: Block | undefined;
  let logs: SystemCallLog[] = [];
  let queueFailure: string | undefined;
  evm.runCall = async (opts: CallOptions) => {
    if (
      opts.message !== undefined ||
      opts.caller?.toString().toLowerCase() !== `0x${SYSTEM_ADDRESS}`
    )
      return runCall(opts);
    const call = async () => {
      const result = (await runCall({
        ...opts,
        block: opts.block ?? current,
        gasLimit: SYSTEM_CALL_GAS,
      })) as {
        execResult: {
          logs?: SystemCallLog[];
          exceptionError?: { error: string };
          runState?: unknown;
        };
      };
      if (vm.common.gteHardfork(Hardfork.SpuriousDragon)) await vm.evm.journal.cleanup();
      // geth's Finalise makes the call's writes the committed state the next transaction's
      // SSTORE prices against; the library clears its original values only after a transaction.
      vm.stateManager.originalStorageCache.clear();
      return result;
    };
    const state = vm.stateManager;
    // The library's own system calls (the request queues) are the ones without the
    // delegatecall flag of ours (system-call.ts); it undoes their touch of the caller after them.
    const result =
      state instanceof BinaryStateManager
        ? await state.runSystemCall(call, opts.delegatecall !== true)
        : await call();
    // A call that failed has none (its logs went with its state).
    logs.push(...(result.execResult.logs ?? []));
    const error = result.execResult.exceptionError;
    if (error !== undefined && opts.to !== undefined) {
      queueFailure ??= requestQueueFailure(
        opts.to.toString(),
        error.error,
        failedOpcode(result.execResult),
      );
    }
    return result;
  };
  const context: SystemCallContext = {
    setBlock(block: Block) {
      current = block;
      logs = [];
    },
    takeLogs() {
      const taken = logs;
      logs = [];
      return taken;
    },
    takeQueueFailure() {
      const taken = queueFailure;
      queueFailure = undefined;
      return taken;
    },
    failQueue(message: string) {
      queueFailure ??= message;
    },
  };
  installed.set(vm, context);
  return context;
}
