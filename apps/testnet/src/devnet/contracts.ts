import { hexToBytes } from "@ethereumjs/util";
import { TestnetError } from "../chain/testnet-error.js";

/**
 * Devnet contracts, hand-assembled (tiny, so their bytecode is easy to check by eye).
 *
 * STORAGE_WRITER: SSTORE(calldata[0:32], calldata[32:64]); a zero value clears the slot.
 *   PUSH1 0x20 CALLDATALOAD PUSH1 0x00 CALLDATALOAD SSTORE STOP
 */
export const STORAGE_WRITER_RUNTIME: Uint8Array = hexToBytes("0x6020356000355500");

/**
 * COUNTER: slot 0 += 1 on every call.
 *   PUSH1 0 SLOAD PUSH1 1 ADD PUSH1 0 SSTORE STOP
 */
export const COUNTER_RUNTIME: Uint8Array = hexToBytes("0x60005460010160005500");

/**
 * Init code that sets slot 1 = 0x2a, then returns `runtime` (at most 255 bytes):
 *   PUSH1 0x2a PUSH1 1 SSTORE
 *   PUSH1 len DUP1 PUSH1 16 PUSH1 0 CODECOPY PUSH1 0 RETURN
 *   runtime
 */
export function deployCode(runtime: Uint8Array): Uint8Array {
  if (runtime.length > 255)
    throw new TestnetError(
      "INVALID_INPUT",
      `deployCode: runtime is ${runtime.length} bytes, at most 255 fit`,
    );
  const prefix = [0x60, 0x2a, 0x60, 0x01, 0x55, 0x60, runtime.length, 0x80, 0x60, 16, 0x60, 0x00];
  prefix.push(0x39, 0x60, 0x00, 0xf3);
  const out = new Uint8Array(prefix.length + runtime.length);
  out.set(prefix, 0);
  out.set(runtime, prefix.length);
  return out;
}

/** Init code that writes slot 7 and then SELFDESTRUCTs to `beneficiary` (created and deleted in one tx). */
export function selfDestructingInit(beneficiary: Uint8Array): Uint8Array {
  const out = new Uint8Array(5 + 21 + 1);
  out.set([0x60, 0x01, 0x60, 0x07, 0x55], 0); // PUSH1 1 PUSH1 7 SSTORE
  out[5] = 0x73; // PUSH20
  out.set(beneficiary, 6);
  out[26] = 0xff; // SELFDESTRUCT
  return out;
}

/** Calldata for STORAGE_WRITER: 32-byte slot then 32-byte value. */
export function storageWriteCall(slot: bigint, value: bigint): Uint8Array {
  const out = new Uint8Array(64);
  for (let i = 0; i < 32; i++) {
    out[31 - i] = Number((slot >> BigInt(8 * i)) & 0xffn);
    out[63 - i] = Number((value >> BigInt(8 * i)) & 0xffn);
  }
  return out;
}
