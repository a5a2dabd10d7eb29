import { hexToBytes } from "@bintrie/core";
import {
  EVM,
  EVMError,
  type EVMOpts,
  type EVMResult,
  type EVMRunCallOpts,
  type ExecResult,
  type Message,
  NobleBN254,
  paramsEVM,
} from "@ethereumjs/evm";
import {
  Account,
  Address,
  bigIntToBytes,
  equalsBytes,
  generateAddress,
  generateAddress2,
  KECCAK256_NULL,
} from "@ethereumjs/util";
import { MINTED_GAS_CAUSE } from "../chain/minted-gas.js";
import { TestnetError } from "../chain/testnet-error.js";
import {
  implicitStopChunkGas,
  instructionChunkGas,
  isSystemCaller,
} from "./rules/code-chunk-gas.js";
import {
  absentCalleeGas,
  codeDepositGas,
  createInitGas,
  createPreCheckGas,
} from "./rules/message-gas.js";
import type { UbtRunState } from "./rules/run-state.js";
import { ubtOpcodes } from "./rules/ubt-opcodes.js";
import { addressKey, type UbtContext } from "./ubt-context.js";

/** The library's failure of an undefined opcode. */
const INVALID_OPCODE = "invalid opcode";

/**
 * `@ethereumjs/evm` with geth's UBT message rules (core/vm/evm.go): a subclass, so the library
 * runs unmodified. The opcode rules come in as `customOpcodes` (rules/ubt-opcodes.ts); the
 * precompile set through `customPrecompiles`. EIP-7864 mode of the library stays off — its
 * `binaryTreeAccessWitness` charges differ from geth (see README, "UBT rules").
 */
export class UbtEVM extends EVM {
  readonly ubt: UbtContext;
  /**
   * The address of a create frame that ran out of gas on geth's ContractCreateInitGas charge:
   * geth has already made the account (nonce 1) and returns without reverting it, so the
   * account outlives the failed frame (runCall writes it after the library's revert).
   */
  #createdBeforeHalt: Address | undefined;

  constructor(ctx: UbtContext, opts: EVMOpts) {
    // The opcode list reads gas parameters the EVM constructor would only load afterwards.
    opts.common!.updateParams(opts.params ?? paramsEVM);
    super({
      bn254: new NobleBN254(),
      ...opts,
      customOpcodes: [...ubtOpcodes(ctx, opts.common!), ...(opts.customOpcodes ?? [])],
    });
    this.ubt = ctx;
    ctx.isPrecompile = (key) => this.precompiles.get(key) !== undefined;
  }

  protected override async _executeCall(message: Message & { to: Address }): Promise<EVMResult> {
    this.ubt.throwPendingError();
    const callee = addressKey(message.to.bytes);
    if (
      this.ubt.isPrecompile(callee) ||
      (await this.stateManager.getAccount(message.to)) !== undefined
    ) {
      return super._executeCall(message);
    }
    if (message.depth > 0 && this.ubt.staticCallAt[message.depth] === true) {
      // geth EVM.StaticCall: no proof of absence (only Call pays it), and its AddBalance of zero
      // touches the callee, so the empty account is deleted at the end (zero header leaves)
      // unless the frame fails: the library's call touches it the same way.
      return super._executeCall(message);
    }
    let charged = 0n;
    if (!isSystemCaller(message.caller.bytes)) {
      const gas = absentCalleeGas(this.ubt, callee, message.gasLimit);
      if (gas === undefined) return { execResult: outOfGasResult(message.gasLimit) };
      charged = gas;
    }
    // geth EVM.Call: a call without value to an account that does not exist does nothing (no
    // touch, so no EIP-161 deletion and no zero leaves later).
    if (message.value === 0n) {
      return {
        execResult: {
          executionGasUsed: charged,
          gasRefund: message.gasRefund,
          returnValue: new Uint8Array(0),
        },
      };
    }
    return withCharge(message, charged, () => super._executeCall(message));
  }

  override async runCall(opts: EVMRunCallOpts): Promise<EVMResult> {
    let result: EVMResult;
    let created: Address | undefined;
    try {
      result = await super.runCall(opts);
    } finally {
      // Taken whatever happens, so a frame that throws leaves nothing for the next one.
      created = this.#createdBeforeHalt;
      this.#createdBeforeHalt = undefined;
    }
    if (created !== undefined) {
      // In the calling frame's journal now: a revert of that frame still undoes it, as in geth.
      const account = (await this.stateManager.getAccount(created)) ?? new Account();
      account.nonce = 1n;
      await this.journal.putAccount(created, account);
    }
    if (opts.message === undefined) this.#refuseMintedGasGethWraps(opts, result);
    return result;
  }

  /**
   * A transaction whose call gives back more gas than the whole transaction was given. Under
   * EIP-4762 a value CALL pays no transfer gas, yet its callee still gets the 2300 stipend, which
   * comes back to the caller unspent: each such call mints gas, in geth too. While the
   * transaction's gas used (intrinsic gas plus the call's) stays at zero or above, geth's uint64
   * arithmetic and the library's bigint agree; below zero geth's wraps around 2^64, which only
   * the receipt shows as long as nothing else reads it: no priority fee (geth pays the coinbase
   * the tip on the wrapped figure), no refund (geth caps it by the wrapped figure) and no EIP-7623
   * floor (the library raises a negative gas used to it; geth's wrapped one passes). Where one of
   * them would, it is an error here rather than another state (t8n ends on it with geth's panic
   * exit code, 2; fill and run stop).
   */
  #refuseMintedGasGethWraps(opts: EVMRunCallOpts, result: EVMResult): void {
    const used = result.execResult.executionGasUsed;
    const given = opts.gasLimit;
    const transaction = this.ubt.transaction;
    if (used >= 0n || given === undefined || opts.caller === undefined) return;
    if (transaction === undefined || isSystemCaller(opts.caller.bytes)) return;
    const transactionGasUsed = transaction.gasLimit - (given - used);
    if (transactionGasUsed >= 0n) return;
    const baseFee = opts.block?.header.baseFeePerGas ?? 0n;
    const tip = (opts.gasPrice ?? 0n) - baseFee;
    const refund = result.execResult.gasRefund ?? 0n;
    const floor = this.common.isActivatedEIP(7623);
    if (tip <= 0n && refund === 0n && !transaction.authorizations && !floor) return;
    const differs = [
      ...(tip > 0n ? [`pays the coinbase a tip of ${tip} wei per gas on it`] : []),
      ...(refund > 0n ? [`refunds ${refund} gas against it`] : []),
      ...(transaction.authorizations ? ["refunds its EIP-7702 authorizations against it"] : []),
      ...(floor ? ["checks EIP-7623's calldata floor against it"] : []),
    ].join(" and ");
    throw new TestnetError(
      "GAS_RETURNED_OVER_LIMIT",
      `the call returned ${given - used} gas of the ${given} it was given, more than the transaction's whole gas limit of ${transaction.gasLimit} (its gas used is ${transactionGasUsed}): ${MINTED_GAS_CAUSE}, and the unspent stipends minted ${-used} gas; geth's gas used then wraps around 2^64 and geth ${differs}, which this executor does not reproduce`,
    );
  }

  protected override async _executeCreate(message: Message): Promise<EVMResult> {
    this.ubt.throwPendingError();
    const createdAddress = await this.#createdAddress(message);
    const address = addressKey(createdAddress.bytes);
    // geth EVM.create: the pre-check charge, the collision check, then the account is made
    // (nonce 1) and the init charge taken; a failed init charge returns without a revert.
    // Either way the receipt of a creation names the address (geth derives it from the
    // sender and nonce, whatever the outcome).
    const pre = createPreCheckGas(this.ubt, address, message.gasLimit);
    if (pre === undefined) return { createdAddress, execResult: outOfGasResult(message.gasLimit) };
    let charged = pre;
    if (!(await this.#collides(address))) {
      const init = createInitGas(this.ubt, address, message.gasLimit - charged);
      if (init === undefined) {
        this.#createdBeforeHalt = createdAddress;
        return { createdAddress, execResult: outOfGasResult(message.gasLimit) };
      }
      charged += init;
    }
    return withCharge(message, charged, () => super._executeCreate(message));
  }

  protected override async runInterpreter(message: Message, opts?: object): Promise<ExecResult> {
    const result = await super.runInterpreter(message, opts as never);
    if (result.exceptionError?.error === INVALID_OPCODE) {
      // geth touches the code chunk before it reads the instruction, an undefined one too (the
      // library has no gas handler to charge it): the chunk joins the witness if the frame can
      // pay it (the frame's failure takes all its gas either way), and a trace learns its gas.
      const runState = result.runState as unknown as UbtRunState | undefined;
      if (runState !== undefined) {
        this.ubt.traceGas.instruction = instructionChunkGas(this.ubt, runState, 0n);
      }
    }
    if (result.exceptionError !== undefined) return result;
    if (message.isCreate !== true) {
      const runState = result.runState as unknown as UbtRunState & { readonly opCode: number };
      const gas = implicitStopChunkGas(this.ubt, runState);
      if (gas > message.gasLimit - result.executionGasUsed) {
        return { ...result, ...outOfGasResult(message.gasLimit) };
      }
      result.executionGasUsed += gas;
      return result;
    }
    const code = result.returnValue;
    // geth rejects 0xEF code (EIP-3541) before charging the deposit; ethereumjs does it next.
    if (code.length === 0 || code[0] === 0xef) return result;
    const gas = codeDepositGas(
      this.ubt,
      addressKey(message.to!.bytes),
      code,
      message.gasLimit - result.executionGasUsed,
    );
    if (gas === undefined) return { ...result, ...outOfGasResult(message.gasLimit) };
    result.executionGasUsed += gas;
    return result;
  }

  async #createdAddress(message: Message): Promise<Address> {
    const code = message.code ?? message.data;
    if (message.salt !== undefined) {
      return new Address(generateAddress2(message.caller.bytes, message.salt, code as Uint8Array));
    }
    const account = await this.stateManager.getAccount(message.caller);
    const nonce = (account?.nonce ?? 1n) - 1n;
    return new Address(generateAddress(message.caller.bytes, bigIntToBytes(nonce)));
  }

  /**
   * geth's collision rule under UBT: a nonce or code at the new address. (Storage too, by
   * its root, which a UBT account does not have: zero, never a collision.)
   */
  async #collides(address: string): Promise<boolean> {
    const account = await this.stateManager.getAccount(new Address(hexAddress(address)));
    if (account === undefined) return false;
    return account.nonce > 0n || !equalsBytes(account.codeHash, KECCAK256_NULL);
  }
}

function hexAddress(key: string): Uint8Array {
  return hexToBytes(key.slice(0, 40), "access-event address");
}

/** Runs a frame with `charged` taken from its gas first (geth charges before the frame runs). */
async function withCharge(
  message: Message,
  charged: bigint,
  run: () => Promise<EVMResult>,
): Promise<EVMResult> {
  if (charged === 0n) return run();
  const gasLimit = message.gasLimit;
  message.gasLimit = gasLimit - charged;
  let result: EVMResult;
  try {
    result = await run();
  } finally {
    message.gasLimit = gasLimit;
  }
  result.execResult.executionGasUsed += charged;
  return result;
}

function outOfGasResult(gasLimit: bigint): ExecResult {
  return {
    returnValue: new Uint8Array(0),
    executionGasUsed: gasLimit,
    exceptionError: new EVMError(EVMError.errorMessages.OUT_OF_GAS),
  };
}
