import type { Common } from "@ethereumjs/common";
import { type EVMOpts, getOpcodesForHF } from "@ethereumjs/evm";

type CustomOpcode = NonNullable<EVMOpts["customOpcodes"]>[number];

import type { UbtContext } from "../ubt-context.js";
import { instructionChunkGas, pushDataChunkGas } from "./code-chunk-gas.js";
import type { UbtGasFunction, UbtRunState } from "./run-state.js";
import { VERKLE_OPCODE_RULES } from "./verkle-opcode-gas.js";

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
    const original = entry.gasHandler as UbtGasFunction | undefined;
    const gasFunction: UbtGasFunction = async (runState: UbtRunState, gas, c) => {
      let owed = gas + instructionChunkGas(ctx, runState, 0n);
      if (rule !== undefined) return rule.dynamicGas(ctx, runState, owed);
      if (isPush) owed += pushDataChunkGas(ctx, runState, opcode, owed);
      return original === undefined ? owed : original(runState, owed, c);
    };
    custom.push({
      opcode,
      opcodeName: entry.opcodeInfo.name,
      baseFee: rule === undefined ? entry.opcodeInfo.fee : Number(rule.constantGas),
      gasFunction: gasFunction as never,
      logicFunction: entry.opHandler,
    });
  }
  return custom;
}
