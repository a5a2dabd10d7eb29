import { getCalldataFloorGas, type TypedTransaction } from "@ethereumjs/tx";
import { toChecksumAddress } from "@ethereumjs/util";
import { invalidChainId, legacyChainId, NO_CURVE_POINT } from "../chain/geth-signature-values.js";
import type { BinaryStateManager } from "../state/binary-state-manager.js";
import {
  gethPreCheckFailure,
  type PreCheckBlock,
  requiredBalanceOverflow,
} from "./geth-pre-check.js";

/**
 * geth's reason for a transaction type the fork does not have: its signer refuses the type while
 * recovering the sender, before the pre-check (nonce, balance, fees) looks at the transaction.
 */
export const TX_TYPE_NOT_SUPPORTED = "transaction type not supported";

/** ethereumjs' refusal of a transaction type the fork does not have. */
const TYPE_NOT_ENABLED = /EIP-(?:2930|1559|4844|7702) not enabled on Common/;

/**
 * geth's reason for a transaction whose sender its signature does not recover (r is no point's
 * x coordinate): its secp256k1 library's words. ethereumjs throws only when the sender is
 * first asked for, so this asks once, where geth recovers it.
 */
export function senderRecoveryFault(tx: TypedTransaction): string | undefined {
  try {
    tx.getSenderAddress();
    return undefined;
  } catch {
    return NO_CURVE_POINT;
  }
}

/**
 * The reason geth's t8n gives for a rejected transaction (core/error.go, core/state_transition.go
 * `preCheck`/`execute`, core/gaspool.go): t8n's block blob gas check, then the first of geth's
 * pre-checks the transaction fails (geth-pre-check.ts), then geth's words for what ethereumjs
 * reports in its own (intrinsic gas and the calldata floor, a sender with delegation code
 * before Prague, the limits gethValidityReason knows). Others keep ethereumjs' message.
 */
export async function gethRejectReason(
  tx: TypedTransaction,
  cause: Error,
  state: BinaryStateManager,
  block: PreCheckBlock,
): Promise<string> {
  const message = cause.message;
  // geth's t8n checks the block's blob gas before it applies the transaction.
  const blobs = "blobVersionedHashes" in tx ? tx.blobVersionedHashes.length : 0;
  const overBlobLimit = blockBlobGasOver(block.blobGas, blobs, tx.common.param("blobGasPerBlob"));
  if (overBlobLimit !== undefined) return overBlobLimit;
  // geth names the first check it fails, in its order (nonce, sender, fees, blobs, block gas,
  // balance…): where it finds one, that is the reason.
  const first = await gethPreCheckFailure(tx, state, block);
  if (first !== undefined) return first;
  const sender = tx.getSenderAddress();
  const from = toChecksumAddress(sender.toString());
  // These first: ethereumjs' descriptions of the transaction also mention its nonce and fees.
  const fees =
    "maxFeePerGas" in tx
      ? { maxFeePerGas: tx.maxFeePerGas, maxPriorityFeePerGas: tx.maxPriorityFeePerGas }
      : undefined;
  const hashes =
    "blobVersionedHashes" in tx ? tx.blobVersionedHashes.map((h) => String(h)) : undefined;
  const validity = gethValidityReason(message, tx.gasLimit, from, fees, {
    gasLimit: tx.gasLimit,
    ...(hashes === undefined ? {} : { blobVersionedHashes: hashes }),
  });
  if (validity !== undefined) return validity;
  if (/address is not EOA/.test(message)) {
    const code = await state.getCode(sender);
    return `sender not an eoa: address ${from}, len(code): ${code.length}`;
  }
  if (/INTRINSIC_GAS_TOO_LOW|lower than the minimum gas limit/i.test(message)) {
    const intrinsic = tx.getIntrinsicGas();
    // EIP-7623: geth checks the calldata floor after the intrinsic gas, in its own words.
    if (tx.gasLimit >= intrinsic && tx.common.isActivatedEIP(7623)) {
      return `insufficient gas for floor data gas cost: have ${tx.gasLimit}, want ${getCalldataFloorGas(tx)}`;
    }
    return `intrinsic gas too low: have ${tx.gasLimit}, want ${intrinsic}`;
  }
  return message;
}

/**
 * geth's reason for a signed transaction of another chain (`invalid chain id for signer: have X
 * want Y`), from what ethereumjs throws while decoding it: "… not matching the derived chain ID
 * X" (typed) or "Incompatible EIP155-based V v and chain id …" / "Legacy txs need either v =
 * 27/28 or v >= 37 …" (legacy, X = (v - 35) / 2 as a uint64).
 * With the transaction's fields, also the checks ethereumjs makes while building a transaction
 * and geth while applying it (gethValidityReason). Other messages are returned as they are.
 */
export function gethDecodeRejectReason(
  message: string,
  chainId: bigint,
  tx?: DecodedFields,
): string {
  // geth's signer refuses the type before it reads anything else (also a txs.rlp one).
  if (TYPE_NOT_ENABLED.test(message)) return TX_TYPE_NOT_SUPPORTED;
  if (tx !== undefined) {
    const validity = gethValidityReason(message, tx.gasLimit, tx.from, tx.fees, tx);
    if (validity !== undefined) return validity;
  }
  // A txs.rlp blob or set-code transaction without `to`: geth's RLP decoding refuses it.
  const noTo = /tx should have a "to" field.*\(tx type=([34])/.exec(message);
  if (noTo !== null) {
    const type = noTo[1] === "3" ? "BlobTx" : "SetCodeTx";
    return `rlp: input string too short for common.Address, decoding into (types.Transaction)(types.${type}).To`;
  }
  const typed = /not matching the derived chain ID (\d+)/.exec(message);
  if (typed !== null) return invalidChainId(typed[1]!, chainId);
  // A legacy v of another chain, or one under 37 other than 27 and 28, which geth reads as
  // EIP-155's with a chain id of (v - 35) / 2 in uint64 arithmetic (v 5: 2^63 - 15).
  const legacy =
    /Incompatible EIP155-based V (\d+) and chain id/.exec(message) ??
    /Legacy txs need either v = 27\/28 or v >= 37 .*got v = (\d+)/.exec(message);
  if (legacy !== null) {
    return invalidChainId(legacyChainId(BigInt(legacy[1]!)), chainId);
  }
  return message;
}

/** What a transaction ethereumjs would not build still tells: its gas, sender and fee caps. */
export interface DecodedFields {
  readonly gasLimit: bigint;
  /** The sender, checksummed, where known (a `secretKey` transaction). */
  readonly from?: string;
  readonly nonce?: bigint;
  /** A legacy or access-list transaction's gas price. */
  readonly gasPrice?: bigint;
  /** The value, where read from the transaction's RLP (at any size geth decodes). */
  readonly value?: bigint;
  readonly fees?: { readonly maxFeePerGas: bigint; readonly maxPriorityFeePerGas: bigint };
  readonly blobVersionedHashes?: readonly string[];
}

/**
 * geth's words for what ethereumjs refuses while building a transaction or adding it to a block
 * (core/state_transition.go `preCheck`, core/gaspool.go): a tip above the fee cap (needs the
 * sender), a fee cap under the base fee, a gas limit over the block's remaining gas or
 * EIP-7825's cap, initcode over its limit. undefined for other messages.
 */
function gethValidityReason(
  message: string,
  gasLimit: bigint,
  from: string | undefined,
  fees: DecodedFields["fees"],
  tx?: DecodedFields,
): string | undefined {
  const feeCapBelowBaseFee =
    /(?:maxFeePerGas|gasPrice) \((\d+)\) is less than the block's baseFeePerGas \((\d+)\)/.exec(
      message,
    );
  if (feeCapBelowBaseFee !== null && from !== undefined) {
    return `max fee per gas less than block base fee: address ${from}, maxFeePerGas: ${feeCapBelowBaseFee[1]}, baseFee: ${feeCapBelowBaseFee[2]}`;
  }
  if (
    /maxFeePerGas cannot be less than maxPriorityFeePerGas/.test(message) &&
    from !== undefined &&
    fees !== undefined
  ) {
    return `max priority fee per gas higher than max fee per gas: address ${from}, maxPriorityFeePerGas: ${fees.maxPriorityFeePerGas}, maxFeePerGas: ${fees.maxFeePerGas}`;
  }
  if (/higher gas limit than the remaining gas in the block/.test(message))
    return "gas limit reached";
  const overCap = /exceeds the maximum allowed by EIP-7825 \((\d+)\)/.exec(message);
  if (overCap !== null)
    return `transaction gas limit too high (cap: ${overCap[1]}, tx: ${gasLimit})`;
  const initcode =
    /initcode size of this transaction is too large: it is (\d+) while the max is (\d+)/.exec(
      message,
    );
  if (initcode !== null) {
    return `max initcode size exceeded: code size ${initcode[1]} limit ${initcode[2]}`;
  }
  return gethBlobOrLimitReason(message, from, tx);
}

/**
 * geth's words for the blob, set-code, nonce and fee limits ethereumjs words its own way (core/
 * error.go, core/state_transition.go, t8ntool/execution.go). undefined for other messages.
 */
function gethBlobOrLimitReason(
  message: string,
  from: string | undefined,
  tx: DecodedFields | undefined,
): string | undefined {
  const blobFeeCap = /maxFeePerBlobGas (\d+)\) is less than block blobGasPrice \((\d+)\)/.exec(
    message,
  );
  if (blobFeeCap !== null && from !== undefined) {
    return `max fee per blob gas less than block blob gas fee: address ${from} blobGasFeeCap: ${blobFeeCap[1]}, blobBaseFee: ${blobFeeCap[2]}`;
  }
  const blockBlobGas = /total blob gas of (\d+) to exceed maximum blob gas per block of (\d+)/.exec(
    message,
  );
  if (blockBlobGas !== null) {
    return `blob gas (${blockBlobGas[1]}) would exceed maximum allowance ${blockBlobGas[2]}`;
  }
  if (/blobs exceeds max \d+ blobs per tx/.test(message))
    return "blob transaction has too many blobs";
  if (/versioned hash does not start with KZG commitment version/.test(message) && tx) {
    const index = (tx.blobVersionedHashes ?? []).findIndex((h) => !/^0x01/i.test(h));
    if (index >= 0) return `blob ${index} has invalid hash version`;
  }
  // A blob transaction before Cancun reaches this only from fill (t8n turns it away first,
  // for its env has no blob gas): geth's chain maker signer refuses the type.
  if (TYPE_NOT_ENABLED.test(message)) return TX_TYPE_NOT_SUPPORTED;
  const nonceMax = /nonce cannot equal or exceed MAX_UINT64 \(2\^64-1\), given (\d+)/.exec(message);
  if (nonceMax !== null && from !== undefined) {
    return `nonce has max value: address ${from}, nonce: ${nonceMax[1]}`;
  }
  if (/authorization list is empty/.test(message) && from !== undefined) {
    return `EIP-7702 transaction with empty auth list (sender ${from})`;
  }
  if (
    /gas ?limit \* (maxFeePerGas|gasPrice) cannot exceed MAX_INTEGER/i.test(message) &&
    from !== undefined
  ) {
    return requiredBalanceOverflow(from);
  }
  return undefined;
}

/**
 * geth t8n's block blob gas check (before it applies a transaction): `blob gas (X) would exceed
 * maximum allowance Y` when the transaction's blobs take the block over its limit.
 */
export function blockBlobGasOver(
  block: { readonly used: bigint; readonly limit: bigint } | undefined,
  blobs: number,
  perBlob: bigint,
): string | undefined {
  if (block === undefined || blobs === 0) return undefined;
  const used = block.used + BigInt(blobs) * perBlob;
  return used > block.limit
    ? `blob gas (${used}) would exceed maximum allowance ${block.limit}`
    : undefined;
}
