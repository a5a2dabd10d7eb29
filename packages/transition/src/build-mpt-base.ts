import type { BatchOperation, GenesisAlloc, KVStore } from "@bintrie/core";
import { EMPTY_MPT_ROOT } from "@bintrie/core";
import { isZero } from "@bintrie/core/bytes";
import { MerklePatriciaTrie } from "@ethereumjs/mpt";
import { RLP } from "@ethereumjs/rlp";
import { createAccount, ValueEncoding } from "@ethereumjs/util";
import { keccak256, trimLeadingZeros } from "./bytes.js";
import { checkStore } from "./check-store.js";
import { type AllocAccount, allocAccounts } from "./genesis-input.js";
import { KVStoreDB } from "./kv-store-db.js";
import { assertLayout, DEFAULT_STORE_LAYOUT, StoreKeys, type StoreLayout } from "./store-layout.js";

export interface BuildMptBaseResult {
  /** The MPT state root (what a genesis header's `stateRoot` holds). */
  readonly root: Uint8Array;
  readonly accounts: number;
  /** Non-zero storage slots written (zero values are absent in an MPT). */
  readonly storageSlots: number;
  readonly codeBytes: number;
}

/**
 * Writes the Merkle-Patricia state of an alloc into `store` (one atomic batch): MPT nodes under
 * the layout's node prefix, code under its code prefix. Accounts are RLP([nonce, balance,
 * storageRoot, codeHash]) under keccak(address); storage tries hold RLP(value without leading
 * zeros) under keccak(slot). This is what `MptBase.open(store, root)` reads.
 *
 * @example
 * ```ts
 * import { MemoryStore } from "@bintrie/core";
 * import { buildMptBase } from "@bintrie/transition";
 *
 * const store = new MemoryStore();
 * const { root } = await buildMptBase(store, {
 *   "0x0100000000000000000000000000000000000000": { balance: "0x1" },
 * }); // the MPT state root of the alloc, its nodes in `store`
 * ```
 */
export async function buildMptBase(
  store: KVStore,
  alloc: GenesisAlloc | readonly AllocAccount[],
  layout: StoreLayout = DEFAULT_STORE_LAYOUT,
): Promise<BuildMptBaseResult> {
  checkStore("buildMptBase: store", store);
  const accounts = allocAccounts("buildMptBase: alloc", alloc);
  assertLayout(layout, []);
  const keys = new StoreKeys(layout);
  const db = new KVStoreDB(store, layout.mptNodePrefix, { buffered: true });
  const trieOptions = { db, valueEncoding: ValueEncoding.Bytes, useKeyHashing: true } as const;
  const accountTrie = new MerklePatriciaTrie(trieOptions);
  const codeOps: BatchOperation[] = [];
  let storageSlots = 0;
  let codeBytes = 0;
  // One storage trie, re-rooted per account (constructing a trie per account costs more).
  const storageTrie = new MerklePatriciaTrie(trieOptions);
  for (const account of accounts) {
    storageTrie.root(EMPTY_MPT_ROOT);
    for (const [slot, value] of account.storage) {
      if (isZero(value)) continue;
      await storageTrie.put(slot, RLP.encode(trimLeadingZeros(value)));
      storageSlots++;
    }
    const codeHash = keccak256(account.code);
    if (account.code.length > 0) {
      codeOps.push({ type: "put", key: keys.code(codeHash), value: account.code });
      codeBytes += account.code.length;
    }
    const body = createAccount({
      nonce: account.nonce,
      balance: account.balance,
      storageRoot: storageTrie.root(),
      codeHash,
    }).serialize();
    await accountTrie.put(account.address, body);
  }
  await db.flush(codeOps);
  return { root: accountTrie.root(), accounts: accounts.length, storageSlots, codeBytes };
}
