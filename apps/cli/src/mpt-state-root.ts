import type { GenesisAlloc } from "@bintrie/core";
import { CliError } from "./cli-error.js";
import { parseHexArg } from "./hex.js";

/**
 * The Merkle-Patricia state root of a genesis alloc, as `geth init` computes it for an MPT
 * chain: secure (keccak-keyed) account and storage tries, zero storage values left out.
 */
export async function mptStateRoot(alloc: GenesisAlloc): Promise<Uint8Array> {
  const [{ MerklePatriciaTrie }, { RLP }, { Account }, { keccak_256 }] = await Promise.all([
    import("@ethereumjs/mpt"),
    import("@ethereumjs/rlp"),
    import("@ethereumjs/util"),
    import("@noble/hashes/sha3.js"),
  ]);
  const trie = new MerklePatriciaTrie({ useKeyHashing: true });
  for (const [addressHex, entry] of Object.entries(alloc)) {
    const address = parseHexArg(addressHex, `alloc address`, { bytes: 20 });
    const account = new Account();
    account.balance = quantity(entry.balance, `alloc[${addressHex}].balance`);
    account.nonce = quantity(entry.nonce, `alloc[${addressHex}].nonce`);
    const code = parseHexArg(entry.code ?? "0x", `alloc[${addressHex}].code`);
    account.codeHash = keccak_256(code);
    const storage = Object.entries(entry.storage ?? {});
    if (storage.length > 0) {
      const storageTrie = new MerklePatriciaTrie({ useKeyHashing: true });
      for (const [slotHex, valueHex] of storage) {
        const slot = parseHexArg(evenHex(slotHex), `alloc[${addressHex}].storage key`, {
          padTo: 32,
        });
        const value = parseHexArg(evenHex(valueHex), `alloc[${addressHex}].storage[${slotHex}]`, {
          padTo: 32,
        });
        const first = value.findIndex((b) => b !== 0);
        if (first < 0) continue; // a zero value is not stored
        await storageTrie.put(slot, RLP.encode(value.subarray(first)));
      }
      account.storageRoot = storageTrie.root();
    }
    await trie.put(address, account.serialize());
  }
  return trie.root();
}

function evenHex(text: string): string {
  const digits = text.startsWith("0x") ? text.slice(2) : text;
  return digits.length % 2 === 0 ? text : `0x0${digits}`;
}

function quantity(text: string | undefined, what: string): bigint {
  if (text === undefined || text === "" || text === "0x") return 0n;
  if (/^0x[0-9a-fA-F]+$/.test(text) || /^[0-9]+$/.test(text)) return BigInt(text);
  throw new CliError("BAD_INPUT", `${what}: ${JSON.stringify(text)} is not a hex or decimal quantity`);
}
