import { BintrieError } from "@bintrie/core";

export type JsonRpcErrorCode =
  | "PARSE_ERROR"
  | "INVALID_REQUEST"
  | "METHOD_NOT_FOUND"
  | "INVALID_PARAMS"
  /** The call or transaction reverted (its revert data in `data`). */
  | "EXECUTION_REVERTED"
  /** A transaction, call or state query the node cannot take (geth's -32000 errors). */
  | "REJECTED"
  | "INTERNAL_ERROR";

/** The JSON-RPC 2.0 error number of each code (execution-apis: 3 for a revert, -32000 for geth's others). */
const NUMBER_OF: Record<JsonRpcErrorCode, number> = {
  PARSE_ERROR: -32700,
  INVALID_REQUEST: -32600,
  METHOD_NOT_FOUND: -32601,
  INVALID_PARAMS: -32602,
  EXECUTION_REVERTED: 3,
  REJECTED: -32000,
  INTERNAL_ERROR: -32603,
};

/** A JSON-RPC request the devnet's server answers with an error object. */
export class JsonRpcError extends BintrieError<JsonRpcErrorCode> {
  override name = "JsonRpcError";
  /** The error object's `code`. */
  readonly rpcCode: number;
  /** The error object's `data` (revert data as 0x-hex), if any. */
  readonly data?: string;

  constructor(code: JsonRpcErrorCode, message: string, data?: string) {
    super(code, message);
    this.rpcCode = NUMBER_OF[code];
    if (data !== undefined) this.data = data;
  }
}
