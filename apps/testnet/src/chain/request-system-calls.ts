import type { VM } from "@ethereumjs/vm";

/** The EIP-7002 and EIP-7251 queue contracts and geth's name for each queue. */
const QUEUES = new Map([
  ["0x00000961ef480eb55e80d19ad83579a64c007002", "withdrawal queue"],
  ["0x0000bbddc7ce488642fb579f8b00f3a590007251", "consolidation queue"],
]);
const SYSTEM_ADDRESS = "0xfffffffffffffffffffffffffffffffffffffffe";

interface WatchedMessage {
  readonly depth: number;
  readonly caller?: { toString(): string };
  readonly to?: { toString(): string };
}

/**
 * geth's PostExecution (core/state_processor.go `ProcessWithdrawalQueue`,
 * `ProcessConsolidationQueue`): when the system call to a request queue contract fails, the
 * block is invalid ("system call failed to execute"). `@ethereumjs/vm` ignores the failure and
 * records no requests. This watches the VM's top-level messages and keeps the first such
 * failure, in geth's words, until `take()` returns it.
 */
export function watchRequestSystemCalls(vm: VM): { take(): string | undefined } {
  const open: WatchedMessage[] = [];
  let failure: string | undefined;
  vm.evm.events!.on("beforeMessage", (message: WatchedMessage) => {
    open.push(message);
  });
  vm.evm.events!.on(
    "afterMessage",
    (result: { execResult: { exceptionError?: { error: string } } }) => {
      const message = open.pop();
      const error = result.execResult.exceptionError;
      if (message === undefined || message.depth !== 0 || error === undefined) return;
      if (message.caller?.toString().toLowerCase() !== SYSTEM_ADDRESS) return;
      const queue = QUEUES.get(message.to?.toString().toLowerCase() ?? "");
      if (queue === undefined || failure !== undefined) return;
      const why = error.error === "revert" ? "execution reverted" : error.error;
      failure = `failed to process ${queue}: system call failed to execute: ${why}`;
    },
  );
  return {
    take() {
      const taken = failure;
      failure = undefined;
      open.length = 0;
      return taken;
    },
  };
}
