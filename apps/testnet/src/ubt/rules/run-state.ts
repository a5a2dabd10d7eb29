import type { Common } from "@ethereumjs/common";
import { EVMError } from "@ethereumjs/evm";
import type { Account, Address } from "@ethereumjs/util";

/**
 * The part of `@ethereumjs/evm`'s interpreter `RunState` the UBT gas rules read (the type is
 * not exported by the package; these members are its public runtime fields).
 */
export interface UbtRunState {
  programCounter: number;
  code: Uint8Array;
  memoryWordCount: bigint;
  highestMemCost: bigint;
  messageGasLimit?: bigint;
  readonly stack: { peek(n?: number): bigint[] };
  readonly env: {
    readonly address: Address;
    readonly caller: Address;
    readonly isCreate?: boolean;
    readonly depth: number;
  };
  readonly interpreter: {
    getGasLeft(): bigint;
    isStatic(): boolean;
    getAddress(): Address;
    readonly journal: WarmJournal;
  };
  readonly stateManager: {
    getAccount(address: Address): Promise<Account | undefined>;
    getCode(address: Address): Promise<Uint8Array>;
  };
}

/** The part of `@ethereumjs/evm`'s Journal the warm rules read and mend. */
export interface WarmJournal {
  /** Warm addresses (unprefixed hex) → their warm slots. */
  journal: Map<string, Set<string>>;
  /** Per checkpoint: [height, [warmed addresses, warmed slots, touched]]. */
  journalDiff: [number, [Set<string>, Map<string, Set<string>>, Set<string>]][];
  isWarmedAddress(address: Uint8Array): boolean;
}

export type UbtGasFunction = (
  runState: UbtRunState,
  gas: bigint,
  common: Common,
) => Promise<bigint>;

/** Aborts the frame like a failed gas check (all its gas is consumed). */
export function outOfGas(): never {
  throw new EVMError(EVMError.errorMessages.OUT_OF_GAS);
}

/** geth's `ErrWriteProtection` in a static frame. */
export function writeProtection(): never {
  throw new EVMError(EVMError.errorMessages.STATIC_STATE_CHANGE);
}

/**
 * Memory expansion gas to cover [offset, offset+length), updating the frame's word count
 * (geth `memoryGasCost`; the same bookkeeping as ethereumjs' `subMemUsage`).
 */
export function memoryExpansionGas(runState: UbtRunState, offset: bigint, length: bigint): bigint {
  if (length === 0n) return 0n;
  const words = (offset + length + 31n) / 32n;
  if (words <= runState.memoryWordCount) return 0n;
  let cost = words * 3n + (words * words) / 512n;
  if (cost > runState.highestMemCost) {
    const previous = runState.highestMemCost;
    runState.highestMemCost = cost;
    cost -= previous;
  }
  runState.memoryWordCount = words;
  return cost;
}

/** Gas left for the dynamic part once `charged` (chunk + constant + earlier parts) is paid. */
export function availableGas(runState: UbtRunState, charged: bigint): bigint {
  const left = runState.interpreter.getGasLeft() - charged;
  return left < 0n ? 0n : left;
}

/**
 * geth's `contract.Gas - gas` in `gasCodeCopyEip4762` and `gasExtCodeCopyEIP4762`: a uint64,
 * unchecked, so when the memory and copy gas already exceed the gas left it wraps to about 2^64.
 * The witness charge given it then succeeds and records its access, which outlives the opcode's
 * out-of-gas failure (a later access in the transaction finds it warm). `before` is what the
 * opcode owed before its gas function ran (its constant gas, its code chunk): geth charges that
 * first, so when it alone is more than the gas left the gas function never runs (0 here).
 */
export function wrappingGasLeft(runState: UbtRunState, before: bigint, charged: bigint): bigint {
  const gasLeft = runState.interpreter.getGasLeft();
  if (gasLeft < before) return 0n;
  const left = gasLeft - charged;
  return left < 0n ? (1n << 64n) + left : left;
}

/** geth `getDataAndAdjustedBounds`: the copied range clipped to the code. */
export function copyBounds(
  codeLength: bigint,
  start: bigint,
  size: bigint,
): { start: bigint; size: bigint } {
  const from = start > codeLength ? codeLength : start;
  let end = from + size;
  if (end > codeLength) end = codeLength;
  return { start: from, size: end - from };
}

/** 32-byte words of a byte length, rounded up. */
export function words(length: bigint): bigint {
  return (length + 31n) / 32n;
}
