import type { Common } from "@ethereumjs/common";
import type { TypedTransaction } from "@ethereumjs/tx";
import { type Address, toChecksumAddress } from "@ethereumjs/util";
import { isDelegation } from "../chain/authorization-authority.js";
import type { BinaryStateManager } from "../state/binary-state-manager.js";

/** What geth's pre-check reads of the block being built. */
export interface PreCheckBlock {
  /** The block's base fee (London on). */
  readonly baseFee?: bigint;
  /** The block's blob base fee (Cancun on, with blob gas in the env). */
  readonly blobBaseFee?: bigint;
  /** The block's gas limit less the gas its transactions used so far. */
  readonly gasLeft: bigint;
  /** The blob gas the block's transactions used so far, and its limit (Cancun on). */
  readonly blobGas?: { readonly used: bigint; readonly limit: bigint };
}

/** The fields geth's first checks read, from a built transaction or from its JSON. */
export interface PreCheckFields {
  readonly sender: Address;
  readonly nonce: bigint;
  readonly gasLimit: bigint;
  /** The fee cap and tip (a legacy transaction's gas price for both), where readable. */
  readonly feeCap?: bigint;
  readonly tip?: bigint;
}

/** EIP-7825's cap on a transaction's gas (params.MaxTxGas). */
const MAX_TX_GAS = 1n << 24n;
/** EIP-7594's cap on a transaction's blobs (params.BlobTxMaxBlobs). */
const MAX_TX_BLOBS = 6;

/**
 * The first check geth's `stateTransition.preCheck` and `buyGas` (core/state_transition.go) fail
 * for a transaction the library refused, in geth's order and words: nonce, EIP-7825's gas cap,
 * a sender with code, the fee caps, the blob checks, the set-code checks, initcode size, the
 * block's gas left, the balance. undefined when all pass (the refusal is then one of the later
 * checks, intrinsic gas and the calldata floor, which the caller words). ethereumjs makes the
 * same checks in another order, so a transaction failing two of them got the other reason.
 */
export async function gethPreCheckFailure(
  tx: TypedTransaction,
  state: BinaryStateManager,
  block: PreCheckBlock,
): Promise<string | undefined> {
  const sender = tx.getSenderAddress();
  const feeCap = "maxFeePerGas" in tx ? tx.maxFeePerGas : (tx as { gasPrice: bigint }).gasPrice;
  const tip =
    "maxPriorityFeePerGas" in tx ? tx.maxPriorityFeePerGas : (tx as { gasPrice: bigint }).gasPrice;
  const common = tx.common;
  const fields = { sender, nonce: tx.nonce, gasLimit: tx.gasLimit, feeCap, tip };
  const first = await gethFirstChecksFailure(fields, state, common, block.baseFee);
  if (first !== undefined) return first;
  const from = toChecksumAddress(sender.toString());
  const blobs = "blobVersionedHashes" in tx ? tx.blobVersionedHashes : undefined;
  const blobFeeCap = "maxFeePerBlobGas" in tx ? tx.maxFeePerBlobGas : 0n;
  if (blobs !== undefined) {
    if (common.isActivatedEIP(7594) && blobs.length > MAX_TX_BLOBS) {
      return "blob transaction has too many blobs";
    }
    const bad = blobs.findIndex((hash) => !/^0x01/i.test(String(hash)));
    if (bad >= 0) return `blob ${bad} has invalid hash version`;
    if (blobs.length > 0 && block.blobBaseFee !== undefined && blobFeeCap < block.blobBaseFee) {
      return `max fee per blob gas less than block blob gas fee: address ${from} blobGasFeeCap: ${blobFeeCap}, blobBaseFee: ${block.blobBaseFee}`;
    }
  }
  if ("authorizationList" in tx && tx.authorizationList.length === 0) {
    return `EIP-7702 transaction with empty auth list (sender ${from})`;
  }
  if (tx.to === undefined && common.isActivatedEIP(3860)) {
    const limit = BigInt(common.param("maxInitCodeSize"));
    if (BigInt(tx.data.length) > limit) {
      return `max initcode size exceeded: code size ${tx.data.length} limit ${limit}`;
    }
  }
  if (tx.gasLimit > block.gasLeft) return "gas limit reached";
  const blobGas = BigInt(blobs?.length ?? 0) * (blobs ? common.param("blobGasPerBlob") : 0n);
  const want = tx.gasLimit * feeCap + tx.value + blobGas * blobFeeCap;
  // geth adds the terms as uint256s and refuses a sum that overflows before it reads the balance.
  if (want >= 1n << 256n) return requiredBalanceOverflow(from);
  const balance = (await state.getAccount(sender))?.balance ?? 0n;
  if (balance < want) {
    return `insufficient funds for gas * price + value: address ${from} have ${balance} want ${want}`;
  }
  return undefined;
}

/** geth's reason when a transaction's cost (gas times fee cap, value, blob fees) passes 256 bits. */
export function requiredBalanceOverflow(from: string): string {
  return `insufficient funds for gas * price + value: address ${from} required balance exceeds 256 bits`;
}

/**
 * geth's first checks, in its order and words: nonce, EIP-7825's gas cap, a sender with code,
 * the fee caps (where the block has a base fee and both are readable). Also for a transaction
 * the library refused to build (a malformed field it validates while decoding, which geth
 * checks later), read from its JSON. undefined when they pass.
 */
export async function gethFirstChecksFailure(
  fields: PreCheckFields,
  state: BinaryStateManager,
  common: Common,
  baseFee: bigint | undefined,
): Promise<string | undefined> {
  const { sender, gasLimit, feeCap, tip } = fields;
  const from = toChecksumAddress(sender.toString());
  const nonce = (await state.getAccount(sender))?.nonce ?? 0n;
  const txNonce = fields.nonce;
  if (nonce < txNonce) return `nonce too high: address ${from}, tx: ${txNonce} state: ${nonce}`;
  if (nonce > txNonce) return `nonce too low: address ${from}, tx: ${txNonce} state: ${nonce}`;
  if (nonce + 1n >= 1n << 64n) return `nonce has max value: address ${from}, nonce: ${nonce}`;
  if (common.isActivatedEIP(7825) && gasLimit > MAX_TX_GAS) {
    return `transaction gas limit too high (cap: ${MAX_TX_GAS}, tx: ${gasLimit})`;
  }
  const code = await state.getCode(sender);
  if (code.length > 0 && !isDelegation(code)) {
    return `sender not an eoa: address ${from}, len(code): ${code.length}`;
  }
  if (baseFee !== undefined && feeCap !== undefined && tip !== undefined) {
    if (feeCap < tip) {
      return `max priority fee per gas higher than max fee per gas: address ${from}, maxPriorityFeePerGas: ${tip}, maxFeePerGas: ${feeCap}`;
    }
    if (feeCap < baseFee) {
      return `max fee per gas less than block base fee: address ${from}, maxFeePerGas: ${feeCap}, baseFee: ${baseFee}`;
    }
  }
  return undefined;
}
