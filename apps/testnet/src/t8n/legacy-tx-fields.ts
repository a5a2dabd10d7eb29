import { type Common, Hardfork } from "@ethereumjs/common";
import { RLP } from "@ethereumjs/rlp";
import { bigIntToUnpaddedBytes, hexToBytes } from "@ethereumjs/util";
import { keccak_256 } from "@noble/hashes/sha3.js";
import {
  INVALID_SIGNATURE_VALUES,
  invalidChainId,
  isProtectedV,
  legacyChainId,
  NO_CURVE_POINT,
  recoverSender,
  recoveryId,
} from "../chain/geth-signature-values.js";
import type { LegacyTxNumbers } from "../chain/geth-tx-decoding.js";
import type { DecodedFields } from "./geth-reject-reason.js";

/** What geth's signer makes of a legacy transaction's signature: the hash it signs, the recovery id. */
export interface LegacySignature {
  readonly hash: Uint8Array;
  readonly id: number;
}

/**
 * geth's signer for a legacy transaction its RLP decoder took (types.MakeSigner by the fork:
 * EIP-155's from Spurious Dragon, which checks a protected V's chain id and takes it out;
 * Homestead's; Frontier's, which allows S in the upper half): its words for another chain id or
 * signature values out of range, else what the sender is recovered from. `values` are the
 * transaction's fields as encoded (geth's decoder took them: canonical), `numbers` what geth
 * decoded of them.
 */
export function legacySignature(
  values: readonly Uint8Array[],
  numbers: LegacyTxNumbers,
  common: Common,
): { readonly error: string } | LegacySignature {
  const { v, r, s } = numbers;
  const unsigned = values.slice(0, 6);
  let plainV = v;
  let signed: Uint8Array[] = unsigned;
  if (common.gteHardfork(Hardfork.SpuriousDragon) && isProtectedV(v)) {
    const chainId = common.chainId();
    const have = legacyChainId(v);
    if (have !== chainId) return { error: invalidChainId(have, chainId) };
    plainV = v - 2n * chainId - 8n;
    const empty = new Uint8Array(0);
    signed = [...unsigned, bigIntToUnpaddedBytes(chainId), empty, empty];
  }
  const id = recoveryId(plainV, r, s, common.gteHardfork(Hardfork.Homestead));
  if (id === undefined) return { error: INVALID_SIGNATURE_VALUES };
  return { hash: keccak_256(RLP.encode(signed)), id };
}

/**
 * The fields geth's pre-check reads of a legacy transaction, with the sender its signature
 * recovers; geth's words when there is none (R is no point's x).
 */
export function legacyTxFields(
  numbers: LegacyTxNumbers,
  signature: LegacySignature,
): DecodedFields | string {
  let from: string;
  try {
    from = recoverSender(signature.hash, signature.id, numbers.r, numbers.s);
  } catch {
    return NO_CURVE_POINT;
  }
  return {
    from,
    nonce: numbers.nonce,
    gasLimit: numbers.gas,
    gasPrice: numbers.gasPrice,
    value: numbers.value,
  };
}

/**
 * A signed legacy txs.json entry as geth's JSON decoding gives it to its signer: its fields as
 * they are signed and its numbers (the input check has made sure each is a quantity, `to` an
 * address where given and `input` hex).
 */
export function legacyJsonTx(json: Readonly<Record<string, unknown>>): {
  readonly values: Uint8Array[];
  readonly numbers: LegacyTxNumbers;
} {
  const quantity = (field: string) => BigInt(json[field] as string);
  const numbers: LegacyTxNumbers = {
    nonce: quantity("nonce"),
    gasPrice: quantity("gasPrice"),
    gas: quantity("gas"),
    value: quantity("value"),
    v: quantity("v"),
    r: quantity("r"),
    s: quantity("s"),
  };
  const to = typeof json.to === "string" ? hexToBytes(json.to as `0x${string}`) : new Uint8Array(0);
  const values = [
    bigIntToUnpaddedBytes(numbers.nonce),
    bigIntToUnpaddedBytes(numbers.gasPrice),
    bigIntToUnpaddedBytes(numbers.gas),
    to,
    bigIntToUnpaddedBytes(numbers.value),
    hexToBytes(json.input as `0x${string}`),
  ];
  return { values, numbers };
}
