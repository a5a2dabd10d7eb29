import type { Address } from "@ethereumjs/util";
import { JsonRpcError } from "./json-rpc-error.js";
import {
  accessListParam,
  addressParam,
  bytesParam,
  objectParam,
  quantityParam,
  typeParam,
} from "./rpc-params.js";

/** A call object's fields (execution-apis `GenericTransaction`), parsed. */
export interface CallRequest {
  readonly from?: Address;
  readonly to?: Address;
  readonly gas?: bigint;
  readonly gasPrice?: bigint;
  readonly maxFeePerGas?: bigint;
  readonly maxPriorityFeePerGas?: bigint;
  readonly value?: bigint;
  readonly data?: Uint8Array;
  readonly nonce?: bigint;
  /** 0, 1 or 2 (a legacy, access-list or EIP-1559 transaction). */
  readonly type?: number;
  readonly chainId?: bigint;
  readonly accessList?: { address: string; storageKeys: string[] }[];
}

export const CALL_FIELDS = [
  "from",
  "to",
  "gas",
  "gasPrice",
  "maxFeePerGas",
  "maxPriorityFeePerGas",
  "value",
  "data",
  "input",
  "nonce",
  "type",
  "chainId",
  "accessList",
];

export function callParam(value: unknown, what: string): CallRequest {
  const o = objectParam(value, what, CALL_FIELDS);
  if (o.data !== undefined && o.input !== undefined && o.data !== o.input) {
    throw new JsonRpcError(
      "INVALID_PARAMS",
      `${what}: both "data" and "input" are set, to different values`,
    );
  }
  const input = o.input ?? o.data;
  const opt = <T>(v: unknown, parse: (v: unknown, w: string) => T, name: string): T | undefined =>
    v === undefined || v === null ? undefined : parse(v, `${what}.${name}`);
  return {
    from: opt(o.from, addressParam, "from"),
    to: opt(o.to, addressParam, "to"),
    gas: opt(o.gas, (v, w) => quantityParam(v, w, 8), "gas"),
    gasPrice: opt(o.gasPrice, quantityParam, "gasPrice"),
    maxFeePerGas: opt(o.maxFeePerGas, quantityParam, "maxFeePerGas"),
    maxPriorityFeePerGas: opt(o.maxPriorityFeePerGas, quantityParam, "maxPriorityFeePerGas"),
    value: opt(o.value, quantityParam, "value"),
    data: opt(input, bytesParam, o.input !== undefined ? "input" : "data"),
    nonce: opt(o.nonce, (v, w) => quantityParam(v, w, 8), "nonce"),
    type: opt(o.type, typeParam, "type"),
    chainId: opt(o.chainId, quantityParam, "chainId"),
    accessList: opt(o.accessList, accessListParam, "accessList"),
  };
}
