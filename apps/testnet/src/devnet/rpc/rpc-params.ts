import { bytesToHex } from "@bintrie/core";
import { Address, hexToBytes } from "@ethereumjs/util";
import { JsonRpcError } from "./json-rpc-error.js";

/** A method's params, as the request gave them. */
export type Params = readonly unknown[];

/** A param as an error message shows it: its JSON, at most 80 characters. */
export function shown(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

/** Refuses a params list shorter than `least` or longer than `most` (INVALID_PARAMS). */
export function arity(p: Params, method: string, least: number, most: number): void {
  if (p.length < least || p.length > most) {
    const wanted = least === most ? `${least}` : `${least} to ${most}`;
    throw new JsonRpcError("INVALID_PARAMS", `${method}: takes ${wanted} params, got ${p.length}`);
  }
}

/** A 0x-hex string (any length, digits of either case), or INVALID_PARAMS naming `what`. */
export function hexString(value: unknown, what: string): string {
  if (typeof value !== "string" || !/^0x[0-9a-fA-F]*$/.test(value)) {
    throw new JsonRpcError("INVALID_PARAMS", `${what}: expected 0x-hex, got ${shown(value)}`);
  }
  return value;
}

/** 0x-hex bytes (an even number of digits). */
export function bytesParam(value: unknown, what: string): Uint8Array {
  const text = hexString(value, what);
  if (text.length % 2 !== 0) {
    throw new JsonRpcError(
      "INVALID_PARAMS",
      `${what}: odd number of hex digits in ${shown(value)}`,
    );
  }
  return hexToBytes(text as `0x${string}`);
}

/** A quantity: 0x-hex without leading zeros (as execution-apis writes them), below 2^(8·bytes). */
export function quantityParam(value: unknown, what: string, bytes = 32): bigint {
  const text = hexString(value, what);
  if (text === "0x" || (text.length > 3 && text[2] === "0")) {
    throw new JsonRpcError(
      "INVALID_PARAMS",
      `${what}: a quantity is 0x-hex without leading zeros, got ${shown(value)}`,
    );
  }
  const n = BigInt(text);
  if (n >= 1n << BigInt(8 * bytes)) {
    throw new JsonRpcError("INVALID_PARAMS", `${what}: ${text} does not fit in ${bytes} bytes`);
  }
  return n;
}

/** A 20-byte address. */
export function addressParam(value: unknown, what: string): Address {
  const bytes = bytesParam(value, what);
  if (bytes.length !== 20) {
    throw new JsonRpcError(
      "INVALID_PARAMS",
      `${what}: an address is 20 bytes, got ${bytes.length}`,
    );
  }
  return new Address(bytes);
}

/** A 32-byte hash, as lowercase 0x-hex (the form the chain files blocks and transactions by). */
export function hashParam(value: unknown, what: string): string {
  const bytes = bytesParam(value, what);
  if (bytes.length !== 32) {
    throw new JsonRpcError("INVALID_PARAMS", `${what}: a hash is 32 bytes, got ${bytes.length}`);
  }
  return bytesToHex(bytes);
}

/** true or false; absent is false (eth_getBlockBy*'s "full transactions"). */
export function boolParam(value: unknown, what: string): boolean {
  if (value === undefined) return false;
  if (typeof value !== "boolean") {
    throw new JsonRpcError(
      "INVALID_PARAMS",
      `${what}: expected true or false, got ${shown(value)}`,
    );
  }
  return value;
}

/** A JSON object with no field outside `fields` (a misspelt field is refused, not dropped). */
export function objectParam(
  value: unknown,
  what: string,
  fields: readonly string[],
): Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new JsonRpcError("INVALID_PARAMS", `${what}: expected an object, got ${shown(value)}`);
  }
  for (const key of Object.keys(value)) {
    if (!fields.includes(key)) {
      throw new JsonRpcError("INVALID_PARAMS", `${what}: unknown field ${JSON.stringify(key)}`);
    }
  }
  return value as Record<string, unknown>;
}

/** A value or a list of them (eth_getLogs' address); undefined and null are none. */
export function listParam(value: unknown, what: string): readonly unknown[] {
  if (value === undefined || value === null) return [];
  if (Array.isArray(value)) return value;
  if (typeof value === "string") return [value];
  throw new JsonRpcError(
    "INVALID_PARAMS",
    `${what}: expected a value or a list, got ${shown(value)}`,
  );
}

/** eth_getLogs' topics: per position null (any), a topic, or a list of topics (any of them). */
export function topicsParam(value: unknown, what: string): (readonly string[] | undefined)[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || value.length > 4) {
    throw new JsonRpcError(
      "INVALID_PARAMS",
      `${what}: expected a list of at most 4 positions, got ${shown(value)}`,
    );
  }
  return value.map((position, i) => {
    if (position === null) return undefined;
    const list = Array.isArray(position) ? position : [position];
    if (list.length === 0) return undefined;
    return list.map((t, j) =>
      hashParam(t, `${what}[${i}]${Array.isArray(position) ? `[${j}]` : ""}`),
    );
  });
}

/** eth_feeHistory's reward percentiles: numbers 0..100, ascending; undefined for none asked. */
export function percentilesParam(value: unknown, what: string): number[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value) || value.length > 100) {
    throw new JsonRpcError(
      "INVALID_PARAMS",
      `${what}: expected a list of at most 100 percentiles, got ${shown(value)}`,
    );
  }
  let previous = -1;
  return value.map((p, i) => {
    if (typeof p !== "number" || !(p >= 0 && p <= 100) || p < previous) {
      throw new JsonRpcError(
        "INVALID_PARAMS",
        `${what}[${i}]: percentiles are numbers from 0 to 100 in ascending order, got ${shown(p)}`,
      );
    }
    previous = p;
    return p;
  });
}

/** The transaction types a call object may ask for: legacy, access list, EIP-1559. */
export function typeParam(value: unknown, what: string): number {
  const type = quantityParam(value, what, 1);
  if (type > 2n) {
    throw new JsonRpcError(
      "INVALID_PARAMS",
      `${what}: type ${value} is not one this node builds (0x0, 0x1, 0x2)`,
    );
  }
  return Number(type);
}

/** An EIP-2930 access list: [{address, storageKeys: [32-byte keys]}]. */
export function accessListParam(
  value: unknown,
  what: string,
): { address: string; storageKeys: string[] }[] {
  if (!Array.isArray(value)) {
    throw new JsonRpcError("INVALID_PARAMS", `${what}: expected a list, got ${shown(value)}`);
  }
  return value.map((item, i) => {
    const entry = objectParam(item, `${what}[${i}]`, ["address", "storageKeys"]);
    const keys = entry.storageKeys ?? [];
    if (!Array.isArray(keys)) {
      throw new JsonRpcError(
        "INVALID_PARAMS",
        `${what}[${i}].storageKeys: expected a list, got ${shown(keys)}`,
      );
    }
    return {
      address: addressParam(entry.address, `${what}[${i}].address`).toString(),
      storageKeys: keys.map((k, j) => hashParam(k, `${what}[${i}].storageKeys[${j}]`)),
    };
  });
}
