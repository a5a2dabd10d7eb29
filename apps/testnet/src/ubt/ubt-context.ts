import { bytesToHex } from "@bintrie/core";
import type { Address } from "@ethereumjs/util";
import { AccessEvents } from "./access-events.js";
import type { UbtNetwork } from "./ubt-network.js";

/** EIP-2935's history contract (params/protocol_params.go). */
export const HISTORY_STORAGE_ADDRESS = "0000f90827f1c53a10cb7a02335b175320002935";
/** The length of the EIP-2935 contract's ring buffer of block hashes. */
export const HISTORY_SERVE_WINDOW = 8191n;

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
   * The code-chunk gas the instruction being charged pays: its own chunk's (`instruction`), and
   * on `Verkle` what geth charges as the instruction runs (`inExecution`: a PUSH's immediate
   * bytes' chunks, the chunks EXTCODECOPY copies). Part of the library's cost of it, not of
   * geth's (which charges the one in its interpreter loop, the other in the instruction), for a
   * trace to take out; set by each instruction's gas handler, taken (and cleared) by the trace.
   */
  chunkGas = { instruction: 0n, inExecution: 0n };
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

  /** The code-chunk gas of the instruction just charged (see chunkGas), cleared. */
  takeChunkGas(): { instruction: bigint; inExecution: bigint } {
    const taken = { ...this.chunkGas };
    this.chunkGas.instruction = 0n;
    this.chunkGas.inExecution = 0n;
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
