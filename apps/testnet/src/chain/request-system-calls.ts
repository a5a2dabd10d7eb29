import type { VM } from "@ethereumjs/vm";
import { SYSTEM_ADDRESS } from "../ubt/ubt-context.js";

/** The EIP-7002 and EIP-7251 request queue contracts, and geth's name for each queue. */
export const REQUEST_CONTRACTS: readonly {
  readonly eip: number;
  readonly address: string;
  readonly queue: string;
}[] = [
  { eip: 7002, address: "0x00000961ef480eb55e80d19ad83579a64c007002", queue: "withdrawal queue" },
  {
    eip: 7251,
    address: "0x0000bbddc7ce488642fb579f8b00f3a590007251",
    queue: "consolidation queue",
  },
];
const QUEUES = new Map(REQUEST_CONTRACTS.map(({ address, queue }) => [address, queue]));

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
      if (message.caller?.toString().toLowerCase() !== `0x${SYSTEM_ADDRESS}`) return;
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
