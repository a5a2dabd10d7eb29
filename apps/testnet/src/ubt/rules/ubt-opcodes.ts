import type { Common } from "@ethereumjs/common";
import { type EVMOpts, getOpcodesForHF } from "@ethereumjs/evm";

type CustomOpcode = NonNullable<EVMOpts["customOpcodes"]>[number];

import type { UbtContext } from "../ubt-context.js";
import { instructionChunkGas, pushDataChunkGas } from "./code-chunk-gas.js";
import type { UbtGasFunction, UbtRunState } from "./run-state.js";
import { VERKLE_OPCODE_RULES } from "./verkle-opcode-gas.js";
import { withoutSelfWarm } from "./warm-set.js";

/**
 * The instruction set of a UBT network as `customOpcodes`: every opcode of the base fork keeps
 * its handler and ethereumjs' gas, wrapped so it first pays its code chunk (geth's interpreter
 * loop); on `Verkle` the EIP-4762 opcodes get geth's gas functions instead and PUSHes pay for
 * their immediate bytes' chunks.
 */
export function ubtOpcodes(ctx: UbtContext, common: Common): CustomOpcode[] {
  const { opcodeMap } = getOpcodesForHF(common);
  const custom: CustomOpcode[] = [];
  const verkle = ctx.network.verkleOpcodes;
  for (let opcode = 0; opcode < 256; opcode++) {
    const entry = opcodeMap[opcode];
    if (entry === undefined || entry.opcodeInfo.isInvalid) continue;
    const rule = verkle ? VERKLE_OPCODE_RULES.get(opcode) : undefined;
    const isPush = verkle && opcode >= 0x60 && opcode <= 0x7f;
    const original = entry.gasHandler as unknown as UbtGasFunction | undefined;
    // ethereumjs' CREATE/CREATE2 gas warms the creator's address; geth's does not (Binary:
    // Osaka's table; Verkle's 4762 rules replace these handlers).
    const isCreate = opcode === 0xf0 || opcode === 0xf5;
    // Not async: the interpreter awaits what it returns, and most instructions need nothing
    // asynchronous here (no promise of our own per instruction).
    const gasFunction = (
      runState: UbtRunState,
      gas: bigint,
      c: Common,
    ): bigint | Promise<bigint> => {
      const chunk = instructionChunkGas(ctx, runState, 0n);
      ctx.traceGas.instruction = chunk;
      let owed = gas + chunk;
      if (rule !== undefined) return rule.dynamicGas(ctx, runState, owed);
      if (isPush) {
        const pushData = pushDataChunkGas(ctx, runState, opcode, owed);
        ctx.traceGas.inExecution = pushData;
        owed += pushData;
      }
      if (original === undefined) return owed;
      if (isCreate) return withoutSelfWarm(runState, () => original(runState, owed, c));
      return original(runState, owed, c);
    };
    const handler = entry.opHandler as unknown as (
      runState: UbtRunState,
      common: Common,
    ) => unknown;
    // CALL and STATICCALL say which one entered the next frame (geth: Call and StaticCall
    // differ for an absent callee; see UbtEVM._executeCall).
    const logicFunction =
      opcode === 0xf1 || opcode === 0xfa
        ? async (runState: UbtRunState, c: Common) => {
            ctx.staticCallAt[runState.env.depth + 1] = opcode === 0xfa;
            return handler(runState, c);
          }
        : entry.opHandler;
    custom.push({
      opcode,
      opcodeName: entry.opcodeInfo.name,
      baseFee: rule === undefined ? entry.opcodeInfo.fee : Number(rule.constantGas),
      gasFunction: gasFunction as never,
      logicFunction: logicFunction as never,
    });
  }
  return custom;
}
