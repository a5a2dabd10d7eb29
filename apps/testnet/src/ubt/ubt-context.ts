import { bytesToHex } from "@bintrie/core";
import type { Address } from "@ethereumjs/util";
import { AccessEvents } from "./access-events.js";
import type { UbtNetwork } from "./ubt-network.js";

/** EIP-2935's history contract (params/protocol_params.go). */
export const HISTORY_STORAGE_ADDRESS = "0000f90827f1c53a10cb7a02335b175320002935";
/** The length of the EIP-2935 contract's ring buffer of block hashes. */
export const HISTORY_SERVE_WINDOW = 8191n;

/** On `Verkle`, what a call met in geth's EIP-4762 call gas (makeCallVariantGasEIP4762). */
export interface VerkleCallWitness {
  /** The witness charge: the callee's (and with a value the caller's) BASIC_DATA, or 100. */
  readonly witness: bigint;
  /** It fit the gas left (geth goes on to the memory and the callee's share). */
  readonly paid: boolean;
  /** CALL: its value goes to an empty account (25,000 more). */
  creates: boolean;
}

/**
 * What an instruction's gas handler tells a trace of geth's cost of it. `instruction`: its code
 * chunk's gas, which geth charges in its interpreter loop; `inExecution`: on `Verkle`, the
 * chunks geth charges as the instruction runs (a PUSH's immediate bytes', the ones EXTCODECOPY
 * copies); both part of the library's cost, not of geth's. On `Verkle` too: `refused`, the gas
 * geth's gas function charged for a write that a static frame then refuses as it runs (SSTORE,
 * SELFDESTRUCT: the library refuses it at once); `call`, a call's witness charge.
 */
export interface UbtTraceGas {
  instruction: bigint;
  inExecution: bigint;
  refused: bigint | undefined;
  call: VerkleCallWitness | undefined;
}

/** A record of nothing told (a fresh one: the gas handlers write into it). */
export function noTraceGas(): UbtTraceGas {
  return { instruction: 0n, inExecution: 0n, refused: undefined, call: undefined };
}

/**
 * What the UBT rules share while a VM runs: the network, the current transaction's access
 * events (geth makes a new `AccessEvents` per transaction in `SetTxContext`), and the block's
 * witness (their union, as geth's `StateDB.AccessEvents().Merge`).
 */
export class UbtContext {
  readonly network: UbtNetwork;
  /** The current transaction's (or system call's) access events. */
  events = new AccessEvents();
  /** Every access of the current block. */
  blockWitness = new AccessEvents();
  /** The block's fee recipient, for geth's coinbase touch after the fee. */
  coinbase: string | undefined;
  /**
   * The running transaction's gas limit, and whether it carries EIP-7702 authorizations (whose
   * refunds join the transaction's): what a transaction's gas used is reckoned against.
   */
  transaction: { gasLimit: bigint; authorizations: boolean } | undefined;
  /** Answers whether an address (unprefixed hex) is an active precompile. */
  isPrecompile: (address: string) => boolean = () => false;
  /** A state read that failed inside an event hook, thrown by the next frame (see UbtEVM). */
  pendingError: unknown;
  /**
   * Per message depth, whether the frame there was entered by STATICCALL (set by the CALL and
   * STATICCALL instructions as they run; depth 0, a transaction or system call, is a CALL).
   * ethereumjs' message says only that a frame is static, which a CALL inside one is too.
   */
  readonly staticCallAt: boolean[] = [];
  /**
   * What the instruction being charged tells a trace of geth's cost of it: set by its gas
   * handler, taken (and cleared) by the trace (see UbtTraceGas).
   */
  traceGas: UbtTraceGas = noTraceGas();
  /** Called by `beginBlock` (the VM resets its block-long warm set here). */
  onBeginBlock: () => void = () => {};
  /**
   * Warms an address (unprefixed hex) and a slot of it for the rest of the block, as geth's
   * access list keeps what a system call or EIP-7702 adds (the VM's warm model sets it).
   */
  warmForBlock: (address: string, slot?: Uint8Array) => void = () => {};

  constructor(network: UbtNetwork) {
    this.network = network;
  }

  /** What the instruction just charged told a trace (see traceGas), cleared. */
  takeTraceGas(): UbtTraceGas {
    const taken = this.traceGas;
    this.traceGas = noTraceGas();
    return taken;
  }

  /** Starts a transaction or system call: fresh access events, merged into the block's. */
  beginMessage(): AccessEvents {
    this.blockWitness.merge(this.events);
    this.events = new AccessEvents();
    return this.events;
  }

  /** Throws (once) an error an event hook could not throw itself. */
  throwPendingError(): void {
    const error = this.pendingError;
    if (error === undefined) return;
    this.pendingError = undefined;
    throw error;
  }

  /** Starts a block: an empty witness. */
  beginBlock(coinbase: Address | undefined): void {
    this.events = new AccessEvents();
    this.blockWitness = new AccessEvents();
    this.coinbase = coinbase === undefined ? undefined : addressKey(coinbase.bytes);
    this.onBeginBlock();
  }
}

/** Unprefixed lowercase hex of a 20-byte address (the access-event key). */
export function addressKey(bytes: Uint8Array): string {
  return bytesToHex(bytes).slice(2);
}

/** The address key of a stack word (its low 20 bytes). */
export function stackAddressKey(word: bigint): string {
  return (word & ADDRESS_MASK).toString(16).padStart(40, "0");
}

const ADDRESS_MASK = (1n << 160n) - 1n;
