import { bytesToHex, toChecksumAddress } from "@ethereumjs/util";
import type { CallFrameEntry } from "./call-frame-line.js";
import { gethOpcodeName } from "./geth-opcode-table.js";

/**
 * The lines of geth's markdown logger (`evm blocktest --trace --trace.format md`,
 * eth/tracers/logger's mdLogger): a table row per instruction, the transaction's frame
 * announced before its table and summed up after it. Each function returns the text of one
 * hook, lines joined by "\n", without the last newline (the trace sink adds it).
 */

/** The table's head, as geth writes it after the pre-execution lines. */
const TABLE_HEAD =
  "|  Pc   |      Op     | Cost |   Refund  |   Stack   |\n|-------|-------------|------|-----------|-----------|";

/** What geth writes as the transaction's frame starts (its OnEnter at depth 0). */
export function markdownPreExecution(entry: CallFrameEntry, creates: boolean): string {
  return [
    "Pre-execution info:",
    `  - from: \`${toChecksumAddress(bytesToHex(entry.from))}\``,
    `  - ${creates ? "create" : "to"}: \`${toChecksumAddress(bytesToHex(entry.to))}\``,
    `  - data: \`${goHex(entry.input)}\``,
    `  - gas: \`${BigInt.asUintN(64, entry.gas)}\``,
    `  - value: \`${entry.value ?? "<nil>"}\` wei`,
    "",
    TABLE_HEAD,
  ].join("\n");
}

/**
 * An instruction's row (geth's OnOpcode): pc, name, cost, the refund counter and, unless the
 * stack is left out, the stack bottom first; an error geth met before it ran on a line after.
 */
export function markdownStepRow(
  pc: number,
  op: number,
  cost: bigint,
  refund: bigint,
  stack: readonly bigint[] | undefined,
  error: string | undefined,
): string {
  let row = `| ${padStart(pc, 4)}  | ${padStart(gethOpcodeName(op), 10)}  |  ${padStart(BigInt.asUintN(64, cost), 3)} |${padStart(refund, 10)} |`;
  if (stack !== undefined) {
    row += `${padStart(`[${stack.map((v) => `0x${v.toString(16)}`).join(",")}]`, 10)} |`;
  }
  return error === undefined ? row : `${row}\nError: ${error}`;
}

/**
 * geth's OnFault line: the instruction failed as it ran. Its opcode is printed as a number
 * (geth formats the byte, not the opcode).
 */
export function markdownFault(pc: number, op: number, error: string): string {
  return `\nError: at pc=${pc}, op=${op}: ${error}`;
}

/** What geth writes as the transaction's frame ends (its OnExit at depth 0). */
export function markdownPostExecution(
  output: Uint8Array,
  gasUsed: bigint,
  error: string | undefined,
): string {
  return [
    "",
    "Post-execution info:",
    `  - output: \`${goHex(output)}\``,
    `  - consumed gas: \`${BigInt.asUintN(64, gasUsed)}\``,
    `  - error: \`${error === undefined || error === "" ? "<nil>" : error}\``,
  ].join("\n");
}

/** Go's `%#x` of a byte slice: 0x-prefixed hex, nothing at all for no bytes. */
function goHex(bytes: Uint8Array): string {
  return bytes.length === 0 ? "" : bytesToHex(bytes);
}

/** Go's `%Nv` of a number or string: right-aligned in N characters, longer ones whole. */
function padStart(value: number | bigint | string, width: number): string {
  return String(value).padStart(width, " ");
}
