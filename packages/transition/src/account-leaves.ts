import { type KeyDeriver, packBasicData } from "@bintrie/core";
import {
  BASIC_DATA_LEAF_KEY,
  CODE_HASH_LEAF_KEY,
  CODE_OFFSET,
  chunkifyCode,
  STEM_SUBTREE_WIDTH,
} from "@bintrie/core/embedding";
import type { BaseAccount } from "./mpt-base.js";

/** The leaves of one stem: subindex → 32-byte value. */
export interface StemLeaves {
  readonly stem: Uint8Array;
  readonly subindices: number[];
  readonly values: Uint8Array[];
}

/**
 * The header and code leaves a fresh binary build writes for an MPT account (geth's genesis
 * path): BASIC_DATA and CODE_HASH on the account stem, then every code chunk at 128 + i,
 * grouped by stem.
 */
export function headerAndCodeLeaves(
  keys: KeyDeriver,
  address: Uint8Array,
  account: BaseAccount,
  code: Uint8Array,
): StemLeaves[] {
  const accountStem = keys.accountStem(address);
  const head: StemLeaves = {
    stem: accountStem,
    subindices: [BASIC_DATA_LEAF_KEY, CODE_HASH_LEAF_KEY],
    values: [
      packBasicData({ codeSize: code.length, nonce: account.nonce, balance: account.balance }),
      account.codeHash,
    ],
  };
  const out = [head];
  if (code.length === 0) return out;
  const chunks = chunkifyCode(code);
  const count = chunks.length >>> 5;
  let group = head;
  let groupIndex = 0;
  for (let i = 0; i < count; i++) {
    const position = CODE_OFFSET + i;
    const treeIndex = Math.floor(position / STEM_SUBTREE_WIDTH);
    if (treeIndex !== groupIndex) {
      group = { stem: keys.treeStem(address, BigInt(treeIndex)), subindices: [], values: [] };
      out.push(group);
      groupIndex = treeIndex;
    }
    group.subindices.push(position % STEM_SUBTREE_WIDTH);
    group.values.push(chunks.subarray(i << 5, (i << 5) + 32));
  }
  return out;
}

/** Tree keys of code chunks [from, to) of `address`. */
export function codeChunkKeys(
  keys: KeyDeriver,
  address: Uint8Array,
  from: number,
  to: number,
): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let i = from; i < to; i++) out.push(keys.codeChunkKey(address, i));
  return out;
}
