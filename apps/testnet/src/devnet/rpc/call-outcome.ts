import { bytesToHex } from "@bintrie/core";
import type { RunTxResult } from "@ethereumjs/vm";
import { libraryReason } from "../transaction-refused.js";
import { JsonRpcError } from "./json-rpc-error.js";

/** The result of a call: its return data, or the error object geth gives a failed call. */
export function outcome(result: RunTxResult): string {
  const { exceptionError, returnValue } = result.execResult;
  if (exceptionError === undefined) return bytesToHex(returnValue);
  if (exceptionError.error === "revert") {
    const reason = revertReason(returnValue);
    throw new JsonRpcError(
      "EXECUTION_REVERTED",
      reason === undefined ? "execution reverted" : `execution reverted: ${reason}`,
      bytesToHex(returnValue),
    );
  }
  throw new JsonRpcError("REJECTED", exceptionError.error);
}

/** The reason string of Solidity's `Error(string)` revert data, if that is what it is. */
export function revertReason(data: Uint8Array): string | undefined {
  if (data.length < 68 || bytesToHex(data.subarray(0, 4)) !== "0x08c379a0") return undefined;
  const length = Number(BigInt(bytesToHex(data.subarray(36, 68))));
  if (68 + length > data.length) return undefined;
  return new TextDecoder().decode(data.subarray(68, 68 + length));
}

/** The library refused to run a call (a fee under the base fee, too little gas…): geth's -32000. */
export function rejected(cause: unknown): never {
  throw new JsonRpcError("REJECTED", libraryReason(cause));
}
