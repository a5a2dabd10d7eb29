import { addressKey, SYSTEM_ADDRESS, type UbtContext } from "../ubt-context.js";
import { availableGas, type UbtRunState } from "./run-state.js";

/**
 * geth `EVMInterpreter.Run` under EIP-4762 (core/vm/interpreter.go): before each instruction,
 * the code chunk holding the program counter is touched — read, 200 cold + 1900 for a cold
 * stem — except in init code (`contract.IsDeployment`) and in a system call
 * (`contract.IsSystemCall`). The address is `contract.Address()`, the frame's own address (for a
 * DELEGATECALL that is the caller's, not the code's owner). Runs on both `Verkle` and `Binary`.
 */
export function instructionChunkGas(
  ctx: UbtContext,
  runState: UbtRunState,
  charged: bigint,
): bigint {
  if (!chargesCodeChunks(runState)) return 0n;
  return ctx.events.codeChunksRangeGas(
    addressKey(runState.interpreter.getAddress().bytes),
    BigInt(runState.programCounter),
    1n,
    BigInt(runState.code.length),
    false,
    availableGas(runState, charged),
  ).wanted;
}

/**
 * geth `opPush1EIP4762` / `makePushEIP4762` (core/vm/eips.go, `Verkle` table only): a PUSH also
 * touches the chunks its immediate bytes lie in. PUSH1 only when its byte starts a new chunk.
 */
export function pushDataChunkGas(
  ctx: UbtContext,
  runState: UbtRunState,
  opcode: number,
  charged: bigint,
): bigint {
  if (!chargesCodeChunks(runState)) return 0n;
  const pc = BigInt(runState.programCounter);
  const codeLength = BigInt(runState.code.length);
  const self = addressKey(runState.interpreter.getAddress().bytes);
  const available = availableGas(runState, charged);
  if (opcode === 0x60) {
    const data = pc + 1n;
    if (data >= codeLength || data % 31n !== 0n) return 0n;
    return ctx.events.codeChunksRangeGas(self, data + 1n, 1n, codeLength, false, available).wanted;
  }
  const size = BigInt(opcode - 0x5f);
  const start = pc + 1n < codeLength ? pc + 1n : codeLength;
  return ctx.events.codeChunksRangeGas(self, start, size, codeLength, false, available).wanted;
}

/** Not init code, not a system call (geth `!contract.IsDeployment && !contract.IsSystemCall`). */
export function chargesCodeChunks(runState: UbtRunState): boolean {
  return runState.env.isCreate !== true && !isSystemCaller(runState.env.caller.bytes);
}

export function isSystemCaller(address: Uint8Array): boolean {
  return addressKey(address) === SYSTEM_ADDRESS;
}
