import type { TypedTransaction } from "@ethereumjs/tx";
import { toChecksumAddress } from "@ethereumjs/util";
import type { BinaryStateManager } from "../state/binary-state-manager.js";

/**
 * The reason geth's t8n gives for a rejected transaction (core/error.go, core/state_transition.go
 * `preCheck`/`execute`), for the rejections ethereumjs reports in its own words: a nonce off,
 * too little balance for gas and value, or a gas limit under the intrinsic gas. Others keep
 * ethereumjs' message.
 */
export async function gethRejectReason(
  tx: TypedTransaction,
  cause: Error,
  state: BinaryStateManager,
): Promise<string> {
  const message = cause.message;
  const sender = tx.getSenderAddress();
  const from = toChecksumAddress(sender.toString());
  const account = await state.getAccount(sender);
  const nonce = account?.nonce ?? 0n;
  if (/nonce/i.test(message) && tx.nonce !== nonce) {
    return tx.nonce < nonce
      ? `nonce too low: address ${from}, tx: ${tx.nonce} state: ${nonce}`
      : `nonce too high: address ${from}, tx: ${tx.nonce} state: ${nonce}`;
  }
  if (/INTRINSIC_GAS_TOO_LOW|lower than the minimum gas limit/i.test(message)) {
    return `intrinsic gas too low: have ${tx.gasLimit}, want ${tx.getIntrinsicGas()}`;
  }
  // ethereumjs: "sender doesn't have enough funds to send tx…" (upfront cost or value).
  if (/balance|insufficient|enough funds/i.test(message)) {
    const feeCap = "maxFeePerGas" in tx ? tx.maxFeePerGas : (tx as { gasPrice: bigint }).gasPrice;
    // geth's buyGas: gas * fee cap + value, plus blob gas * blob fee cap for blob transactions.
    const blobs = "blobVersionedHashes" in tx ? BigInt(tx.blobVersionedHashes.length) : 0n;
    const blobFeeCap = "maxFeePerBlobGas" in tx ? tx.maxFeePerBlobGas : 0n;
    const want =
      tx.gasLimit * feeCap + tx.value + blobs * tx.common.param("blobGasPerBlob") * blobFeeCap;
    return `insufficient funds for gas * price + value: address ${from} have ${account?.balance ?? 0n} want ${want}`;
  }
  return message;
}

/**
 * geth's reason for a signed transaction of another chain (`invalid chain id for signer: have X
 * want Y`), from what ethereumjs throws while decoding it: "… not matching the derived chain ID
 * X" (typed) or "Incompatible EIP155-based V v and chain id …" (legacy, X = (v - 35) / 2).
 * Other messages are returned as they are.
 */
export function gethDecodeRejectReason(message: string, chainId: bigint): string {
  const typed = /not matching the derived chain ID (\d+)/.exec(message);
  if (typed !== null) return `invalid chain id for signer: have ${typed[1]} want ${chainId}`;
  const legacy = /Incompatible EIP155-based V (\d+) and chain id/.exec(message);
  if (legacy !== null) {
    const have = (BigInt(legacy[1]!) - 35n) / 2n;
    return `invalid chain id for signer: have ${have} want ${chainId}`;
  }
  return message;
}
