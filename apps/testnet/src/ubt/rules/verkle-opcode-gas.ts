import { hexToBytes } from "@bintrie/core";
import { Address } from "@ethereumjs/util";
import {
  addressKey,
  HISTORY_STORAGE_ADDRESS,
  stackAddressKey,
  type UbtContext,
  type VerkleCallWitness,
} from "../ubt-context.js";
import { chargesCodeChunks, isSystemCaller } from "./code-chunk-gas.js";
import {
  availableGas,
  copyBounds,
  memoryExpansionGas,
  outOfGas,
  type UbtRunState,
  words,
  wrappingGasLeft,
  writeProtection,
} from "./run-state.js";

/**
 * geth's `verkleInstructionSet` = Shanghai + `enable4762` (core/vm/eips.go,
 * core/vm/operations_verkle.go): these opcodes lose their EIP-2929 warm/cold pricing and pay
 * witness gas instead. Each entry: geth's constant gas and its dynamic gas function. `gas` on
 * entry is what the instruction already owes (its code chunk + constant gas).
 */
export interface VerkleOpcodeRule {
  readonly constantGas: bigint;
  readonly dynamicGas: (ctx: UbtContext, runState: UbtRunState, gas: bigint) => Promise<bigint>;
}

const INIT_CODE_LIMIT = 49_152n;
const CALL_NEW_ACCOUNT_GAS = 25_000n;
const COPY_GAS = 3n;
const INIT_CODE_WORD_GAS = 2n;
const KECCAK_WORD_GAS = 6n;
const FLAT_SYSTEM_GAS = 100n;

function self(runState: UbtRunState): string {
  return addressKey(runState.interpreter.getAddress().bytes);
}

function addressOf(key: string): Address {
  return new Address(hexBytes(key));
}

function hexBytes(key: string): Uint8Array {
  return hexToBytes(key.slice(0, 40), "access-event address");
}

/** Precompiles and the EIP-2935 contract are priced flat (geth checks both everywhere). */
function isFlat(ctx: UbtContext, key: string): boolean {
  return ctx.isPrecompile(key) || key === HISTORY_STORAGE_ADDRESS;
}

async function isEmpty(runState: UbtRunState, key: string): Promise<boolean> {
  const account = await runState.stateManager.getAccount(addressOf(key));
  return account === undefined || account.isEmpty();
}

async function exists(runState: UbtRunState, key: string): Promise<boolean> {
  return (await runState.stateManager.getAccount(addressOf(key))) !== undefined;
}

/** geth `gasSLoad4762`. */
const sload: VerkleOpcodeRule = {
  constantGas: 0n,
  async dynamicGas(ctx, rs, gas) {
    const [slot] = rs.stack.peek(1);
    return gas + ctx.events.slotGas(self(rs), slot!, false, availableGas(rs, gas), true);
  },
};

/**
 * geth `gasSStore4762`: only the slot's witness (no EIP-2200 pricing, no refunds, no sentry).
 * In a static frame the witness is recorded before `opSstore` fails (geth checks write
 * protection in the instruction, after its gas): a later write of the slot finds it warm.
 */
const sstore: VerkleOpcodeRule = {
  constantGas: 0n,
  async dynamicGas(ctx, rs, gas) {
    const [slot] = rs.stack.peek(1);
    const witness = ctx.events.slotGas(self(rs), slot!, true, availableGas(rs, gas), true);
    if (rs.interpreter.isStatic()) {
      ctx.traceGas.refused = witness;
      writeProtection();
    }
    return gas + witness;
  },
};

/** geth `gasBalance4762`. */
const balance: VerkleOpcodeRule = {
  constantGas: 0n,
  async dynamicGas(ctx, rs, gas) {
    const target = stackAddressKey(rs.stack.peek(1)[0]!);
    return gas + ctx.events.basicDataGas(target, false, availableGas(rs, gas), true);
  },
};

/** geth `gasExtCodeSize4762`: free for a precompile. */
const extcodesize: VerkleOpcodeRule = {
  constantGas: 0n,
  async dynamicGas(ctx, rs, gas) {
    const target = stackAddressKey(rs.stack.peek(1)[0]!);
    if (ctx.isPrecompile(target)) return gas;
    return gas + ctx.events.basicDataGas(target, false, availableGas(rs, gas), true);
  },
};

/** geth `gasExtCodeHash4762`: free for a precompile. */
const extcodehash: VerkleOpcodeRule = {
  constantGas: 0n,
  async dynamicGas(ctx, rs, gas) {
    const target = stackAddressKey(rs.stack.peek(1)[0]!);
    if (ctx.isPrecompile(target)) return gas;
    return gas + ctx.events.codeHashGas(target, false, availableGas(rs, gas), true);
  },
};

/**
 * geth `gasExtCodeCopyEIP4762` + `opExtCodeCopyEIP4762`: memory and copy gas, the target's
 * BASIC_DATA (flat 100 for a precompile or the 2935 contract), then the chunks copied.
 */
const extcodecopy: VerkleOpcodeRule = {
  constantGas: 0n,
  async dynamicGas(ctx, rs, gas) {
    const before = gas;
    const [word, memOffset, codeOffset, length] = rs.stack.peek(4) as [
      bigint,
      bigint,
      bigint,
      bigint,
    ];
    const target = stackAddressKey(word);
    gas += memoryExpansionGas(rs, memOffset, length) + COPY_GAS * words(length);
    if (isFlat(ctx, target)) gas += FLAT_SYSTEM_GAS;
    else gas += ctx.events.basicDataGas(target, false, wrappingGasLeft(rs, before, gas), true);
    const code = await rs.stateManager.getCode(addressOf(target));
    const codeLength = BigInt(code.length);
    const bounds = copyBounds(codeLength, codeOffset, length);
    const { wanted } = ctx.events.codeChunksRangeGas(
      target,
      bounds.start,
      bounds.size,
      codeLength,
      false,
      availableGas(rs, gas),
    );
    // geth charges the copied chunks as the instruction runs (opExtCodeCopyEIP4762).
    ctx.traceGas.inExecution = wanted;
    return gas + wanted;
  },
};

/** geth `gasCodeCopyEip4762`: memory and copy gas plus the own code chunks copied. */
const codecopy: VerkleOpcodeRule = {
  constantGas: 3n,
  async dynamicGas(ctx, rs, gas) {
    const before = gas;
    const [memOffset, codeOffset, length] = rs.stack.peek(3) as [bigint, bigint, bigint];
    gas += memoryExpansionGas(rs, memOffset, length) + COPY_GAS * words(length);
    if (!chargesCodeChunks(rs)) return gas;
    const codeLength = BigInt(rs.code.length);
    const bounds = copyBounds(codeLength, codeOffset, length);
    return (
      gas +
      ctx.events.codeChunksRangeGas(
        self(rs),
        bounds.start,
        bounds.size,
        codeLength,
        false,
        wrappingGasLeft(rs, before, gas),
      ).wanted
    );
  },
};

/**
 * geth `gasSelfdestructEIP4762` (constant 5000): the contract's and beneficiary's BASIC_DATA,
 * written when a balance moves; a beneficiary that does not exist pays both header leaves. No
 * 25000 new-account charge.
 */
const selfdestruct: VerkleOpcodeRule = {
  constantGas: 5000n,
  async dynamicGas(ctx, rs, gas) {
    const charged = await selfdestructGas(ctx, rs, gas);
    // geth's opSelfdestruct6780 fails in a static frame after the gas (its witness recorded).
    if (rs.interpreter.isStatic()) {
      ctx.traceGas.refused = charged - gas;
      writeProtection();
    }
    return charged;
  },
};

/** The SELFDESTRUCT witness charge. */
async function selfdestructGas(ctx: UbtContext, rs: UbtRunState, gas: bigint): Promise<bigint> {
  const beneficiary = stackAddressKey(rs.stack.peek(1)[0]!);
  if (ctx.isPrecompile(beneficiary) || isSystemCaller(rs.env.caller.bytes)) return gas;
  const contract = self(rs);
  const available = availableGas(rs, gas);
  let charged = ctx.events.basicDataGas(contract, false, available, false);
  if (charged > available) return gas + charged;
  const account = await rs.stateManager.getAccount(rs.interpreter.getAddress());
  const balanceIsZero = account === undefined || account.balance === 0n;
  if (beneficiary === HISTORY_STORAGE_ADDRESS && balanceIsZero) return gas + charged;
  if (contract !== beneficiary) {
    const wanted = ctx.events.basicDataGas(beneficiary, false, available - charged, false);
    if (wanted > available - charged) return gas + charged + wanted;
    charged += wanted;
  }
  if (!balanceIsZero) {
    const wanted = ctx.events.basicDataGas(contract, true, available - charged, false);
    if (wanted > available - charged) return gas + charged + wanted;
    charged += wanted;
    if (contract !== beneficiary) {
      const more = (await exists(rs, beneficiary))
        ? ctx.events.basicDataGas(beneficiary, true, available - charged, false)
        : ctx.events.addAccount(beneficiary, true, available - charged);
      if (more > available - charged) return gas + charged + more;
      charged += more;
    }
  }
  return gas + charged;
}

/** geth CREATE/CREATE2 under EIP-4762: constant `CreateNGasEip4762` (1000) + `gasCreate(2)Eip3860`. */
function create(isCreate2: boolean): VerkleOpcodeRule {
  return {
    constantGas: 1000n,
    async dynamicGas(_ctx, rs, gas) {
      if (rs.interpreter.isStatic()) writeProtection();
      const [, offset, length] = rs.stack.peek(3) as [bigint, bigint, bigint];
      gas += memoryExpansionGas(rs, offset, length);
      if (length > INIT_CODE_LIMIT) outOfGas();
      gas +=
        (isCreate2 ? INIT_CODE_WORD_GAS + KECCAK_WORD_GAS : INIT_CODE_WORD_GAS) * words(length);
      const left = availableGas(rs, gas);
      rs.messageGasLimit = left - left / 64n;
      return gas;
    },
  };
}

type CallKind = "call" | "callcode" | "delegatecall" | "staticcall";

/**
 * geth `makeCallVariantGasEIP4762` around `gasCall`/`gasCallCode`/…: CALL with value pays both
 * BASIC_DATA writes (`ValueTransferGas`) and no 9000; a precompile or the 2935 contract costs a
 * flat 100; any other callee pays its BASIC_DATA read (`MessageCallGas`, 100 when warm). Then
 * memory, CALL's 25000 for value to an empty account, and the 63/64 callee gas.
 */
function call(kind: CallKind): VerkleOpcodeRule {
  const hasValue = kind === "call" || kind === "callcode";
  return {
    constantGas: 0n,
    async dynamicGas(ctx, rs, gas) {
      const items = rs.stack.peek(hasValue ? 7 : 6);
      const requested = items[0]!;
      const target = stackAddressKey(items[1]!);
      const value = hasValue ? items[2]! : 0n;
      const memory = items.slice(hasValue ? 3 : 2) as [bigint, bigint, bigint, bigint];
      let available = availableGas(rs, gas);
      let witness: bigint;
      const flat = !(kind === "call" && value !== 0n) && isFlat(ctx, target);
      if (flat) witness = FLAT_SYSTEM_GAS;
      else if (kind === "call" && value !== 0n) {
        witness = ctx.events.valueTransferGas(self(rs), target, available);
      } else witness = ctx.events.messageCallGas(target, available);
      const met: VerkleCallWitness = {
        witness,
        paid: flat || witness <= available,
        creates: false,
      };
      ctx.traceGas.call = met;
      if (!met.paid) return gas + witness;
      available -= witness;
      let intrinsic =
        memoryExpansionGas(rs, memory[0], memory[1]) + memoryExpansionGas(rs, memory[2], memory[3]);
      if (kind === "call") {
        if (available < intrinsic) return gas + witness + intrinsic;
        met.creates = value !== 0n && (await isEmpty(rs, target));
        if (met.creates) intrinsic += CALL_NEW_ACCOUNT_GAS;
      }
      if (available < intrinsic) return gas + witness + intrinsic;
      const rest = available - intrinsic;
      const cap = rest - rest / 64n;
      const callGas = requested > cap ? cap : requested;
      // ethereumjs charges the callee's gas when the call returns (its unused part comes back),
      // so only the caller's share is owed here; geth adds `callGasTemp`, which always fits.
      rs.messageGasLimit = callGas;
      // geth's opCall refuses a value in a static frame after the gas (ValueTransferGas and
      // the rest recorded): the target's BASIC_DATA stays warm for the transaction.
      if (kind === "call" && value !== 0n && rs.interpreter.isStatic()) writeProtection();
      return gas + witness + intrinsic;
    },
  };
}

/** The Verkle table's replaced opcodes, by opcode number. */
export const VERKLE_OPCODE_RULES: ReadonlyMap<number, VerkleOpcodeRule> = new Map([
  [0x54, sload],
  [0x55, sstore],
  [0x31, balance],
  [0x3b, extcodesize],
  [0x3f, extcodehash],
  [0x3c, extcodecopy],
  [0x39, codecopy],
  [0xff, selfdestruct],
  [0xf0, create(false)],
  [0xf5, create(true)],
  [0xf1, call("call")],
  [0xf2, call("callcode")],
  [0xf4, call("delegatecall")],
  [0xfa, call("staticcall")],
]);
