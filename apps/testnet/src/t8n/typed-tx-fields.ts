import type { Common } from "@ethereumjs/common";
import { RLP } from "@ethereumjs/rlp";
import {
  bigIntToUnpaddedBytes,
  bytesToBigInt,
  bytesToHex,
  concatBytes,
  hexToBytes,
} from "@ethereumjs/util";
import { keccak_256 } from "@noble/hashes/sha3.js";
import {
  INVALID_SIGNATURE_VALUES,
  invalidChainId,
  recoverSender,
} from "../chain/geth-signature-values.js";
import { typedTxLayout } from "../chain/geth-tx-decoding.js";
import type { DecodedFields } from "./geth-reject-reason.js";

/** Whether the fork's signer takes a transaction type (geth's: the EIP that brings the type). */
export function forkHasTxType(type: number, common: Common): boolean {
  return type === 0 || common.isActivatedEIP(typedTxLayout(type)?.eip ?? 0);
}

/**
 * geth's signer over a typed transaction of a type the fork has, in its order: the chain id,
 * then the signature values. Its words, or undefined.
 */
export function typedSignerFault(
  chainId: bigint,
  validSignature: boolean,
  common: Common,
): string | undefined {
  if (chainId !== common.chainId()) return invalidChainId(chainId, common.chainId());
  return validSignature ? undefined : INVALID_SIGNATURE_VALUES;
}

/**
 * What geth's pre-check reads of a typed transaction it decodes with valid signature values
 * (and ethereumjs will not build): the sender its signature recovers (it signs the payload
 * without V, R, S), nonce, gas limit, fee caps and value. undefined where the sender is not
 * recovered.
 */
export function typedTxFields(envelope: Uint8Array): DecodedFields | undefined {
  const layout = typedTxLayout(envelope[0]!);
  if (layout === undefined) return undefined;
  try {
    const values = RLP.decode(envelope.subarray(1)) as Uint8Array[];
    const unsigned = concatBytes(
      envelope.subarray(0, 1),
      RLP.encode(values.slice(0, layout.signature)),
    );
    const number = (at: number) => bytesToBigInt(values[at]!);
    const [v, r, s] = [0, 1, 2].map((k) => number(layout.signature + k));
    const from = recoverSender(keccak_256(unsigned), Number(v), r!, s!);
    // The fee fields sit just before the gas limit: a gas price (type 1) or tip and fee cap.
    const fees =
      envelope[0] === 1
        ? { gasPrice: number(2) }
        : { fees: { maxPriorityFeePerGas: number(2), maxFeePerGas: number(3) } };
    return {
      from,
      nonce: number(1),
      gasLimit: number(layout.gas),
      ...fees,
      // To and value follow the gas limit.
      value: number(layout.gas + 2),
      // A blob transaction's versioned hashes follow its blob fee cap (geth's BlobTx).
      ...(envelope[0] === 3
        ? { blobVersionedHashes: (values[10] as unknown as Uint8Array[]).map((h) => bytesToHex(h)) }
        : {}),
    };
  } catch {
    return undefined;
  }
}

/**
 * A signed typed txs.json entry as the envelope geth signs and decodes (type ‖ RLP of chain id,
 * nonce, the fee fields, gas, to, value, input, access list, the type's own fields, V, R, S):
 * what its sender is recovered from where ethereumjs will not build it. undefined where the
 * entry's lists are not of the shape geth's JSON decoding takes (ethereumjs' words then stand).
 */
export function typedJsonEnvelope(json: Readonly<Record<string, unknown>>): Uint8Array | undefined {
  const number = (value: unknown) => bigIntToUnpaddedBytes(BigInt(value as string));
  const bytes = (value: unknown) => hexToBytes(value as `0x${string}`);
  try {
    const type = Number(json.type);
    const fees =
      type === 1
        ? [number(json.gasPrice)]
        : [number(json.maxPriorityFeePerGas), number(json.maxFeePerGas)];
    const accessList = ((json.accessList ?? []) as Record<string, unknown>[]).map((entry) => [
      bytes(entry.address),
      (entry.storageKeys as unknown[]).map(bytes),
    ]);
    const own =
      type === 3
        ? [number(json.maxFeePerBlobGas), (json.blobVersionedHashes as unknown[]).map(bytes)]
        : type === 4
          ? [
              (json.authorizationList as Record<string, unknown>[]).map((a) => [
                number(a.chainId),
                bytes(a.address),
                number(a.nonce),
                number(a.yParity ?? a.v),
                number(a.r),
                number(a.s),
              ]),
            ]
          : [];
    const payload = [
      number(json.chainId),
      number(json.nonce),
      ...fees,
      number(json.gas),
      typeof json.to === "string" ? bytes(json.to) : new Uint8Array(0),
      number(json.value),
      bytes(json.input),
      accessList,
      ...own,
      number(json.v ?? json.yParity),
      number(json.r),
      number(json.s),
    ];
    return concatBytes(Uint8Array.of(type), RLP.encode(payload));
  } catch {
    return undefined;
  }
}
