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
