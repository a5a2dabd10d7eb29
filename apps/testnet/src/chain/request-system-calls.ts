import { createAddressFromString, toChecksumAddress } from "@ethereumjs/util";
import type { VM } from "@ethereumjs/vm";
import { gethCallError } from "./system-call.js";

/** A request queue contract: its EIP, address and geth's name for its queue. */
export interface RequestContract {
  readonly eip: number;
  readonly address: string;
  readonly queue: string;
}

/** The EIP-7002 and EIP-7251 request queue contracts. */
export const REQUEST_CONTRACTS: readonly RequestContract[] = [
  { eip: 7002, address: "0x00000961ef480eb55e80d19ad83579a64c007002", queue: "withdrawal queue" },
  {
    eip: 7251,
    address: "0x0000bbddc7ce488642fb579f8b00f3a590007251",
    queue: "consolidation queue",
  },
];
const QUEUES = new Map(REQUEST_CONTRACTS.map(({ address, queue }) => [address, queue]));

/**
 * geth's PostExecution (core/state_processor.go `ProcessWithdrawalQueue`,
 * `ProcessConsolidationQueue`): a system call to a request queue contract that fails makes the
 * block invalid ("system call failed to execute"); `@ethereumjs/vm` ignores the failure and
 * records no requests. The failure in geth's words, for a top-level system call to `to` that
 * ended with `error` at `opcode`; undefined for a call to another contract.
 */
export function requestQueueFailure(
  to: string,
  error: string,
  opcode?: number,
): string | undefined {
  const queue = QUEUES.get(to.toLowerCase());
  if (queue === undefined) return undefined;
  return `failed to process ${queue}: system call failed to execute: ${gethCallError(error, opcode)}`;
}

/**
 * geth's PostExecution also refuses a block whose request queue contract has no code ("empty
 * system contract"); `@ethereumjs/vm` skips an absent contract and calls one without code. The
 * first such contract of the VM's fork, as the state holds it; undefined when every one has code.
 */
export async function requestContractWithoutCode(vm: VM): Promise<RequestContract | undefined> {
  for (const contract of REQUEST_CONTRACTS) {
    if (!vm.common.isActivatedEIP(contract.eip)) continue;
    const code = await vm.stateManager.getCode(createAddressFromString(contract.address));
    if (code.length === 0) return contract;
  }
  return undefined;
}

/** `requestContractWithoutCode`'s contract as geth's reason to refuse the block, in its words. */
export async function missingRequestContract(vm: VM): Promise<string | undefined> {
  const contract = await requestContractWithoutCode(vm);
  return contract === undefined
    ? undefined
    : `failed to process ${contract.queue}: empty system contract: no code at ${toChecksumAddress(contract.address)}`;
}
