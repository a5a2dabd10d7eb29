import { createBlockHeader } from "@ethereumjs/block";
import type { Common } from "@ethereumjs/common";
import type { PreCheckBlock } from "./geth-pre-check.js";

/**
 * The base fee and blob base fee of the block the builder makes (derived from the parent where
 * the env does not give them), for geth's pre-check of a refused transaction.
 */
export function pendingBlockFees(
  builder: object,
  common: Common,
): { baseFee?: bigint; blobBaseFee?: bigint } {
  const headerData = (builder as { headerData: Record<string, unknown> }).headerData;
  try {
    const header = createBlockHeader(headerData, {
      common,
      setHardfork: true,
      skipConsensusFormatValidation: true,
    });
    return {
      ...(header.baseFeePerGas === undefined ? {} : { baseFee: header.baseFeePerGas }),
      ...(header.excessBlobGas === undefined ? {} : { blobBaseFee: header.getBlobGasPrice() }),
    };
  } catch {
    // A header the library cannot make: the library's own reasons stand.
    return {};
  }
}

/**
 * What geth's pre-check of the next transaction reads of the block: its fees, the gas and blob
 * gas its transactions left.
 */
export function preCheckBlock(
  builder: object,
  common: Common,
  fees: { baseFee?: bigint; blobBaseFee?: bigint },
): PreCheckBlock {
  const { gasUsed, blobGasUsed, headerData } = builder as {
    gasUsed: bigint;
    blobGasUsed: bigint;
    headerData: { gasLimit: bigint };
  };
  return {
    ...fees,
    gasLeft: BigInt(headerData.gasLimit) - gasUsed,
    ...(common.isActivatedEIP(4844)
      ? { blobGas: { used: blobGasUsed, limit: common.getBlobGasSchedule().maxBlobGasPerBlock } }
      : {}),
  };
}
