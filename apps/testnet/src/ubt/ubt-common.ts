import type { Common, CommonOpts } from "@ethereumjs/common";
import { ParamsCachingCommon } from "../chain/params-caching-common.js";
import type { UbtNetwork } from "./ubt-network.js";

/**
 * The `Common` of a UBT network: the base fork's parameters with two of geth's UBT rules that
 * ethereumjs reads from `Common`:
 * - code deposit: `createDataGas` is 0, the deposit pays chunk writes instead
 *   (geth `EVM.initNewContract`, charged in rules/message-gas.ts `codeDepositGas`);
 * - CALL/CALLCODE with value: no 9000 (`callValueTransferGas` is 0, geth `gasCallIntrinsic`);
 * - SELFDESTRUCT is EIP-6780's on every UBT network (geth's `verkleInstructionSet` uses
 *   `opSelfdestruct6780` on a Shanghai base).
 * `copy()` keeps the subclass (ethereumjs copies with the prototype).
 */
export class UbtCommon extends ParamsCachingCommon {
  readonly ubtNetwork: UbtNetwork;

  constructor(opts: CommonOpts, network: UbtNetwork) {
    super(opts);
    this.ubtNetwork = network;
  }

  override param(name: string): bigint {
    if (name === "createDataGas") return 0n;
    // geth `gasCallIntrinsic`/`gasCallCodeIntrinsic`: no CallValueTransferGas under EIP-4762,
    // whichever instruction table runs (matters on `Binary`, where Osaka's CALL gas runs).
    if (name === "callValueTransferGas") return 0n;
    return super.param(name);
  }

  override isActivatedEIP(eip: number): boolean {
    if (eip === 6780) return true;
    // BLOCKHASH reads the chain, not the history contract (no EIP-7709 under geth's UBT).
    if (eip === 7709) return false;
    // Berlin's MODEXP (geth's UBT precompile set is Berlin's, see rules/precompile-set.ts).
    if (eip === 7823 || eip === 7883) return false;
    return super.isActivatedEIP(eip);
  }
}

/** Whether a Common runs geth's UBT rules. */
export function isUbtCommon(common: Common): common is UbtCommon {
  return common instanceof UbtCommon;
}
