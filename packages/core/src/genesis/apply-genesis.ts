import { codeHash } from "../embedding/code-hash.js";
import type { BinaryTree } from "../tree/binary-tree.js";
import { type GenesisAlloc, GenesisError } from "./genesis-alloc.js";
import { parseHexBytes, parseQuantity } from "./hex-input.js";

export interface ApplyGenesisOptions {
  /**
   * 'genesis' (default): go-ethereum's `geth init` path through StateDB — zero storage values
   * are skipped. 't8n': `evm t8n` / `genBinTrieFromAlloc` — every slot is written, zero values
   * as present zero leaves.
   */
  readonly zeroStorage?: "skip" | "write";
}

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
 */
export function applyGenesisAlloc(
  tree: BinaryTree,
  alloc: GenesisAlloc,
  options: ApplyGenesisOptions = {},
): GenesisSummary {
  const writeZero = options.zeroStorage === "write";
  let accounts = 0;
  let storageSlots = 0;
  let codeBytes = 0;
  for (const [addressHex, account] of Object.entries(alloc)) {
    if (!/^(0x)?[0-9a-fA-F]{40}$/.test(addressHex)) {
      throw new GenesisError("INVALID_ALLOC", `alloc address ${addressHex} is not 20 bytes of hex`);
    }
    const address = parseHexBytes(addressHex, `alloc address ${addressHex}`, 20);
    const code = parseHexBytes(account.code, `alloc[${addressHex}].code`);
    for (const [slotHex, valueHex] of Object.entries(account.storage ?? {})) {
      const slot = parseHexBytes(slotHex, `alloc[${addressHex}].storage key ${slotHex}`, 32);
      const value = parseHexBytes(valueHex, `alloc[${addressHex}].storage[${slotHex}]`, 32);
      if (!writeZero && value.every((b) => b === 0)) continue;
      tree.putStorage(address, slot, value);
      storageSlots++;
    }
    tree.putAccount(address, {
      nonce: parseQuantity(account.nonce, `alloc[${addressHex}].nonce`),
      balance: parseQuantity(account.balance, `alloc[${addressHex}].balance`),
      codeSize: code.length,
      codeHash: codeHash(code),
    });
    if (code.length > 0) tree.putCode(address, code);
    accounts++;
    codeBytes += code.length;
  }
  return { accounts, storageSlots, codeBytes };
}
