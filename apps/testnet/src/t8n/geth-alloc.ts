import { bytesToHex as hex } from "@bintrie/core";
import type { DumpedAccount } from "../state/binary-state-manager.js";

/** One account as geth's t8n prints its output alloc (`types.Account` JSON). */
export interface GethAllocAccount {
  readonly code?: string;
  readonly storage?: Readonly<Record<string, string>>;
  readonly balance: string;
  readonly nonce?: string;
}

/**
 * A state dump as geth's `evm t8n` writes `alloc.json` (core/types `Account` JSON, the UBT
 * alloc recorder's content): accounts by address; `code` and `storage` omitted when empty,
 * storage keys and values as 32-byte hashes, `balance` a minimal hex quantity, `nonce` omitted
 * when zero. Field order as geth's encoder: code, storage, balance, nonce.
 */
export function gethAllocFromDump(
  dump: ReadonlyMap<string, DumpedAccount>,
): Record<string, GethAllocAccount> {
  const alloc: Record<string, GethAllocAccount> = {};
  for (const [address, account] of dump) {
    const entry: {
      code?: string;
      storage?: Record<string, string>;
      balance: string;
      nonce?: string;
    } = { balance: "" };
    if (account.code.length > 0) entry.code = hex(account.code);
    if (account.storage.size > 0) {
      const storage: Record<string, string> = {};
      for (const [slot, value] of account.storage)
        storage[hash(slot.slice(2))] = hash(hex(value).slice(2));
      entry.storage = storage;
    }
    entry.balance = `0x${account.balance.toString(16)}`;
    if (account.nonce !== 0n) entry.nonce = `0x${account.nonce.toString(16)}`;
    const { code, storage, balance, nonce } = entry;
    alloc[address] = {
      ...(code !== undefined ? { code } : {}),
      ...(storage !== undefined ? { storage } : {}),
      balance,
      ...(nonce !== undefined ? { nonce } : {}),
    };
  }
  return alloc;
}

function hash(digits: string): string {
  return `0x${digits.padStart(64, "0")}`;
}
