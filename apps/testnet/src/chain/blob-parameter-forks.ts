import type { HardforksDict } from "@ethereumjs/common";

/**
 * Blob-parameter-only forks (EIP-7892) geth knows and @ethereumjs/common 10.1.3 does not: each
 * changes only the blob target, maximum and base fee update fraction, with geth's values
 * (params.DefaultBPO3BlobConfig, DefaultBPO4BlobConfig at go-ethereum 02b73d4). They follow the
 * library's bpo2, as in geth's fork order.
 */
export const BLOB_PARAMETER_FORKS: HardforksDict = {
  bpo3: { eips: [], params: { target: 21, max: 32, blobGasPriceUpdateFraction: 20_609_697 } },
  bpo4: { eips: [], params: { target: 14, max: 21, blobGasPriceUpdateFraction: 13_739_630 } },
};

/** The library fork the forks above follow. */
export const BLOB_PARAMETER_FORKS_AFTER = "bpo2";
