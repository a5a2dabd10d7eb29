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

/** Instructions that end a frame without an error (ethereumjs: STOP, RETURN, SELFDESTRUCT). */
const HALTS = new Set([0x00, 0xf3, 0xff]);

/**
 * geth's interpreter loop reads STOP past the end of the code (`GetOp`) and, like any
 * instruction, first touches the chunk at the program counter: a frame that runs off its code
 * with the counter exactly at its end pays for the last chunk if nothing in it ran (it holds
 * only PUSH data, unpaid on `Binary`). ethereumjs' loop just ends. `runState` is the frame's
 * final state; 0 for a frame that halted, failed or ran past the end by a PUSH.
 */
export function implicitStopChunkGas(
  ctx: UbtContext,
  runState: UbtRunState & { readonly opCode: number },
): bigint {
  if (runState.programCounter < runState.code.length || HALTS.has(runState.opCode)) return 0n;
  return instructionChunkGas(ctx, runState, 0n);
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
