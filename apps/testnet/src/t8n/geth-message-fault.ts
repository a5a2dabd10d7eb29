import type { DecodedFields } from "./geth-reject-reason.js";

/**
 * geth's checks as it turns a transaction with a recovered sender into a message, before its
 * pre-check (core.TransactionToMessage): the gas price, fee cap and tip, then the value, each
 * at most 256 bits. Transactions whose fields are `*big.Int` (legacy, access-list and
 * dynamic-fee ones) decode with larger numbers; ethereumjs refuses them in its own words.
 * undefined when they fit.
 */
export function gethMessageFault(fields: DecodedFields): string | undefined {
  const { from } = fields;
  // A dynamic-fee transaction's gas price is its fee cap: the first two checks read one number.
  const feeCap = fields.fees?.maxFeePerGas ?? fields.gasPrice ?? 0n;
  const tip = fields.fees?.maxPriorityFeePerGas ?? fields.gasPrice ?? 0n;
  if (bitLength(feeCap) > 256) {
    return `max fee per gas higher than 2^256-1: address ${from}, maxFeePerGas bit length: ${bitLength(feeCap)}`;
  }
  if (bitLength(tip) > 256) {
    return `max priority fee per gas higher than 2^256-1: address ${from}, maxPriorityFeePerGas bit length: ${bitLength(tip)}`;
  }
  if (bitLength(fields.value ?? 0n) > 256) return `value exceeds 256 bits: address ${from}`;
  return undefined;
}

/** Bits of a non-negative integer (Go's big.Int BitLen). */
function bitLength(n: bigint): number {
  return n === 0n ? 0 : n.toString(2).length;
}
