import type { Common } from "@ethereumjs/common";
import { RLP } from "@ethereumjs/rlp";
import { createTxFromBlockBodyData, type TypedTransaction } from "@ethereumjs/tx";
import { NO_CURVE_POINT } from "../chain/geth-signature-values.js";
import {
  decodeTypedTxAsGeth,
  type GethListItem,
  type LegacyTxNumbers,
} from "../chain/geth-tx-decoding.js";
import { gethMessageFault } from "./geth-message-fault.js";
import {
  type DecodedFields,
  gethDecodeRejectReason,
  TX_TYPE_NOT_SUPPORTED,
} from "./geth-reject-reason.js";
import { legacySignature, legacyTxFields } from "./legacy-tx-fields.js";
import { forkHasTxType, typedSignerFault, typedTxFields } from "./typed-tx-fields.js";

/**
 * A transaction to apply; or why geth's t8n rejects it as it decodes it, recovers its sender or
 * makes it a message (`final`: before the block's blob gas and the pre-check); or why ethereumjs
 * would not build it (with its type where geth decodes it and, where geth builds it, the fields
 * geth's pre-check reads: geth may refuse it for one of those first).
 */
export type Candidate =
  | { readonly tx: TypedTransaction }
  | {
      readonly error: string;
      readonly type?: number;
      readonly fields?: DecodedFields;
      readonly final?: true;
    };

/**
 * One transaction of a txs.rlp list as geth's t8n reads it (readTxListAsGeth) and takes it, in
 * its order: geth's RLP decoding (its words for what it refuses), its signer (the fork's
 * transaction types, the chain id, the signature values, the sender's recovery), its message
 * checks (numbers over 256 bits); then the transaction ethereumjs builds, or its refusal with
 * the fields geth's pre-check reads. The sender is recovered here only for a transaction
 * ethereumjs refuses (the library recovers a built one's, once, when the caller asks).
 */
export function rlpTxCandidate(item: GethListItem, common: Common): Candidate {
  if ("error" in item) return { error: item.error, final: true };
  if ("legacy" in item) return legacyCandidate(item.legacy, item.numbers, common);
  const envelope = item.envelope;
  const geth = decodeTypedTxAsGeth(envelope);
  if (geth !== undefined && "error" in geth) return { error: geth.error, final: true };
  // Decoded by geth: its type is known to the checks before the signer's (blob gas env).
  const type = envelope[0]!;
  if (!forkHasTxType(type, common)) return { error: TX_TYPE_NOT_SUPPORTED, type, final: true };
  // A blob transaction in its network form is left to ethereumjs.
  if (geth === undefined) return built(envelope, common, type, () => undefined);
  const fault = typedSignerFault(geth.chainId, geth.validSignature, common);
  if (fault !== undefined) return { error: fault, type, final: true };
  return built(envelope, common, type, () => typedTxFields(envelope) ?? NO_CURVE_POINT);
}

/** A legacy transaction geth decoded (`encoded`, its RLP list) by geth's signer, then as `built`. */
function legacyCandidate(encoded: Uint8Array, numbers: LegacyTxNumbers, common: Common): Candidate {
  const values = RLP.decode(encoded) as Uint8Array[];
  const signature = legacySignature(values, numbers, common);
  if ("error" in signature) return { error: signature.error, type: 0, final: true };
  return built(values, common, 0, () => legacyTxFields(numbers, signature));
}

/**
 * The transaction ethereumjs builds of what geth's signer took; where it refuses, the sender
 * (`recover`: the fields geth's pre-check reads, its words when no sender is recovered, or
 * undefined where unknown), geth's message checks, then the refusal with those fields. A built
 * transaction's numbers all fit 256 bits (ethereumjs checks them), so the message checks pass.
 */
function built(
  item: Uint8Array | Uint8Array[],
  common: Common,
  type: number,
  recover: () => DecodedFields | string | undefined,
): Candidate {
  try {
    return { tx: createTxFromBlockBodyData(item, { common }) };
  } catch (cause) {
    const fields = recover();
    if (typeof fields === "string") return { error: fields, type, final: true };
    const message = fields === undefined ? undefined : gethMessageFault(fields);
    if (message !== undefined) return { error: message, type, final: true };
    const reason = gethDecodeRejectReason((cause as Error).message, common.chainId(), fields);
    return fields === undefined ? { error: reason, type } : { error: reason, type, fields };
  }
}
