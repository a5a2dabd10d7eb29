import { assertKnownOptions, describeValue } from "@bintrie/codec";
import { isZero } from "../bytes/is-zero.js";
import { codeHash } from "../embedding/code-hash.js";
import { optionKeys } from "../options/known-options.js";
import type { BinaryTree } from "../tree/binary-tree.js";
import { type GenesisAllocInput, GenesisError } from "./genesis-alloc.js";
import { parseGenesisAlloc } from "./parse-alloc.js";

export interface ApplyGenesisOptions {
  /**
   * 'genesis' (default): go-ethereum's `geth init` path through StateDB — zero storage values
   * are skipped. 't8n': `evm t8n` / `genBinTrieFromAlloc` — every slot is written, zero values
   * as present zero leaves.
   */
  readonly zeroStorage?: "skip" | "write";
}

const APPLY_GENESIS_OPTION_KEYS = optionKeys<ApplyGenesisOptions>()(["zeroStorage"]);

/** Counts of what was written. */
export interface GenesisSummary {
  readonly accounts: number;
  readonly storageSlots: number;
  readonly codeBytes: number;
}

/**
 * Writes a geth-style genesis alloc into the tree as go-ethereum's binary-tree genesis does:
 * per account the BASIC_DATA and CODE_HASH leaves (keccak of the code, the empty-code hash for
 * EOAs), every code chunk, and the storage slots (zero values skipped unless asked otherwise).
 *
 * @example
 * ```ts
 * import { applyGenesisAlloc, BinaryTree } from "@bintrie/core";
 *
 * const tree = new BinaryTree();
 * applyGenesisAlloc(tree, {
 *   "0x00000000000000000000000000000000000000aa": { balance: "0x3e8", storage: { "0x01": "0x2a" } },
 * });
 * tree.getAccount("0x00000000000000000000000000000000000000aa")?.balance; // 1000n
 * ```
 */
export function applyGenesisAlloc(
  tree: BinaryTree,
  alloc: GenesisAllocInput,
  options: ApplyGenesisOptions = {},
): GenesisSummary {
  assertKnownOptions(options, APPLY_GENESIS_OPTION_KEYS, "applyGenesisAlloc", GenesisError);
  const { zeroStorage } = options;
  if (zeroStorage !== undefined && zeroStorage !== "skip" && zeroStorage !== "write") {
    throw new GenesisError(
      "INVALID_OPTION",
      `applyGenesisAlloc: zeroStorage must be 'skip' or 'write', got ${describeValue(zeroStorage)}`,
    );
  }
  const writeZero = zeroStorage === "write";
  let accounts = 0;
  let storageSlots = 0;
  let codeBytes = 0;
  for (const { address, nonce, balance, code, storage } of parseGenesisAlloc(alloc)) {
    for (const [slot, value] of storage) {
      if (!writeZero && isZero(value)) continue;
      tree.putStorage(address, slot, value);
      storageSlots++;
    }
    tree.putAccount(address, { nonce, balance, codeSize: code.length, codeHash: codeHash(code) });
    if (code.length > 0) tree.putCode(address, code);
    accounts++;
    codeBytes += code.length;
  }
  return { accounts, storageSlots, codeBytes };
}
