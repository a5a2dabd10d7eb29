import { addressKey, type UbtContext } from "../ubt-context.js";
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
  const self = frameAddressKey(runState);
  const pc = runState.programCounter;
  // Most instructions lie in a chunk the frame already touched: no lookup, nothing allocated.
  if (pc < runState.code.length && ctx.events.isWarmCodeChunk(self, Math.floor(pc / 31))) {
    return 0n;
  }
  return ctx.events.codeChunksRangeGas(
    self,
    BigInt(pc),
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
  const self = frameAddressKey(runState);
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

/** Whether `address` is the system address 0xff…fe (compared byte by byte: runs every step). */
export function isSystemCaller(address: Uint8Array): boolean {
  if (address.length !== 20 || address[19] !== 0xfe) return false;
  for (let i = 0; i < 19; i++) if (address[i] !== 0xff) return false;
  return true;
}

/** The last frame address keyed, and its key (a frame runs many instructions in a row). */
let keyedAddress: object | undefined;
let keyedAddressKey = "";

/**
 * The access-event key of the frame's own address (geth's `contract.Address()`), made once per
 * run of instructions in one frame rather than as a new hex string at every instruction. The
 * frame's Address object is the memo's key: ethereumjs never changes an Address's bytes.
 */
function frameAddressKey(runState: UbtRunState): string {
  const address = runState.interpreter.getAddress();
  if (address !== keyedAddress) {
    keyedAddressKey = addressKey(address.bytes);
    keyedAddress = address;
  }
  return keyedAddressKey;
}
