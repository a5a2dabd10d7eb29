import { type Block, createBlock } from "@ethereumjs/block";
import type { Common } from "@ethereumjs/common";
import type { DevnetGenesis } from "./devnet-genesis.js";

/**
 * The genesis block of `genesis` with state root `stateRoot`, as geth's `Genesis.ToBlock`
 * builds it: every header field the file gives (difficulty, mixHash, coinbase, nonce,
 * parentHash, gasUsed, extraData, the blob fields from Cancun on).
 */
export function devnetGenesisBlock(
  genesis: DevnetGenesis,
  common: Common,
  stateRoot: Uint8Array,
): Block {
  return createBlock(
    {
      header: {
        number: 0n,
        timestamp: genesis.timestamp,
        gasLimit: genesis.gasLimit,
        baseFeePerGas: genesis.baseFeePerGas,
        extraData: genesis.extraData,
        difficulty: genesis.difficulty,
        mixHash: genesis.mixHash,
        coinbase: genesis.coinbase,
        nonce: genesis.nonce,
        parentHash: genesis.parentHash,
        gasUsed: genesis.gasUsed,
        ...(common.isActivatedEIP(4844)
          ? { excessBlobGas: genesis.excessBlobGas, blobGasUsed: genesis.blobGasUsed }
          : {}),
        stateRoot,
      },
    },
    { common, setHardfork: true },
  );
}
