import type { TypedTransaction } from "@ethereumjs/tx";
import type { VM } from "@ethereumjs/vm";
import { authorizationRefund } from "../trace/authorization-refund.js";
import { OpcodeTraceLogger, type TraceRequest } from "../trace/opcode-trace.js";
import type { UbtContext } from "../ubt/ubt-context.js";

/**
 * Traces each transaction the VM's blocks run, as geth's `evm blocktest --trace` does: from the
 * library's `beforeTx` (geth's OnTxStart, before the transaction's checks) to its `afterTx`;
 * the system calls around the transactions (beacon root, block hash history, request queues)
 * are not traced, as geth's JSON logger turns itself off for them.
 */
export class BlockTransactionTrace {
  readonly #vm: VM;
  readonly #logger: OpcodeTraceLogger;
  #open = false;
  /** A failure to start a transaction's trace, thrown by the next `settle`. */
  #failure: unknown;
  // Two parameters: the library awaits `resolve`, so the state is read before the transaction runs.
  readonly #onBeforeTx = (tx: TypedTransaction, resolve?: () => void): void => {
    this.#end();
    authorizationRefund(tx, this.#vm.stateManager)
      .then(
        (refund) => this.#begin(tx, refund),
        (cause: unknown) => {
          this.#failure ??= cause;
          this.#begin(tx, 0n);
        },
      )
      .finally(resolve);
  };
  readonly #onAfterTx = (): void => this.#end();

  constructor(vm: VM, ubt: UbtContext | undefined, request: TraceRequest) {
    this.#vm = vm;
    this.#logger = new OpcodeTraceLogger(
      vm.evm,
      vm.common,
      request.options ?? {},
      request.sink,
      ubt,
    );
    vm.events.on("beforeTx", this.#onBeforeTx);
    vm.events.on("afterTx", this.#onAfterTx);
  }

  #begin(tx: TypedTransaction, refund: bigint): void {
    this.#logger.begin(tx, refund);
    this.#open = true;
  }

  /**
   * Ends the trace of a transaction the block left open (one the library refused throws
   * without `afterTx`), and throws what kept a trace from starting: call it after each block,
   * run or refused.
   */
  settle(): void {
    this.#end();
    const failure = this.#failure;
    this.#failure = undefined;
    if (failure !== undefined) throw failure;
  }

  #end(): void {
    if (!this.#open) return;
    this.#open = false;
    this.#logger.end();
  }

  /** Stops tracing the VM's transactions. */
  close(): void {
    this.settle();
    this.#vm.events.off("beforeTx", this.#onBeforeTx);
    this.#vm.events.off("afterTx", this.#onAfterTx);
  }
}
