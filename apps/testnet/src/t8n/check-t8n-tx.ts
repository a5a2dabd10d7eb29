import type { Common } from "@ethereumjs/common";
import { isProtectedV, legacyChainId, SECP256K1_N } from "../chain/geth-signature-values.js";
import { describe, fail, isAbsent, isHex } from "./t8n-input-fault.js";

/**
 * The fields geth's decoder requires of each transaction type (legacy, 2930, 1559, 4844, 7702),
 * in the order it checks them (core/types/transaction_marshalling.go). On typed transactions
 * `v` may be given as `yParity`.
 */
const TYPED = ["chainId", "nonce"];
const FEES = ["maxPriorityFeePerGas", "maxFeePerGas"];
const CALL = ["value", "input"];
const SIGNATURE = ["r", "s", "v"];
const REQUIRED_FIELDS: readonly (readonly string[])[] = [
  ["nonce", "gas", "gasPrice", ...CALL, ...SIGNATURE],
  [...TYPED, "gas", "gasPrice", ...CALL, ...SIGNATURE],
  [...TYPED, "gas", ...FEES, ...CALL, ...SIGNATURE],
  [
    ...TYPED,
    "to",
    "gas",
    ...FEES,
    "maxFeePerBlobGas",
    ...CALL,
    "blobVersionedHashes",
    ...SIGNATURE,
  ],
  [...TYPED, "to", "gas", ...FEES, ...CALL, "authorizationList", ...SIGNATURE],
];
/** geth's `hexutil.Uint64` fields of a transaction's JSON. */
const UINT64_FIELDS = ["type", "nonce", "gas", "yParity"];
/** geth's `hexutil.Big` fields (at most 256 bits). */
const BIG_FIELDS = [
  "chainId",
  "gasPrice",
  "maxPriorityFeePerGas",
  "maxFeePerGas",
  "maxFeePerBlobGas",
  "value",
  "v",
  "r",
  "s",
];
/**
 * Refuses a `txs.json` entry geth's t8n cannot decode (its `txWithKey`, then `types.Transaction`
 * JSON): quantities are 0x-hex without leading zeros, bytes even-length 0x-hex, each type's
 * required fields present, `yParity` 0 or 1 and equal to `v`, a blob transaction with at least
 * one versioned hash, and a given signature (any of v, r, s non-zero) with valid values. geth
 * refuses the whole file then (ErrorJson, exit 10); each fault names the transaction and field.
 */
export function checkT8nTx(tx: unknown, index: number, source: string, common: Common): void {
  const at = `tx ${index}`;
  if (tx === null || typeof tx !== "object" || Array.isArray(tx)) {
    fail(source, at, `expected an object, got ${describe(tx)}`);
  }
  const t = tx as Record<string, unknown>;
  // t8n's own fields first: the key is a 32-byte hash, `protected` a boolean.
  if (!isAbsent(t.secretKey) && !isHex(t.secretKey, 32)) {
    fail(source, `${at} secretKey`, "not a 32-byte hex key");
  }
  if (!isAbsent(t.protected) && typeof t.protected !== "boolean") {
    fail(source, `${at} protected`, `expected true or false, got ${describe(t.protected)}`);
  }
  const n: Record<string, bigint | undefined> = {};
  for (const field of UINT64_FIELDS) n[field] = hexNumber(t[field], 16, source, `${at} ${field}`);
  for (const field of BIG_FIELDS) n[field] = hexNumber(t[field], 64, source, `${at} ${field}`);
  if (
    !isAbsent(t.input) &&
    (typeof t.input !== "string" || !/^0[xX]([0-9a-fA-F]{2})*$/.test(t.input))
  ) {
    fail(source, `${at} input`, `${describe(t.input)} is not even-length 0x-hex`);
  }
  if (!isAbsent(t.to) && !isHex(t.to, 20)) {
    fail(source, `${at} to`, `${describe(t.to)} is not a 20-byte hex address`);
  }
  for (const list of ["accessList", "blobVersionedHashes", "authorizationList"]) {
    if (!isAbsent(t[list]) && !Array.isArray(t[list])) {
      fail(source, `${at} ${list}`, `expected an array, got ${describe(t[list])}`);
    }
  }
  const hashes = (t.blobVersionedHashes ?? []) as unknown[];
  hashes.forEach((hash, i) => {
    if (!isHex(hash, 32)) {
      fail(source, `${at} blobVersionedHashes[${i}]`, `${describe(hash)} is not a 32-byte hash`);
    }
  });
  const type = n.type ?? 0n;
  const required = REQUIRED_FIELDS[Number(type)];
  if (type >= BigInt(REQUIRED_FIELDS.length) || required === undefined) {
    fail(source, `${at} type`, `transaction type ${type} not supported`);
  }
  for (const field of required) {
    if (field === "v" && type !== 0n) {
      n.v = signatureV(n, source, at);
      continue;
    }
    if (isAbsent(t[field])) {
      fail(source, `${at} ${field}`, `missing (required in a type ${type} transaction)`);
    }
  }
  if (type === 3n && hashes.length === 0) {
    fail(source, `${at} blobVersionedHashes`, "empty (a blob transaction needs at least one)");
  }
  const v = n.v ?? 0n;
  const r = n.r ?? 0n;
  const s = n.s ?? 0n;
  const signed = v !== 0n || r !== 0n || s !== 0n;
  if (signed && !validSignature(type === 0n, v, r, s)) {
    fail(source, `${at} v, r, s`, `invalid signature values (v ${v}, r ${r}, s ${s})`);
  }
  // A key signs only a transaction without a signature; a typed one for another chain cannot be
  // (chain id 0 is none: geth's signer gives it the chain's).
  if (
    !isAbsent(t.secretKey) &&
    !signed &&
    type !== 0n &&
    n.chainId !== 0n &&
    n.chainId !== common.chainId()
  ) {
    fail(
      source,
      `${at} chainId`,
      `cannot sign: chain id ${n.chainId}, the chain's is ${common.chainId()} (--state.chainid)`,
    );
  }
}

/**
 * geth's `hexutil` number: a JSON string, `0x` then 1 to `digits` hex digits without leading
 * zeros. Undefined when absent.
 */
function hexNumber(
  value: unknown,
  digits: number,
  source: string,
  field: string,
): bigint | undefined {
  if (isAbsent(value)) return undefined;
  if (typeof value !== "string")
    fail(source, field, `expected a hex string, got ${describe(value)}`);
  if (!/^0[xX]/.test(value)) fail(source, field, `${describe(value)} has no 0x prefix`);
  const hex = value.slice(2);
  if (!/^[0-9a-fA-F]+$/.test(hex)) fail(source, field, `${describe(value)} is not a hex number`);
  if (hex.length > 1 && hex[0] === "0") {
    fail(source, field, `${describe(value)} has leading zero digits`);
  }
  if (hex.length > digits) fail(source, field, `${describe(value)} exceeds ${digits * 4} bits`);
  return BigInt(`0x${hex}`);
}

/** A typed transaction's v: `yParity` (0 or 1, equal to `v` when both are given) or `v`. */
function signatureV(n: Record<string, bigint | undefined>, source: string, at: string): bigint {
  const { v, yParity } = n;
  if (yParity !== undefined) {
    if (yParity > 1n) fail(source, `${at} yParity`, `must be 0 or 1, got ${yParity}`);
    if (v !== undefined && v !== yParity) {
      fail(source, `${at} yParity`, `${yParity} does not match v ${v}`);
    }
    return yParity;
  }
  if (v === undefined) fail(source, `${at} v`, "missing (and no yParity)");
  return v;
}

/**
 * geth's `sanityCheckSignature`: the recovery id (a legacy v after EIP-155's chain id and 27 are
 * taken out, with uint64 wrap-around as geth computes it) is 0 or 1, and r and s are in [1, N).
 */
function validSignature(legacy: boolean, v: bigint, r: bigint, s: bigint): boolean {
  let recovery = v;
  if (legacy) {
    recovery = isProtectedV(v) ? (v - 35n - 2n * legacyChainId(v)) & 0xffn : (v - 27n) & 0xffn;
  } else if (v > 1n) {
    return false;
  }
  return (
    (recovery === 0n || recovery === 1n) && r >= 1n && s >= 1n && r < SECP256K1_N && s < SECP256K1_N
  );
}
