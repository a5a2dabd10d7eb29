import { bytesToHex } from "@ethereumjs/util";
import { gethOpcodeName } from "./geth-opcode-table.js";

/**
 * A call frame as geth's JSON logger announces it with `--trace.callframes` (its OnEnter,
 * eth/tracers/logger/logger_json.go): what entered it (CALL, CALLCODE, DELEGATECALL,
 * STATICCALL, CREATE, CREATE2, SELFDESTRUCT; a transaction's own frame CALL or CREATE), who,
 * what, with which input, gas and value.
 */
export interface CallFrameEntry {
  /** The opcode that entered the frame. */
  readonly op: number;
  readonly from: Uint8Array;
  /** The callee, the code a DELEGATECALL or CALLCODE runs, or the account a creation makes. */
  readonly to: Uint8Array;
  readonly input: Uint8Array;
  /** The gas the frame starts with (a value call's stipend included). */
  readonly gas: bigint;
  /** Undefined for a STATICCALL (geth's null). */
  readonly value: bigint | undefined;
}

/**
 * geth's line for `entry`: `{"from","to","input","gas","value","type"}`, the input only where
 * the trace has memory and the input is not empty (geth's `omitempty`).
 */
export function callFrameLine(entry: CallFrameEntry, withInput: boolean): string {
  let json = `{"from":"${bytesToHex(entry.from)}","to":"${bytesToHex(entry.to)}"`;
  if (withInput && entry.input.length > 0) json += `,"input":"${bytesToHex(entry.input)}"`;
  json += `,"gas":"0x${BigInt.asUintN(64, entry.gas).toString(16)}"`;
  json += `,"value":${entry.value === undefined ? "null" : `"0x${entry.value.toString(16)}"`}`;
  return `${json},"type":"${gethOpcodeName(entry.op)}"}`;
}
