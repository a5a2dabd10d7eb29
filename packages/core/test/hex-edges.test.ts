import { BintrieError } from "@bintrie/codec";
import { bytesToHex as nobleBytesToHex } from "@noble/hashes/utils.js";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  applyGenesisAlloc,
  BinaryTree,
  bytesToHex,
  EMPTY_CODE_HASH,
  hexToBytes,
  KeyDerivationError,
  TreeError,
} from "../src/index.js";

const ADDRESS = "0x71562b71999873db5b286df957af199ec94617f7";

function thrown(fn: () => unknown): BintrieError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(BintrieError);
    return error as BintrieError;
  }
  throw new Error("expected a throw");
}

describe("hexToBytes / bytesToHex", () => {
  it("round-trip any bytes, with or without the 0x prefix, either case of digits", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 80 }), (bytes) => {
        const text = bytesToHex(bytes);
        expect(text).toBe(`0x${nobleBytesToHex(bytes)}`);
        expect(hexToBytes(text)).toEqual(bytes);
        expect(hexToBytes(text.slice(2).toUpperCase())).toEqual(bytes);
      }),
      { numRuns: 300 },
    );
    expect(hexToBytes("0x")).toEqual(new Uint8Array(0));
    expect(hexToBytes("")).toEqual(new Uint8Array(0));
  });

  it("reject malformed text with INVALID_HEX naming the input and what it was for", () => {
    for (const bad of ["0x1", "0xzz", "0x0x00", " 00", "0X00"]) {
      const error = thrown(() => hexToBytes(bad, "slot value"));
      expect(error.code).toBe("INVALID_HEX");
      expect(error.message).toContain(JSON.stringify(bad));
      expect(error.message).toContain("slot value");
    }
    expect(thrown(() => hexToBytes(7 as unknown as string)).code).toBe("INVALID_HEX");
  });
});

describe("the account-level API takes 0x hex or bytes", () => {
  it("putAccount('0x…') then getAccount('0x…') reads the account back", () => {
    const tree = new BinaryTree();
    tree.putAccount(ADDRESS, {
      nonce: 7n,
      balance: 10n ** 18n,
      codeHash: bytesToHex(EMPTY_CODE_HASH),
      codeSize: 0,
    });
    expect(tree.getAccount(ADDRESS)).toEqual({
      nonce: 7n,
      balance: 10n ** 18n,
      codeHash: EMPTY_CODE_HASH,
      codeSize: 0,
    });
    expect(tree.getAccount(hexToBytes(ADDRESS))).toEqual(tree.getAccount(ADDRESS));
    tree.deleteAccount(ADDRESS.toUpperCase().replace("0X", "0x"));
    expect(tree.getAccount(ADDRESS)).toBeUndefined();
  });

  it("hex and bytes inputs build the same tree (property)", () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 20, maxLength: 20 }),
        fc.bigInt({ min: 0n, max: (1n << 256n) - 1n }),
        fc.uint8Array({ minLength: 1, maxLength: 32 }),
        fc.uint8Array({ maxLength: 100 }),
        (address, slot, value, code) => {
          const viaBytes = new BinaryTree();
          viaBytes.putStorage(address, slot, value);
          viaBytes.putCode(address, code);
          const viaHex = new BinaryTree();
          viaHex.putStorage(bytesToHex(address), `0x${slot.toString(16)}`, bytesToHex(value));
          viaHex.putCode(bytesToHex(address), bytesToHex(code));
          expect(bytesToHex(viaHex.hash())).toBe(bytesToHex(viaBytes.hash()));
          expect(viaHex.getStorage(bytesToHex(address), slot)).toEqual(
            viaBytes.getStorage(address, slot),
          );
        },
      ),
      { numRuns: 60 },
    );
  });

  it("getCode and deleteStorage take hex", () => {
    const tree = new BinaryTree();
    tree.putAccount(ADDRESS, { nonce: 0n, balance: 0n, codeHash: EMPTY_CODE_HASH, codeSize: 2 });
    tree.putCode(ADDRESS, "0x6001");
    expect(tree.getCode(ADDRESS)).toEqual(Uint8Array.of(0x60, 0x01));
    tree.putStorage(ADDRESS, "0x01", "0x2a");
    tree.deleteStorage(ADDRESS, "0x01");
    expect(tree.getStorage(ADDRESS, 1n)).toEqual(new Uint8Array(32));
  });

  it("bad hex at the edges is a BintrieError naming the input", () => {
    const tree = new BinaryTree();
    const address = thrown(() => tree.getAccount("0xnothex"));
    expect(address.code).toBe("INVALID_HEX");
    expect(address.message).toContain("address");
    const slot = thrown(() => tree.getStorage(ADDRESS, "42"));
    expect(slot).toBeInstanceOf(KeyDerivationError);
    expect(slot.code).toBe("INVALID_SLOT");
    const value = thrown(() => tree.putStorage(ADDRESS, 1n, `0x${"00".repeat(33)}`));
    expect(value).toBeInstanceOf(TreeError);
    expect(value.code).toBe("INVALID_VALUE");
    const codeHash = thrown(() =>
      tree.putAccount(ADDRESS, { nonce: 0n, balance: 0n, codeHash: "0x00", codeSize: 0 }),
    );
    expect(codeHash.code).toBe("INVALID_VALUE");
  });

  it("genesis input may be bigints and bytes as well as genesis.json's hex", () => {
    const fromJson = new BinaryTree();
    applyGenesisAlloc(fromJson, {
      [ADDRESS]: { balance: "0x3e8", nonce: "0x1", code: "0x6001", storage: { "0x01": "0x2a" } },
    });
    const fromCode = new BinaryTree();
    applyGenesisAlloc(fromCode, {
      [ADDRESS]: {
        balance: 1000n,
        nonce: 1n,
        code: Uint8Array.of(0x60, 0x01),
        storage: { "0x01": Uint8Array.of(0x2a) },
      },
    });
    expect(bytesToHex(fromCode.hash())).toBe(bytesToHex(fromJson.hash()));
  });
});
