import type { Common } from "@ethereumjs/common";
import { Hardfork } from "@ethereumjs/common";
import type { EVMInterface, EVMResult, InterpreterStep, Message } from "@ethereumjs/evm";
import type { TypedTransaction } from "@ethereumjs/tx";
import {
  Address,
  bigIntToBytes,
  bytesToBigInt,
  bytesToHex,
  generateAddress,
  generateAddress2,
  setLengthLeft,
} from "@ethereumjs/util";
import { gethCallError } from "../chain/system-call.js";
import { VERKLE_OPCODE_RULES } from "../ubt/rules/verkle-opcode-gas.js";
import { isUbtCommon } from "../ubt/ubt-common.js";
import { noTraceGas, type UbtTraceGas, type VerkleCallWitness } from "../ubt/ubt-context.js";
import { type CallFrameEntry, callFrameLine } from "./call-frame-line.js";
import { gethBls12381InputError } from "./geth-bls12381-input.js";
import { gethBn254InputError } from "./geth-bn254-input.js";
import { gethMemorySize, MAX_MEMORY_FOR_GAS, memoryExpansionGas } from "./geth-memory-gas.js";
import { gethModexpLengthError } from "./geth-modexp-input.js";
import { fromTop, gethOpcodeName, gethStackError } from "./geth-opcode-table.js";
import { gethPointEvaluationError } from "./geth-point-evaluation-input.js";
import {
  markdownFault,
  markdownPostExecution,
  markdownPreExecution,
  markdownStepRow,
} from "./markdown-trace-lines.js";
import type { OpcodeCounts } from "./opcode-counts.js";

/** geth's `--trace.*` switches of its opcode loggers (eth/tracers/logger). */
export interface OpcodeTraceOptions {
  /** `--trace.memory`: each step's memory. */
  readonly memory?: boolean;
  /** `--trace.nostack`: no stack (`"stack":null`). */
  readonly noStack?: boolean;
  /** `--trace.returndata`: each step's return data of the frame's last call. */
  readonly returnData?: boolean;
  /** `--trace.callframes`: a line as each call frame is entered (see CallFrameEntry). */
  readonly callFrames?: boolean;
  /**
   * `--trace.format`: geth's JSON lines (the default), or its markdown logger's table
   * (`markdown-trace-lines.ts`; blocktest's `md`).
   */
  readonly format?: TraceFormat;
}

/** The trace formats geth's blocktest writes that this logger writes too. */
export type TraceFormat = "json" | "markdown";

/** A trace asked for: where its lines go, and geth's switches. */
export interface TraceRequest {
  readonly sink: TraceSink;
  readonly options?: OpcodeTraceOptions;
}

/**
 * Where the trace of each transaction goes: geth's t8n writes a file per transaction, its
 * blocktest one stream.
 */
export interface TraceSink {
  /**
   * A transaction reaches execution (geth's OnTxStart): its trace begins. Undefined: one whose
   * hash is unknown here (the library could not build it) — counted, not written.
   */
  begin(txHash: Uint8Array | undefined): void;
  /** One JSON line, without its newline. */
  line(json: string): void;
  /** The transaction's trace is complete. */
  end(): void;
}

/** The library's EVM events the logger listens to. */
type EvmEvents = NonNullable<EVMInterface["events"]>;

/** What a gas handler the logger wraps reads of the library's run state. */
interface GasRunState {
  readonly memory: { read(offset: number, size: number): Uint8Array };
  readonly stack: { readonly length: number; peek(count: number): bigint[] };
}
type GasHandler = (runState: GasRunState, gas: bigint, common: Common) => bigint | Promise<bigint>;

/** A call's callee as its gas handler met it: cold, and (CALL) an account the call creates. */
interface CallInfo {
  readonly cold: boolean;
  creates: boolean;
}
/** What a step off a UBT network tells: nothing. */
const NO_TRACE_GAS = noTraceGas();

/** What the logger changes of the library's entry of an opcode (its gas handler). */
interface OpcodeEntry {
  gasHandler?: GasHandler;
}

/** How geth fails an instruction (see OpcodeTraceLogger.#fault). */
interface Fault {
  readonly error: string;
  readonly before: boolean;
  readonly step: Step;
  readonly after?: Step;
}

/** One step, held until it is known whether the instruction failed. */
interface Step {
  readonly pc: number;
  readonly op: number;
  readonly gas: bigint;
  readonly cost: bigint;
  /** The constant part of the cost (the library's static fee). */
  readonly constant: bigint;
  /** On a UBT network, the code-chunk gas geth charges before it reads the instruction. */
  readonly chunk: bigint;
  /**
   * On `Verkle`, the chunks geth charges as the instruction runs, left out of its cost: a
   * PUSH's immediate bytes', the ones EXTCODECOPY copies.
   */
  readonly inExecution: bigint;
  /** A call's callee or SELFDESTRUCT's beneficiary as its gas handler met it (not on UBT). */
  readonly call?: CallInfo;
  /** On `Verkle`, what a call met in EIP-4762's call gas (see UbtTraceGas). */
  readonly verkleCall?: VerkleCallWitness;
  /** On `Verkle`, the gas geth charged for a write a static frame refuses (see UbtTraceGas). */
  readonly refused?: bigint;
  /** The instruction before it in its frame and geth's cost of that (0, 0 for the first). */
  readonly previous: { readonly op: number; readonly cost: bigint };
  readonly memory: Uint8Array;
  readonly stack: readonly bigint[];
  readonly depth: number;
  readonly refund: bigint;
  readonly returnData: Uint8Array;
  /** The fork has the opcode (the library maps every other one to INVALID). */
  readonly defined: boolean;
  /** A call's share of the gas left, as geth reckons it (its cost includes it). */
  readonly callee?: bigint;
  /**
   * With call frames, for SELFDESTRUCT and CREATE: the executing account's balance (what
   * SELFDESTRUCT moves) and nonce (CREATE's address) as the instruction starts.
   */
  readonly account?: { readonly balance: bigint; readonly nonce: bigint };
}

interface Frame {
  readonly message: Message;
  /** Started by CREATE or CREATE2 (the caller keeps only a revert's output as return data). */
  readonly byCreate: boolean;
  /** A creation (CREATE, CREATE2 or a creation transaction): it deploys what it returns. */
  readonly deploys: boolean;
  pending: Step | undefined;
  /** The return data of the frame's last call (geth's `evm.returnData`). */
  returnData: Uint8Array;
  /** A call or create instruction that has run and started no message (yet). */
  unstarted: Step | undefined;
  /** The frame's last instruction and its cost. */
  previous: { readonly op: number; readonly cost: bigint };
}

/** What the logger reads of the library's final run state of a frame. */
interface RunStateView {
  /** What the frame returned (a deployment's code, also when storing it failed). */
  readonly returnValue?: Uint8Array;
  readonly programCounter: number;
  readonly opCode: number;
  readonly gasLeft: bigint;
  readonly gasRefund: bigint;
  readonly memoryWordCount: bigint;
  readonly memory: { readonly _store: Uint8Array };
  readonly stack: { getStack(): bigint[] };
}

/** Instructions that end a frame without an error (the library's STOP, RETURN, SELFDESTRUCT). */
const RETURN = 0xf3;
const HALTS = new Set([0x00, RETURN, 0xff]);
const CALL = 0xf1;
const CALLCODE = 0xf2;
const DELEGATECALL = 0xf4;
const STATICCALL = 0xfa;
const CALLS = new Set([CALL, CALLCODE, DELEGATECALL, STATICCALL]);
const CREATE = 0xf0;
const CREATE2 = 0xf5;
const CREATES = new Set([CREATE, CREATE2]);
/** BALANCE, EXTCODESIZE, EXTCODECOPY, EXTCODEHASH. */
const ACCOUNT_READS = new Set([0x31, 0x3b, 0x3c, 0x3f]);
/** What a value call adds to the callee's gas (params.CallStipend). */
const CALL_STIPEND = 2300n;
const SSTORE = 0x55;
const EXP = 0x0a;
const LOG0 = 0xa0;
const LOG4 = 0xa4;
/** geth's LOG gas: per instruction and per topic, and per byte of data. */
const LOG_GAS = 375n;
const LOG_DATA_GAS = 8n;
const REVERT = 0xfd;
const RETURNDATACOPY = 0x3e;
const EXTCODECOPY = 0x3c;
const SELFDESTRUCT = 0xff;
const SELFDESTRUCT_REFUND = 24_000n;
/** EIP-2929's cold account access (a call's surcharge is this less the warm read, 100). */
const COLD_ACCOUNT_ACCESS = 2600n;
/** Instructions whose gas function in geth refuses a write in a static call. */
const WRITE_GAS_CHECKED = new Set([SSTORE, CREATE, CREATE2, CALL, SELFDESTRUCT]);
const U64 = 1n << 64n;
const EMPTY = new Uint8Array(0);
const NO_PREVIOUS = { op: 0, cost: 0n } as const;

/**
 * geth's JSON opcode logger (`evm t8n --trace`, eth/tracers/logger/logger_json.go) over the
 * library's `step`, `beforeMessage` and `afterMessage` events: a line per instruction before it
 * runs (pc, op, gas left, its cost, memory size, stack, depth, refund counter, name), a second
 * line with the error when the instruction fails as it runs (REVERT, an invalid opcode or jump),
 * the error line alone when it fails before (a stack that does not fit, gas it cannot pay), and
 * a line as each call frame ends (output, gas used, error). Costs and errors are geth's: a
 * call's cost includes the gas it gives the callee (EIP-150's 63/64), errors are geth's words.
 * With `format: "markdown"` the same events make geth's markdown logger's table instead.
 */
export class OpcodeTraceLogger {
  readonly #events: EvmEvents;
  readonly #common: Common;
  readonly #options: OpcodeTraceOptions;
  readonly #sink: TraceSink;
  readonly #frames: Frame[] = [];
  /** Accounts whose SELFDESTRUCT the transaction has logged (for the refund before London). */
  readonly #selfDestructed = new Set<string>();
  readonly #onStep = (event: InterpreterStep): void => this.#step(event);
  readonly #onMessage = (message: Message): void => this.#enter(message);
  readonly #onResult = (result: EVMResult): void => this.#exit(result);

  /**
   * The library's EVM: its opcode entries, whose gas handlers the logger wraps while it traces,
   * are the fork's at each transaction (the EVM makes them anew when the fork changes).
   */
  readonly #evm: EVMInterface;
  readonly #wrapped = new Map<OpcodeEntry, GasHandler>();
  readonly #journal: { isWarmedAddress(address: Uint8Array): boolean };
  readonly #state: EVMInterface["stateManager"];
  /** What a call's gas handler met (see #watchCall), for the call's step. */
  #call: CallInfo | undefined;
  /** On a UBT network, what each instruction's gas handler tells the trace. */
  readonly #ubt: { takeTraceGas(): UbtTraceGas } | undefined;
  /** geth's refund counter less the library's (see begin). */
  #refundAtStart = 0n;
  /** The transaction being traced (a creation's address for its call frame). */
  #tx: TypedTransaction | undefined;
  /** On `Verkle`, EIP-4762's gas functions (SSTORE's has no reentrancy sentry). */
  readonly #eip4762: boolean;
  /** geth's opcode counter, told of every line geth's OnOpcode writes (see OpcodeCounts). */
  readonly #counts: OpcodeCounts | undefined;

  /**
   * `ubt`: on a UBT network, its context, whose `takeTraceGas` tells what the instruction just
   * charged knew of geth's cost of it (its code chunk's gas, which geth's cost leaves out, and
   * more).
   */
  constructor(
    evm: EVMInterface,
    common: Common,
    options: OpcodeTraceOptions,
    sink: TraceSink,
    ubt?: { takeTraceGas(): UbtTraceGas },
    counts?: OpcodeCounts,
  ) {
    this.#ubt = ubt;
    this.#counts = counts;
    this.#eip4762 = isUbtCommon(common) && common.ubtNetwork.verkleOpcodes;
    // The library's EVM always has its event emitter (its type leaves it optional).
    this.#events = evm.events as EvmEvents;
    this.#evm = evm;
    // The library's journal (its interface type leaves the warm set out).
    this.#journal = evm.journal as unknown as { isWarmedAddress(address: Uint8Array): boolean };
    this.#state = evm.stateManager;
    this.#common = common;
    this.#options = options;
    this.#sink = sink;
  }

  /**
   * The transaction `tx` starts executing (undefined: one the library could not build): its
   * trace begins (see TraceSink.begin).
   * `refund`: what geth's refund counter holds before the code runs and the library's does not
   * (see authorizationRefund).
   */
  begin(tx: TypedTransaction | undefined, refund = 0n): void {
    this.#tx = tx;
    this.#refundAtStart = refund;
    this.#frames.length = 0;
    this.#selfDestructed.clear();
    this.#sink.begin(tx?.hash());
    this.#guardRevertOperands();
    // On a UBT network the calls' gas is EIP-4762's or has no cold callee (nothing to watch).
    if (this.#ubt === undefined) {
      for (const op of CALLS) this.#wrapGas(op, (runState) => this.#watchCall(op, runState));
      this.#wrapGas(SELFDESTRUCT, (runState) => this.#watchSelfdestruct(runState));
    }
    this.#events.on("step", this.#onStep);
    this.#events.on("beforeMessage", this.#onMessage);
    this.#events.on("afterMessage", this.#onResult);
  }

  /**
   * The library's step hook reads REVERT's memory operands as it builds the event, before their
   * gas is charged: operands past 2^53 throw a RangeError there (the transaction fails only when
   * traced), smaller ones grow the frame's memory. While tracing, REVERT's gas handler makes
   * that one read (the next on the frame's memory) return nothing.
   */
  #guardRevertOperands(): void {
    this.#wrapGas(REVERT, (runState) => {
      const memory = runState.memory;
      memory.read = () => {
        delete (memory as { read?: unknown }).read;
        return EMPTY;
      };
      return undefined;
    });
  }

  /** Runs `before` ahead of the library's gas handler of `op` until the trace ends. */
  #wrapGas(op: number, before: (runState: GasRunState) => Promise<void> | undefined): void {
    const opcodes = (this.#evm as unknown as { _opcodeMap?: OpcodeEntry[] })._opcodeMap;
    const entry = opcodes?.[op];
    const original = entry?.gasHandler;
    if (entry === undefined || original === undefined || this.#wrapped.has(entry)) return;
    this.#wrapped.set(entry, original);
    entry.gasHandler = (runState, gas, common) => {
      const pending = before(runState);
      if (pending === undefined) return original(runState, gas, common);
      return pending.then(() => original(runState, gas, common));
    };
  }

  /**
   * What geth's cost of a call that fails before it runs depends on and the library does not
   * say once it failed: whether the callee was cold (the library's gas handler warms it), and
   * before Prague for a CALL whether it would create the callee's account.
   */
  #watchCall(op: number, runState: GasRunState): Promise<void> | undefined {
    this.#call = undefined;
    if (runState.stack.length < 3) return undefined;
    const [, to, value] = runState.stack.peek(3) as [bigint, bigint, bigint];
    const address = new Address(stackAddress(to));
    const call: CallInfo = { cold: !this.#journal.isWarmedAddress(address.bytes), creates: false };
    this.#call = call;
    if (op !== CALL || this.#common.gteHardfork(Hardfork.Prague)) return undefined;
    const spurious = this.#common.gteHardfork(Hardfork.SpuriousDragon);
    if (spurious && value === 0n) return undefined;
    return this.#state.getAccount(address).then((account) => {
      call.creates = spurious ? account === undefined || account.isEmpty() : account === undefined;
    });
  }

  /** Whether SELFDESTRUCT's beneficiary is cold (see #watchCall): geth charges that first. */
  #watchSelfdestruct(runState: GasRunState): undefined {
    this.#call = undefined;
    if (runState.stack.length < 1) return undefined;
    const [beneficiary] = runState.stack.peek(1) as [bigint];
    this.#call = {
      cold: !this.#journal.isWarmedAddress(stackAddress(beneficiary)),
      creates: false,
    };
    return undefined;
  }

  /** The transaction is done (applied or refused): its trace ends. */
  end(): void {
    for (const [entry, original] of this.#wrapped) entry.gasHandler = original;
    this.#wrapped.clear();
    this.#call = undefined;
    this.#events.off("step", this.#onStep);
    this.#events.off("beforeMessage", this.#onMessage);
    this.#events.off("afterMessage", this.#onResult);
    this.#frames.length = 0;
    this.#sink.end();
  }

  #step(event: InterpreterStep): void {
    const frame = this.#frames.at(-1);
    if (frame === undefined) return;
    this.#flush(frame);
    this.#closeUnstarted(frame);
    const code = frame.message.code;
    const op = code instanceof Uint8Array && event.pc < code.length ? code[event.pc]! : 0;
    // The step event carries the whole cost (constant and dynamic) as `dynamicFee`.
    const told = this.#ubt?.takeTraceGas() ?? NO_TRACE_GAS;
    const chunk = told.instruction;
    let cost = (event.opcode.dynamicFee ?? BigInt(event.opcode.fee)) - chunk - told.inExecution;
    // What the call can pass on is reckoned after the code chunk is paid too.
    const callee = CALLS.has(op) ? this.#callGas(event, cost + chunk) : undefined;
    if (callee !== undefined) cost += callee;
    frame.pending = {
      pc: event.pc,
      op,
      gas: event.gasLeft,
      cost,
      constant: this.#constantGas(op) ?? BigInt(event.opcode.fee),
      memory: wholeMemory(event.memory, event.memoryWordCount),
      stack: event.stack,
      depth: event.depth + 1,
      refund: event.gasRefund,
      returnData: frame.returnData,
      defined: event.opcode.name !== "INVALID",
      chunk,
      inExecution: told.inExecution,
      ...(told.refused === undefined ? {} : { refused: told.refused }),
      ...(told.call === undefined ? {} : { verkleCall: told.call }),
      previous: frame.previous,
      ...((CALLS.has(op) || op === SELFDESTRUCT) && this.#call !== undefined
        ? { call: this.#call }
        : {}),
      ...(callee === undefined ? {} : { callee }),
      ...(this.#options.callFrames === true && (op === SELFDESTRUCT || op === CREATE)
        ? { account: { balance: event.account.balance, nonce: event.account.nonce } }
        : {}),
    };
    this.#call = undefined;
    frame.previous = { op, cost };
    if (op === SELFDESTRUCT) this.#selfdestructRefund(frame);
  }

  /**
   * The gas geth's call instruction gives the callee, which geth counts in the instruction's
   * cost (`callGas`, core/vm/gas.go): from EIP-150 on at most all but a 64th of what is left
   * once the rest of the cost is paid, before it the stack's value.
   */
  #callGas(event: InterpreterStep, fee: bigint): bigint {
    const requested = event.stack.at(-1) ?? 0n;
    if (!this.#common.gteHardfork(Hardfork.TangerineWhistle)) return requested;
    const available = event.gasLeft - fee;
    return available < 0n ? 0n : callShare(requested, available);
  }

  /**
   * Before London geth's SELFDESTRUCT gas function adds its refund (24,000, once per account and
   * transaction) before the instruction is logged; the library adds it as the instruction runs.
   */
  #selfdestructRefund(frame: Frame): void {
    const step = frame.pending;
    const self = frame.message.to?.toString();
    if (step === undefined || self === undefined || this.#common.isActivatedEIP(3529)) return;
    // Nor when its stack is empty: geth checks the stack before any gas; nor in a static frame,
    // which its gas function refuses first.
    if (step.stack.length === 0 || frame.message.isStatic) return;
    // From Berlin on SELFDESTRUCT has a constant charge (5,000) before the gas function: no
    // refund when geth fails there.
    if (this.#common.gteHardfork(Hardfork.Berlin) && gasAfterChunk(step) < step.constant) return;
    if (this.#selfDestructed.has(self)) return;
    this.#selfDestructed.add(self);
    frame.pending = { ...step, refund: step.refund + SELFDESTRUCT_REFUND };
  }

  /**
   * geth's constant gas of the instructions the library charges wholly as dynamic gas: the
   * calls, from Berlin on the account reads (EIP-2929's warm read of 100); and the other way
   * round, the ones geth charges wholly as dynamic gas (EXP, LOG, SELFDESTRUCT before Berlin).
   */
  #constantGas(op: number): bigint | undefined {
    // EIP-4762's instructions: their constant charge is the library's fee (the rules' own).
    if (this.#eip4762 && VERKLE_OPCODE_RULES.has(op)) return undefined;
    const berlin = this.#common.gteHardfork(Hardfork.Berlin);
    if (CALLS.has(op)) {
      if (berlin) return 100n;
      return this.#common.gteHardfork(Hardfork.TangerineWhistle) ? 700n : 40n;
    }
    if (berlin && ACCOUNT_READS.has(op)) return 100n;
    // Charged wholly by their gas functions (SELFDESTRUCT's 5,000 from Berlin on is constant).
    if (op === EXP || (op >= LOG0 && op <= LOG4)) return 0n;
    return op === SELFDESTRUCT && !berlin ? 0n : undefined;
  }

  /** The frame's held step ran without failing: its line (a call or create may start a frame). */
  #flush(frame: Frame): void {
    const step = frame.pending;
    if (step === undefined) return;
    this.#line(step, undefined);
    frame.pending = undefined;
    // geth's SELFDESTRUCT enters and ends a frame of its own for tracers (gas used 0), moving
    // the balance the account had.
    if (step.op === SELFDESTRUCT) {
      if (this.#options.callFrames === true) {
        this.#entryLine({
          op: SELFDESTRUCT,
          from: this.#addressOf(frame),
          to: stackAddress(step.stack.at(-1) ?? 0n),
          input: EMPTY,
          gas: 0n,
          value: step.account?.balance ?? 0n,
        });
      }
      this.#exitLine(EMPTY, 0n, undefined);
    }
    if (CALLS.has(step.op) || CREATES.has(step.op)) {
      frame.unstarted = step;
      frame.returnData = EMPTY;
    }
  }

  /**
   * A call or create instruction ran and the library started no frame for it: geth enters every
   * call it makes and ends at once one the depth or the balance refuses.
   */
  #closeUnstarted(frame: Frame): void {
    const step = frame.unstarted;
    if (step === undefined) return;
    frame.unstarted = undefined;
    const error =
      step.depth > 1024 ? "max call depth exceeded" : "insufficient balance for transfer";
    if (this.#options.callFrames === true) this.#entryLine(this.#unstartedEntry(step, frame));
    this.#exitLine(EMPTY, 0n, error);
  }

  #enter(message: Message): void {
    const parent = this.#frames.at(-1);
    let byCreate = false;
    if (parent !== undefined) {
      this.#flush(parent);
      byCreate = parent.unstarted !== undefined && CREATES.has(parent.unstarted.op);
    }
    if (this.#options.format === "markdown" && parent === undefined) {
      const entry = this.#enteredBy(message, undefined);
      this.#sink.line(markdownPreExecution(entry, message.to === undefined));
    }
    if (this.#options.callFrames === true) this.#entryLine(this.#enteredBy(message, parent));
    if (parent !== undefined) parent.unstarted = undefined;
    this.#frames.push({
      message,
      byCreate,
      // The library gives a creation its address only after this event.
      deploys: message.to === undefined,
      pending: undefined,
      returnData: EMPTY,
      unstarted: undefined,
      previous: NO_PREVIOUS,
    });
  }

  #exit(result: EVMResult): void {
    const frame = this.#frames.pop();
    if (frame === undefined) return;
    const { exceptionError, returnValue, executionGasUsed } = result.execResult;
    const runState = exceptionError === undefined ? undefined : stateAfter(result);
    const failure =
      exceptionError === undefined
        ? undefined
        : gethDeploymentFailure(exceptionError.error, frame, runState?.returnValue ?? returnValue, {
            ubt: this.#ubt !== undefined,
            london: this.#common.gteHardfork(Hardfork.London),
          });
    let error: string | undefined;
    if (failure !== undefined && !FRAME_FAILURES.has(failure)) {
      let step = frame.pending;
      if (runState !== undefined && isStackFailure(failure) && step?.op !== runState.opCode) {
        // The failing instruction emitted no step (the library's step hook reads REVERT's
        // operands first): the one held ran, and the failing one is where the frame stopped.
        this.#flush(frame);
        this.#closeUnstarted(frame);
        step = this.#stepOf(runState, frame, 0n);
      }
      frame.pending = undefined;
      if (step !== undefined && !step.defined && this.#ubt !== undefined) {
        // An undefined opcode: its code chunk's gas, reckoned as the frame failed (UbtEVM).
        step = { ...step, chunk: this.#ubt.takeTraceGas().instruction };
      }
      if (step !== undefined) {
        const fault = this.#fault(failure, step, frame);
        error = fault.error;
        if (fault.before) {
          // geth fails before it logs the instruction: one line, with the error.
          this.#line(fault.step, error);
        } else {
          // geth logs the instruction, runs it, then logs it again with the error (OnFault),
          // with the stack and memory it left.
          this.#line(fault.step, undefined);
          const after =
            fault.after ??
            (runState === undefined
              ? fault.step
              : {
                  ...this.#stepOf(runState, frame, fault.step.cost),
                  pc: step.pc,
                  op: step.op,
                  gas: step.gas,
                });
          // geth's OnFault passes no return data.
          this.#line({ ...after, returnData: EMPTY, refund: step.refund }, error, true);
        }
      } else {
        error = this.#frameError(failure, frame.message);
      }
    } else {
      this.#flush(frame);
      this.#closeUnstarted(frame);
      if (failure === undefined) this.#implicitStop(frame, result);
      else error = this.#frameError(failure, frame.message);
    }
    const reverted = failure === "revert";
    // geth's frame output: the returned data, also the code a deployment failed to store.
    const output =
      failure === undefined || reverted
        ? returnValue
        : DEPLOYMENT_FAILURES.has(failure)
          ? (runState?.returnValue ?? returnValue)
          : EMPTY;
    // geth words an oversized code with its size and the limit (CheckMaxCodeSize).
    if (failure === CODE_TOO_LARGE) {
      error = `max code size exceeded: code size ${output.length} limit ${MAX_CODE_SIZE}`;
    }
    const parent = this.#frames.at(-1);
    this.#exitLine(output, executionGasUsed, error, parent === undefined);
    // geth's `evm.returnData` after a call: its output; after a create: only a revert's.
    if (parent !== undefined) parent.returnData = frame.byCreate && !reverted ? EMPTY : output;
  }

  /**
   * geth's interpreter reads STOP past the end of the code and logs it: a frame that ran off its
   * code (the library's loop just ends) gets that line, with the state its last instruction left.
   */
  #implicitStop(frame: Frame, result: EVMResult): void {
    const runState = stateAfter(result);
    const code = frame.message.code;
    if (runState === undefined || !(code instanceof Uint8Array)) return;
    if (runState.programCounter < code.length || HALTS.has(runState.opCode)) return;
    // The run state's refund is the frame's first (the result's is its last).
    const refund = result.execResult.gasRefund ?? runState.gasRefund;
    this.#line({ ...this.#stepOf(runState, frame, 0n), op: 0, refund }, undefined);
  }

  /** A step of the frame as its final run state has it, costing `cost` (all of it constant). */
  #stepOf(runState: RunStateView, frame: Frame, cost: bigint): Step {
    return {
      pc: runState.programCounter,
      op: runState.opCode,
      gas: runState.gasLeft,
      cost,
      constant: cost,
      memory: wholeMemory(runState.memory._store, runState.memoryWordCount),
      stack: runState.stack.getStack(),
      depth: frame.message.depth + 1,
      refund: runState.gasRefund,
      returnData: frame.returnData,
      defined: true,
      chunk: 0n,
      inExecution: 0n,
      previous: frame.previous,
    };
  }

  /** A frame's error with no failed instruction (a precompile's, or a deployment's). */
  #frameError(failure: string, message: Message): string {
    const precompile = precompileOf(message);
    if (precompile !== undefined) {
      // geth charges a precompile's gas before it reads the input; the library may refuse the
      // input first.
      const required = gethPrecompileGas(precompile, message.data, this.#common);
      if (required !== undefined && required > message.gasLimit) return "out of gas";
      // MODEXP past EIP-7823's length cap: the library's "out of gas" even where geth's price
      // is paid.
      if (failure === "out of gas" && precompile === 0x05 && this.#common.isActivatedEIP(7823)) {
        const length = gethModexpLengthError(message.data, message.gasLimit);
        if (length !== undefined) return length;
      }
      // Blake2F (0x09): the library's OUT_OF_RANGE for either of geth's two input errors.
      if (failure === "value out of range" && precompile === 0x09) {
        return message.data.length === BLAKE2F_INPUT
          ? "invalid final flag"
          : "invalid input length";
      }
      // The BLS12-381 precompiles: geth decodes point by point (the library checks every
      // element's top bytes first, and words a fault its own way).
      if (failure !== "out of gas" && precompile >= 0x0b && precompile <= 0x11) {
        const bls = gethBls12381InputError(precompile, message.data);
        if (bls !== undefined) return bls;
      }
      if (failure === "kzg commitment does not match versioned hash") {
        return "mismatched versioned hash";
      }
      if (precompile === 0x0a && message.data.length === 192 && KZG_FAILURES.has(failure)) {
        return gethPointEvaluationError(message.data);
      }
      // The BN254 ones: the library says "revert" (or its length error) for any input fault.
      const bn254 = gethBn254InputError(precompile, message.data);
      if (bn254 !== undefined) return bn254;
    }
    return gethFrameError(failure);
  }

  /**
   * How geth fails the instruction the library failed at: its error, whether before logging
   * the instruction (a stack that does not fit, gas it cannot pay, a write its gas function
   * refuses: one line) or after (a second line), the step as geth logs it (its cost as geth
   * had counted it), and for some the state geth's second line shows.
   */
  #fault(failure: string, step: Step, frame: Frame): Fault {
    const constant = { ...step, cost: step.constant };
    if (step.gas < step.chunk) {
      // geth charges the code chunk before it reads the instruction: it logs the one before
      // (whatever the library met first: a write in a static frame, a stack that does not fit).
      return {
        error: "out of gas",
        before: true,
        step: { ...step, op: step.previous.op, cost: step.previous.cost },
      };
    }
    if (
      failure === "out of gas" &&
      step.inExecution > 0n &&
      gasAfterChunk(step) >= step.cost &&
      gasAfterChunk(step) - step.cost < step.inExecution
    ) {
      // geth charges these chunks as the instruction runs: it fails after logging, with what
      // the instruction did before (see #ranUntilChunks).
      return { error: "out of gas", before: false, step, after: this.#ranUntilChunks(step, frame) };
    }
    // geth checks the stack before any gas (the library may fail for gas first).
    const stackError = step.defined ? gethStackError(step.op, step.stack.length) : undefined;
    if (isStackFailure(failure) || stackError !== undefined) {
      return { error: stackError ?? failure, before: true, step: constant };
    }
    if (failure === "invalid opcode" || !step.defined) {
      return { error: `invalid opcode: ${gethOpcodeName(step.op)}`, before: false, step };
    }
    // Then the constant charge.
    if (gasAfterChunk(step) < step.constant) {
      return { error: "out of gas", before: true, step: constant };
    }
    // geth's interpreter reckons the memory size next (undefined: it overflows 64 bits).
    const memory = gethMemorySize(step.op, step.stack);
    if (this.#eip4762 && step.verkleCall !== undefined && CALLS.has(step.op)) {
      return this.#verkleCall(step, frame, step.verkleCall, memory);
    }
    if (failure === "static state change") {
      if (step.refused !== undefined) return refusedWrite(step, step.refused);
      // geth's gas functions of SSTORE, CREATE, CREATE2, CALL and SELFDESTRUCT refuse the write,
      // after the interpreter reckoned the memory size.
      if (WRITE_GAS_CHECKED.has(step.op)) {
        if (memory === undefined)
          return { error: "gas uint64 overflow", before: true, step: constant };
        // Berlin to Cancun, a call pays for a cold callee before its gas function sees the static
        // frame (from Prague geth refuses a value in one first).
        const coldCharge = COLD_ACCOUNT_ACCESS - step.constant;
        if (
          step.call?.cold === true &&
          this.#common.gteHardfork(Hardfork.Berlin) &&
          !this.#common.gteHardfork(Hardfork.Prague) &&
          gasAfterChunk(step) - step.constant < coldCharge
        ) {
          return { error: "out of gas: out of gas", before: true, step: constant };
        }
        return { error: "out of gas: write protection", before: true, step: constant };
      }
      if (step.op >= LOG0 && step.op <= LOG4) return staticLog(step, memory);
      return { error: "write protection", before: false, step };
    }
    if (failure !== "out of gas") return { error: gethFrameError(failure), before: false, step };
    // (The constant charge was paid: the rest of the cost failed.)
    if (memory === undefined) return { error: "gas uint64 overflow", before: true, step: constant };
    if (memory > MAX_MEMORY_FOR_GAS) {
      return { error: "out of gas: gas uint64 overflow", before: true, step: constant };
    }
    if (
      step.op === SELFDESTRUCT &&
      this.#common.gteHardfork(Hardfork.Berlin) &&
      step.call?.cold === true &&
      gasAfterChunk(step) - step.constant < COLD_ACCOUNT_ACCESS
    ) {
      // geth's SELFDESTRUCT gas stops at a cold beneficiary it cannot pay, before the refund.
      const refund = this.#common.isActivatedEIP(3529)
        ? step.refund
        : step.refund - SELFDESTRUCT_REFUND;
      return { error: "out of gas: out of gas", before: true, step: { ...constant, refund } };
    }
    if (
      step.op === SSTORE &&
      gasAfterChunk(step) <= 2300n &&
      this.#common.gteHardfork(Hardfork.Istanbul) &&
      !this.#eip4762
    ) {
      return {
        error: "out of gas: not enough gas for reentrancy sentry",
        before: true,
        step: constant,
      };
    }
    if (step.op === RETURNDATACOPY) {
      const copy = this.#returnDataCopy(step, frame, memory);
      if (copy !== undefined) return copy;
    }
    if (CALLS.has(step.op)) return this.#callOutOfGas(step, memory);
    return { error: "out of gas", before: true, step };
  }

  /**
   * A call that cannot pay its gas, as geth's call gas reckons it: from Prague on it charges the
   * cold callee, the memory, value and new account, and a delegation one by one and stops at the
   * one it cannot pay ("out of gas: out of gas", the constant cost); before, only the cold
   * callee and (CALL) the memory and value are charged that way, and the rest is summed in
   * uint64 with the callee's share of what is left (which wraps where the rest exceeds it), an
   * overflow failing as such.
   */
  #callOutOfGas(step: Step, memory: bigint): Fault {
    const constant = { ...step, cost: step.constant };
    const stopped: Fault = { error: "out of gas: out of gas", before: true, step: constant };
    const common = this.#common;
    const call = step.call;
    if (common.gteHardfork(Hardfork.Prague)) return stopped;
    if (call === undefined) {
      // (On Verkle, EIP-4762's call gas: not reckoned here.)
      return step.op === CALL ? stopped : { error: "out of gas", before: true, step };
    }
    const back = (i: number): bigint => fromTop(step.stack, i);
    const cold = common.gteHardfork(Hardfork.Berlin) && call.cold ? COLD_ACCOUNT_ACCESS - 100n : 0n;
    let left = gasAfterChunk(step) - step.constant;
    if (left < cold) return stopped;
    left -= cold;
    const value = step.op === CALL || step.op === 0xf2 ? back(2) : 0n;
    let intrinsic = memoryExpansionGas(step.memory.length, memory) + (value === 0n ? 0n : 9000n);
    if (step.op === CALL) {
      if (left < intrinsic) return stopped;
      if (call.creates) intrinsic += 25_000n;
    }
    const overflow: Fault = {
      error: "out of gas: gas uint64 overflow",
      before: true,
      step: constant,
    };
    const requested = back(0);
    let callGas = requested;
    if (common.gteHardfork(Hardfork.TangerineWhistle)) {
      callGas = callShare(requested, BigInt.asUintN(64, left - intrinsic));
    } else if (requested >= U64) {
      return overflow;
    }
    const total = intrinsic + callGas;
    if (total >= U64 || total + cold >= U64) return overflow;
    const cost = BigInt.asUintN(64, step.constant + total + cold);
    return { error: "out of gas", before: true, step: { ...step, cost } };
  }

  /**
   * A call that fails before it runs on `Verkle`, as geth's EIP-4762 call gas reckons it: the
   * witness charge first (one it cannot pay is the whole cost, "out of gas"); then, on the gas
   * less the witness (in uint64: a precompile's flat 100 may pass it), a value in a static
   * frame, the memory and (CALL) a new account, and the callee's share; an error past the
   * witness costs the witness alone, an overflow of the sum nothing.
   */
  #verkleCall(step: Step, frame: Frame, met: VerkleCallWitness, memory: bigint | undefined): Fault {
    if (memory === undefined) {
      return { error: "gas uint64 overflow", before: true, step: { ...step, cost: step.constant } };
    }
    const { witness } = met;
    const failed = (error: string, cost: bigint): Fault => ({
      error,
      before: true,
      step: { ...step, cost },
    });
    if (!met.paid) return failed("out of gas", witness);
    const value = step.op === CALL || step.op === 0xf2 ? fromTop(step.stack, 2) : 0n;
    if (step.op === CALL && value !== 0n && frame.message.isStatic) {
      return failed("out of gas: write protection", witness);
    }
    if (memory > MAX_MEMORY_FOR_GAS) return failed("out of gas: gas uint64 overflow", witness);
    const left = BigInt.asUintN(64, gasAfterChunk(step) - step.constant - witness);
    let intrinsic = memoryExpansionGas(step.memory.length, memory);
    if (step.op === CALL) {
      if (left < intrinsic) return failed("out of gas: out of gas", witness);
      if (met.creates) intrinsic += 25_000n;
    }
    const total =
      intrinsic + callShare(fromTop(step.stack, 0), BigInt.asUintN(64, left - intrinsic));
    if (total >= U64) return failed("out of gas: gas uint64 overflow", witness);
    if (total + witness >= U64) return failed("out of gas: gas uint64 overflow", 0n);
    return failed("out of gas", total + witness);
  }

  /**
   * RETURNDATACOPY past the return data: the library fails it for gas; geth charges the copy
   * and the memory, then fails it as it runs (its operands popped, the memory grown).
   */
  #returnDataCopy(step: Step, frame: Frame, memory: bigint): Fault | undefined {
    const [length = 0n, from = 0n] = [step.stack.at(-3), step.stack.at(-2)];
    if (from + length <= BigInt(frame.returnData.length)) return undefined;
    const words = (length + 31n) / 32n;
    const cost = step.constant + memoryExpansionGas(step.memory.length, memory) + 3n * words;
    if (cost > gasAfterChunk(step))
      return { error: "out of gas", before: true, step: { ...step, cost } };
    const grown = grownTo(step.memory, memory);
    return {
      error: "return data out of bounds",
      before: false,
      step: { ...step, cost },
      after: { ...step, cost, memory: grown, stack: step.stack.slice(0, -3) },
    };
  }

  /**
   * A `Verkle` step as geth's instruction leaves it where it charges the chunks (and fails for
   * them): a PUSH has pushed its bytes; EXTCODECOPY has popped its operands, its memory grown.
   */
  #ranUntilChunks(step: Step, frame: Frame): Step {
    if (step.op === EXTCODECOPY) {
      const memory = grownTo(step.memory, gethMemorySize(step.op, step.stack) ?? 0n);
      return { ...step, memory, stack: step.stack.slice(0, -4) };
    }
    const code = frame.message.code instanceof Uint8Array ? frame.message.code : EMPTY;
    const size = step.op - 0x5f;
    const bytes = code.subarray(step.pc + 1, step.pc + 1 + size);
    const pushed = bytesToBigInt(bytes) << BigInt(8 * (size - bytes.length));
    return { ...step, stack: [...step.stack, pushed] };
  }

  /** The address the frame runs at (a creation's once the library has made it). */
  #addressOf(frame: Frame): Uint8Array {
    return frame.message.to?.bytes ?? EMPTY;
  }

  #entryLine(entry: CallFrameEntry): void {
    // geth's markdown logger announces only the transaction's frame (markdownPreExecution).
    if (this.#options.format === "markdown") return;
    this.#sink.line(callFrameLine(entry, this.#options.memory === true));
  }

  /**
   * The entry of a frame the library starts: the transaction's own (a creation's address from
   * the sender's nonce: on UBT the library may fail it before it makes one), or one for the
   * instruction `parent` holds — geth's caller is the executing account (a DELEGATECALL's too),
   * its callee the stack's address (the code a DELEGATECALL or CALLCODE runs), a creation's the
   * account made; a STATICCALL has no value.
   */
  #enteredBy(message: Message, parent: Frame | undefined): CallFrameEntry {
    const step = parent?.unstarted;
    if (parent === undefined || step === undefined) {
      const nonce = this.#tx?.nonce ?? 0n;
      return {
        op: message.to === undefined ? CREATE : CALL,
        from: message.caller.bytes,
        to: message.to?.bytes ?? generateAddress(message.caller.bytes, bigIntToBytes(nonce)),
        input: message.data,
        gas: message.gasLimit,
        value: message.value,
      };
    }
    const from = this.#addressOf(parent);
    return {
      op: step.op,
      from,
      to: CALLS.has(step.op)
        ? stackAddress(step.stack.at(-2) ?? 0n)
        : createdAddress(step, from, message.data),
      input: message.data,
      gas: message.gasLimit,
      value: step.op === STATICCALL ? undefined : message.value,
    };
  }

  /**
   * The entry geth writes for a call or creation the depth or the balance refuses (the library
   * starts no frame): from the instruction's operands, the callee's share of the gas (a value
   * call's stipend added), a creation's address from the executing account's nonce or CREATE2's
   * salt and code.
   */
  #unstartedEntry(step: Step, frame: Frame): CallFrameEntry {
    const self = this.#addressOf(frame);
    const stack = step.stack;
    const operand = (k: number): bigint => stack.at(-1 - k) ?? 0n;
    if (CALLS.has(step.op)) {
      const withValue = step.op === CALL || step.op === CALLCODE;
      const args = withValue ? 3 : 2;
      const value = withValue ? operand(2) : step.op === DELEGATECALL ? frame.message.value : 0n;
      return {
        op: step.op,
        from: self,
        to: stackAddress(operand(1)),
        input: memorySlice(step.memory, operand(args), operand(args + 1)),
        gas: (step.callee ?? 0n) + (withValue && value !== 0n ? CALL_STIPEND : 0n),
        value: step.op === STATICCALL ? undefined : value,
      };
    }
    const code = memorySlice(step.memory, operand(1), operand(2));
    const left = gasAfterChunk(step) - step.cost;
    return {
      op: step.op,
      from: self,
      to: createdAddress(step, self, code),
      input: code,
      gas: this.#common.gteHardfork(Hardfork.TangerineWhistle) ? left - left / 64n : left,
      value: operand(0),
    };
  }

  /** `fault`: geth's OnFault line, the repeat of an instruction that failed as it ran. */
  #line(step: Step, error: string | undefined, fault = false): void {
    if (!fault) this.#counts?.count(step.op);
    const options = this.#options;
    if (options.format === "markdown") {
      this.#sink.line(
        fault
          ? markdownFault(step.pc, step.op, error ?? "")
          : markdownStepRow(
              step.pc,
              step.op,
              step.cost,
              step.refund + this.#refundAtStart,
              options.noStack === true ? undefined : step.stack,
              error,
            ),
      );
      return;
    }
    let json = `{"pc":${step.pc},"op":${step.op},"gas":"0x${step.gas.toString(16)}","gasCost":"0x${BigInt.asUintN(64, step.cost).toString(16)}"`;
    if (options.memory === true && step.memory.length > 0)
      json += `,"memory":"${bytesToHex(step.memory)}"`;
    json += `,"memSize":${step.memory.length}`;
    json +=
      options.noStack === true
        ? `,"stack":null`
        : `,"stack":[${step.stack.map((v) => `"0x${v.toString(16)}"`).join(",")}]`;
    if (options.returnData === true && step.returnData.length > 0) {
      json += `,"returnData":"${bytesToHex(step.returnData)}"`;
    }
    json += `,"depth":${step.depth},"refund":${step.refund + this.#refundAtStart},"opName":${goString(gethOpcodeName(step.op))}`;
    if (error !== undefined) json += `,"error":${goString(error)}`;
    this.#sink.line(`${json}}`);
  }

  /** `top`: the transaction's own frame ends (the markdown table sums up only that one). */
  #exitLine(output: Uint8Array, gasUsed: bigint, error: string | undefined, top = false): void {
    if (this.#options.format === "markdown") {
      if (top) this.#sink.line(markdownPostExecution(output, gasUsed, error));
      return;
    }
    // As geth's uint64 (a UBT frame's reckoning can go below zero in both).
    let json = `{"output":"${bytesToHex(output).slice(2)}","gasUsed":"0x${BigInt.asUintN(64, gasUsed).toString(16)}"`;
    if (error !== undefined && error !== "") json += `,"error":${goString(error)}`;
    this.#sink.line(`${json}}`);
  }
}

/** geth's gas per byte of deployed code (params.CreateDataGas), off UBT networks. */
const CREATE_DATA_GAS = 200n;

/**
 * A creation's failure once its code has run, as geth has it. geth checks the code's first
 * byte (0xEF, from London on), then charges for storing the code (on a UBT network its
 * chunks, 200 gas a byte elsewhere), then checks its size; the library checks in another
 * order, and says only "out of gas" where the frame cannot pay for storing the code.
 */
function gethDeploymentFailure(
  failure: string,
  frame: Frame,
  code: Uint8Array,
  rules: { readonly ubt: boolean; readonly london: boolean },
): string {
  const step = frame.pending;
  if (!frame.deploys || step === undefined || step.op !== RETURN) return failure;
  const left = gasAfterChunk(step) - step.cost;
  // "out of gas" once the RETURN was paid: storing the code failed.
  const storing = failure === "out of gas" && left >= 0n;
  if (!storing && !DEPLOYMENT_FAILURES.has(failure)) return failure;
  if (rules.london && code[0] === 0xef) return "invalid bytecode deployed";
  if (storing) return "code store out of gas";
  if (!rules.ubt && BigInt(code.length) * CREATE_DATA_GAS > left) return "code store out of gas";
  return failure;
}

/** blake2f's input: rounds (4), h (64), m (128), t (16), the final flag (1). */
const BLAKE2F_INPUT = 213;

/** The library's failures of a point evaluation whose proof does not verify (or decode). */
const KZG_FAILURES = new Set(["kzg proof invalid", "kzg inputs invalid", "revert"]);

/** The library's final run state of a frame (absent for a precompile or an empty code). */
function stateAfter(result: EVMResult): RunStateView | undefined {
  return result.execResult.runState as RunStateView | undefined;
}

function isStackFailure(failure: string): boolean {
  return failure === "stack underflow" || failure === "stack overflow";
}

/**
 * The gas geth's precompile asks before it runs (its RequiredGas), for those whose input the
 * library may refuse before it charges: blake2f (its rounds; nothing for an input of another
 * length, which it refuses), the BN254 (EIP-1108 from Istanbul) and BLS12-381 ones and the
 * point evaluation; undefined for the others (the MSMs of one pair or more: the library checks
 * their gas first, as geth does).
 */
function gethPrecompileGas(
  precompile: number,
  input: Uint8Array,
  common: Common,
): bigint | undefined {
  const size = BigInt(input.length);
  const istanbul = common.gteHardfork(Hardfork.Istanbul);
  switch (precompile) {
    case 0x09:
      return input.length === BLAKE2F_INPUT ? bytesToBigInt(input.subarray(0, 4)) : 0n;
    case 0x06:
      return istanbul ? 150n : 500n;
    case 0x07:
      return istanbul ? 6000n : 40_000n;
    case 0x08:
      return istanbul ? 45_000n + 34_000n * (size / 192n) : 100_000n + 80_000n * (size / 192n);
    case 0x0a:
      return 50_000n;
    case 0x0b:
      return 375n;
    case 0x0c:
      return size < 160n ? 0n : undefined;
    case 0x0d:
      return 600n;
    case 0x0e:
      return size < 288n ? 0n : undefined;
    case 0x0f:
      return 37_700n + 32_600n * (size / 384n);
    case 0x10:
      return 5500n;
    case 0x11:
      return 23_800n;
    default:
      return undefined;
  }
}

/** The number of the precompile the message runs (its code a function), if it runs one. */
function precompileOf(message: Message): number | undefined {
  // First: a creation has no code address (the library's getter throws).
  if (!message.isCompiled) return undefined;
  // The code's address: a DELEGATECALL's `to` is the caller's own.
  const at = message.codeAddress.bytes;
  return at.subarray(0, 19).every((b) => b === 0) ? at[19] : undefined;
}

/**
 * geth's share of what is left that a call passes on (callGas, core/vm/gas.go, from EIP-150):
 * all but a 64th of `available`, or the stack's request where that is less.
 */
function callShare(requested: bigint, available: bigint): bigint {
  const share = available - available / 64n;
  return requested >= U64 || share < requested ? share : requested;
}

/**
 * A frame's error in geth's words (core/vm/errors.go) where the library words it otherwise:
 * a system call's words (gethCallError: REVERT, JUMP), and those only a transaction meets.
 */
function gethFrameError(failure: string): string {
  return FRAME_ERRORS.get(failure) ?? gethCallError(failure);
}

/** The library's failure of a deployment whose code is over the limit. */
const CODE_TOO_LARGE = "code size to deposit exceeds maximum code size";
/** EIP-170's limit (geth's params.MaxCodeSize; Amsterdam's larger one is not offered). */
const MAX_CODE_SIZE = 24_576;
/** Failures of a deployment's returned code. */
const DEPLOYMENT_FAILURES = new Set([
  "code store out of gas",
  CODE_TOO_LARGE,
  "invalid bytecode deployed",
]);

/** Failures of a frame once its code has run (the code it deploys), not of an instruction. */
const FRAME_FAILURES = new Set([
  ...DEPLOYMENT_FAILURES,
  "create collision",
  "initcode exceeds max initcode size",
]);

const FRAME_ERRORS = new Map([
  ["static state change", "write protection"],
  ["value out of range", "return data out of bounds"],
  ["code store out of gas", "contract creation code storage out of gas"],
  ["create collision", "contract address collision"],
  ["invalid bytecode deployed", "invalid code: must not begin with 0xef"],
  ["initcode exceeds max initcode size", "max initcode size exceeded"],
]);

/** A string as Go's encoding/json writes it: HTML characters escaped. */
function goString(text: string): string {
  return JSON.stringify(text)
    .replace(/</g, "\\u003c")
    .replace(/>/g, "\\u003e")
    .replace(/&/g, "\\u0026")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}

/**
 * A frame's memory at its size in words: the library grows its store when it writes, so after
 * an instruction that only reserved memory (a failed call's output area) the store is shorter
 * than the memory geth has; the rest is zeros.
 */
function wholeMemory(store: Uint8Array, words: bigint): Uint8Array {
  const size = Number(words) * 32;
  return grownTo(store.length > size ? store.subarray(0, size) : store, BigInt(size));
}

/** A frame's memory grown to `size` bytes (geth resizes it before the instruction runs). */
function grownTo(memory: Uint8Array, size: bigint): Uint8Array {
  if (size <= BigInt(memory.length)) return memory;
  const grown = new Uint8Array(Number(size));
  grown.set(memory);
  return grown;
}

/**
 * The gas a step's instruction has once its code chunk is paid (on a UBT network geth charges
 * it before the instruction; the step's gas, as geth logs it, is from before).
 */
function gasAfterChunk(step: Step): bigint {
  return step.gas - step.chunk;
}

/**
 * On `Verkle`, a write a static frame refuses (SSTORE, SELFDESTRUCT): geth's gas function
 * charges its witness (`refused`) first, failing for gas there if it cannot pay, then the
 * instruction refuses the write as it runs, its operands not yet popped.
 */
function refusedWrite(step: Step, refused: bigint): Fault {
  return chargedThenRefused(step, step.constant + refused, step);
}

/**
 * A LOG in a static call: the library refuses it before its gas; geth charges the gas (memory,
 * topics, data), then refuses it as it runs, its memory grown and its operands not yet popped.
 */
function staticLog(step: Step, memory: bigint | undefined): Fault {
  if (memory === undefined)
    return { error: "gas uint64 overflow", before: true, step: { ...step, cost: 0n } };
  if (memory > MAX_MEMORY_FOR_GAS) {
    return {
      error: "out of gas: gas uint64 overflow",
      before: true,
      step: { ...step, cost: 0n },
    };
  }
  const topics = BigInt(step.op - LOG0);
  const cost =
    memoryExpansionGas(step.memory.length, memory) +
    LOG_GAS * (1n + topics) +
    LOG_DATA_GAS * fromTop(step.stack, 1);
  return chargedThenRefused(step, cost, { ...step, memory: grownTo(step.memory, memory) });
}

/**
 * A write a static frame refuses after geth charged its gas: out of gas before it runs where the
 * gas left cannot pay `cost`; else the write refused as it runs, `after` being the step as the
 * refusal leaves it (its cost is `cost` too).
 */
function chargedThenRefused(step: Step, cost: bigint, after: Step): Fault {
  if (cost > gasAfterChunk(step))
    return { error: "out of gas", before: true, step: { ...step, cost } };
  return {
    error: "write protection",
    before: false,
    step: { ...step, cost },
    after: { ...after, cost },
  };
}

/** The address a stack word names (its low 160 bits), as 20 bytes. */
function stackAddress(word: bigint): Uint8Array {
  return setLengthLeft(bigIntToBytes(BigInt.asUintN(160, word)), 20);
}

/** memory[offset, offset + size), zero past its end (what geth reads after resizing). */
function memorySlice(memory: Uint8Array, offset: bigint, size: bigint): Uint8Array {
  if (size === 0n) return EMPTY;
  const bytes = new Uint8Array(Number(size));
  if (offset < BigInt(memory.length)) {
    const start = Number(offset);
    bytes.set(memory.subarray(start, start + bytes.length));
  }
  return bytes;
}

/**
 * The account a CREATE (from the creator's nonce as the instruction started) or CREATE2 (from
 * its salt and the code) at `step` makes: the library may fail a creation before it makes one.
 */
function createdAddress(step: Step, creator: Uint8Array, code: Uint8Array): Uint8Array {
  if (step.op === CREATE) return generateAddress(creator, bigIntToBytes(step.account?.nonce ?? 0n));
  const salt = setLengthLeft(bigIntToBytes(step.stack.at(-4) ?? 0n), 32);
  return generateAddress2(creator, salt, code);
}
