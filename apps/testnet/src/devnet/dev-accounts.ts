import { type Address, createAddressFromPrivateKey, utf8ToBytes } from "@ethereumjs/util";
import { keccak_256 } from "@noble/hashes/sha3.js";

/** A prefunded devnet account. The keys are public: never use them outside a devnet. */
export interface DevAccount {
  readonly key: Uint8Array;
  readonly address: Address;
}

/** Key i = keccak256("bintrie-testnet devnet key " + i), so the genesis file needs no keys. */
export function devAccount(index: number): DevAccount {
  const key = keccak_256(utf8ToBytes(`bintrie-testnet devnet key ${index}`));
  return { key, address: createAddressFromPrivateKey(key) };
}

export function devAccounts(count: number): DevAccount[] {
  return Array.from({ length: count }, (_, i) => devAccount(i));
}

/**
 * The dev accounts a genesis alloc funds: key 0, 1, … up to the first one it does not hold (at
 * most `most`). Addresses in the alloc are lowercase 0x-hex, as the genesis reader writes them.
 */
export function fundedDevAccounts(
  alloc: Readonly<Record<string, unknown>>,
  most = Number.POSITIVE_INFINITY,
): DevAccount[] {
  const accounts: DevAccount[] = [];
  for (let i = 0; i < most; i++) {
    const account = devAccount(i);
    if (alloc[account.address.toString()] === undefined) break;
    accounts.push(account);
  }
  return accounts;
}
