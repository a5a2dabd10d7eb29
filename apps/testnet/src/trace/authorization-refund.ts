import type { StateManagerInterface } from "@ethereumjs/common";
import type { TypedTransaction } from "@ethereumjs/tx";
import { Address, bytesToBigInt, bytesToUnprefixedHex, equalsBytes } from "@ethereumjs/util";
import {
  authorizationsOf,
  isDelegation,
  recoverAuthority,
} from "../chain/authorization-authority.js";

/** What the authorizations so far left of one authority. */
interface AuthorityState {
  exists: boolean;
  nonce: bigint;
  /** Its code is empty or a delegation: an authorization may set it. */
  readonly settable: boolean;
}

/**
 * The refund geth's state transition adds for a set-code transaction's authorizations before
 * its code runs (`applyAuthorization`: 25,000 − 12,500 for each one applied to an authority
 * that exists), which geth's trace shows in every step's refund counter; the library keeps it
 * apart until the transaction ends. Read from the state before the transaction changes it: the
 * sender's nonce is one lower there than when geth applies the list.
 */
export async function authorizationRefund(
  tx: TypedTransaction,
  state: StateManagerInterface,
): Promise<bigint> {
  const { common } = tx;
  const list = authorizationsOf(tx);
  if (list.length === 0) return 0n;
  const sender = tx.getSenderAddress().bytes;
  const perExisting = common.param("perEmptyAccountCost") - common.param("perAuthBaseGas");
  const authorities = new Map<string, AuthorityState>();
  let refund = 0n;
  for (const data of list) {
    const authority = recoverAuthority(data, common.chainId());
    if (authority === undefined) continue;
    const key = bytesToUnprefixedHex(authority);
    let known = authorities.get(key);
    if (known === undefined) {
      const address = new Address(authority);
      const account = await state.getAccount(address);
      known = {
        exists: account !== undefined,
        nonce: (account?.nonce ?? 0n) + (equalsBytes(authority, sender) ? 1n : 0n),
        settable:
          account === undefined ||
          !account.isContract() ||
          isDelegation(await state.getCode(address)),
      };
      authorities.set(key, known);
    }
    if (!known.settable || known.nonce !== bytesToBigInt(data[2])) continue;
    if (known.exists) refund += perExisting;
    known.exists = true;
    known.nonce++;
  }
  return refund;
}
