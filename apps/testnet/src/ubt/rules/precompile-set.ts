import type { Common } from "@ethereumjs/common";
import { type CustomPrecompile, getActivePrecompiles } from "@ethereumjs/evm";

/** Berlin's precompiles: ecrecover … blake2f (0x01–0x09). */
const BERLIN_LAST = 0x09;

/**
 * geth `activePrecompiledContracts` (core/vm/contracts.go): `rules.IsUBT` is tested first and
 * returns `PrecompiledContractsVerkle` = `PrecompiledContractsBerlin`, whatever the base fork.
 * So on `Binary` (Osaka base) the point-evaluation, BLS and P256 precompiles are absent: they
 * are deleted here. (Berlin's MODEXP pricing is kept by `UbtCommon`, which turns EIP-7823/7883 off.)
 */
export function ubtPrecompiles(common: Common): CustomPrecompile[] {
  const removed: CustomPrecompile[] = [];
  for (const address of getActivePrecompiles(common).keys()) {
    if (Number.parseInt(address, 16) > BERLIN_LAST) {
      removed.push({ address: `0x${address.replace(/^0x/, "")}` as `0x${string}` });
    }
  }
  return removed;
}
