import { describe, expect, it } from "vitest";
import { packBasicData } from "../src/embedding/basic-data.js";
import { chunkifyCode } from "../src/embedding/chunkify.js";
import { codeHash } from "../src/embedding/code-hash.js";
import { KeyDeriver } from "../src/embedding/key-deriver.js";
import { hashFunctionOfScheme } from "../src/embedding/key-scheme.js";
import { storageSlotToBytes } from "../src/embedding/storage-slot.js";
import { getHasher } from "../src/hash/get-hasher.js";
import {
  type AllocAccount,
  bytesToHex,
  hexToBytes,
  loadReferenceVectors,
  quantity,
  referenceRoot,
  VARIANTS,
  type Variant,
} from "./helpers/vectors.js";

const { vectors } = loadReferenceVectors().state_root_vectors;

/**
 * geth genesis leaves for an alloc (spec §5.7): BASIC_DATA and CODE_HASH per account, every code
 * chunk, and only non-zero storage values, left-padded to 32 bytes.
 */
function allocLeaves(
  variant: Variant,
  alloc: Record<string, AllocAccount>,
): Map<string, Uint8Array> {
  const deriver = new KeyDeriver(variant);
  const leaves = new Map<string, Uint8Array>();
  for (const [addressHex, account] of Object.entries(alloc)) {
    const address = hexToBytes(addressHex);
    const code = hexToBytes(account.code ?? "0x");
    const basicData = packBasicData({
      codeSize: code.length,
      nonce: quantity(account.nonce),
      balance: quantity(account.balance),
    });
    leaves.set(bytesToHex(deriver.basicDataKey(address)), basicData);
    leaves.set(bytesToHex(deriver.codeHashKey(address)), codeHash(code));
    const chunks = chunkifyCode(code);
    for (let i = 0; i < chunks.length / 32; i++) {
      leaves.set(bytesToHex(deriver.codeChunkKey(address, i)), chunks.slice(32 * i, 32 * i + 32));
    }
    for (const [slotHex, valueHex] of Object.entries(account.storage ?? {})) {
      const value = quantity(valueHex);
      if (value === 0n) continue;
      leaves.set(
        bytesToHex(deriver.storageSlotKey(address, quantity(slotHex))),
        storageSlotToBytes(value),
      );
    }
  }
  return leaves;
}

describe("state_root_vectors: alloc -> leaves (embedding) -> root", () => {
  it("has 6 vectors", () => {
    expect(vectors.map((v) => v.name)).toEqual([
      "geth_TestBinaryGenesisCommit",
      "empty_alloc",
      "single_eoa",
      "empty_account_in_alloc",
      "contract_storage_and_long_code",
      "prague_system_contracts_genesis",
    ]);
  });

  describe.each(VARIANTS)("%s", (variant) => {
    it.each(vectors.map((v) => [v.name, v] as const))("%s", (_name, v) => {
      const leaves = allocLeaves(variant, v.alloc);
      expect(leaves.size).toBe(v.leaf_count[variant]);
      if (variant === "sha256-be" && v.leaves_sha256_be !== undefined) {
        const expected = v.leaves_sha256_be.map((l) => [l.key, l.value]).sort();
        const actual = [...leaves].map(([k, value]) => [k, bytesToHex(value)]).sort();
        expect(actual).toEqual(expected);
      }
      const root = referenceRoot(getHasher(hashFunctionOfScheme(variant)), leaves);
      expect(bytesToHex(root)).toBe(v.expected_root[variant]);
    });
  });

  it("reproduces geth TestBinaryGenesisCommit 0870fd58…", () => {
    const geth = vectors[0]!;
    const root = referenceRoot(getHasher("sha256"), allocLeaves("sha256-be", geth.alloc));
    expect(bytesToHex(root)).toBe(
      "0x0870fd587c41dc778019de8c5cb3193fe4ef1f417976461952d3712ba39163f5",
    );
  });
});
