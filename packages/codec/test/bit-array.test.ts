import { describe, expect, it } from "vitest";
import { BitArray } from "../src/index.js";
import { codecErrorCode } from "./expect-codec-error.js";
import { bytesToHex, hexToBytes } from "./hex.js";

// Spec 6.1 "BitArray tables" (bitarray_test.go). ba(len, bytes...) = length + left-aligned bytes.
function expectBa(actual: BitArray, length: number, leftAlignedHex: string): void {
  expect(actual.length).toBe(length);
  expect(bytesToHex(actual.bytes)).toBe(leftAlignedHex.padEnd(64, "0"));
}

function ba(length: number, hex: string): BitArray {
  return BitArray.fromBytes(length, hexToBytes(hex));
}

describe("BitArray: NewBitArray rows", () => {
  const rows: [length: number, value: number, expectedHex: string][] = [
    [0, 0, ""],
    [1, 1, "80"],
    [1, 0, "00"],
    [3, 0b101, "a0"],
    [8, 0xff, "ff"],
    [10, 0x3ff, "ffc0"],
    [3, 0b11101, "a0"],
  ];
  for (const [length, value, expectedHex] of rows) {
    it(`NewBitArray(${length}, 0x${value.toString(16)}) = ba(${length}, ${expectedHex})`, () => {
      expectBa(BitArray.fromUint(length, value), length, expectedHex);
      expectBa(new BitArray(length, BigInt(value)), length, expectedHex);
    });
  }

  it("takes the low bits of a bigint wider than 64 bits", () => {
    expectBa(BitArray.fromUint(72, (0xabn << 64n) | 1n), 72, "ab0000000000000001");
    expectBa(BitArray.fromUint(4, (1n << 100n) | 0b1001n), 4, "90");
  });

  it("rejects negative or fractional values and lengths past 248", () => {
    expect(codecErrorCode(() => BitArray.fromUint(3, -1))).toBe("INVALID_ARGUMENT");
    expect(codecErrorCode(() => BitArray.fromUint(3, 1.5))).toBe("INVALID_ARGUMENT");
    expect(codecErrorCode(() => BitArray.fromUint(3, -1n))).toBe("INVALID_ARGUMENT");
    expect(codecErrorCode(() => BitArray.fromUint(249, 0))).toBe("INVALID_ARGUMENT");
  });
});

describe("BitArray: SetBytes rows", () => {
  const rows: [length: number, data: string, expectedHex: string][] = [
    [0, "ff", ""],
    [8, "ab", "ab"],
    [4, "ff", "f0"],
    [11, "ffff", "ffe0"],
    [4, "ffff", "f0"],
    [16, "ab", "ab00"],
  ];
  for (const [length, data, expectedHex] of rows) {
    it(`SetBytes(${length}, [${data}]) = ba(${length}, ${expectedHex || "-"})`, () => {
      expectBa(new BitArray().setBytes(length, hexToBytes(data)), length, expectedHex);
    });
  }

  it("SetBytes(248, ff*32) keeps 31 bytes of ff and zeroes byte 31", () => {
    const bits = new BitArray().setBytes(248, new Uint8Array(32).fill(0xff));
    expectBa(bits, 248, "ff".repeat(31));
    expect(bits.bytes[31]).toBe(0);
  });

  it("overwrites earlier contents and reads at most 32 bytes", () => {
    const bits = ba(16, "ffff");
    expectBa(bits.setBytes(4, hexToBytes("50")), 4, "50");
    expectBa(new BitArray().setBytes(8, new Uint8Array(40).fill(0x11)), 8, "11");
  });
});

describe("BitArray: MSBs rows (of ba(16, ab, cd))", () => {
  const source = ba(16, "abcd");
  const rows: [n: number, length: number, expectedHex: string][] = [
    [8, 8, "ab"],
    [4, 4, "a0"],
    [0, 0, ""],
    [16, 16, "abcd"],
    [20, 16, "abcd"],
  ];
  for (const [n, length, expectedHex] of rows) {
    it(`MSBs(${n}) = ba(${length}, ${expectedHex || "-"})`, () => {
      expectBa(source.msbs(n), length, expectedHex);
    });
  }

  it("leaves the source unchanged", () => {
    source.msbs(3);
    expectBa(source, 16, "abcd");
  });
});

describe("BitArray: AppendBit rows", () => {
  it("1, 0, 1 = ba(3, a0)", () => {
    expectBa(new BitArray().appendBit(1).appendBit(0).appendBit(1), 3, "a0");
  });

  it("nine 1s = ba(9, ff, 80)", () => {
    let bits = new BitArray();
    for (let i = 0; i < 9; i++) {
      bits = bits.appendBit(1);
    }
    expectBa(bits, 9, "ff80");
  });

  it("ba(4, f0) + 0 = ba(5, f0)", () => {
    expectBa(ba(4, "f0").appendBit(0), 5, "f0");
  });

  it("refuses to grow past 248 bits", () => {
    const full = new BitArray().setBytes(248, new Uint8Array(31));
    expect(codecErrorCode(() => full.appendBit(0))).toBe("PATH_TOO_DEEP");
    expect(codecErrorCode(() => new BitArray().appendBit(2 as 0))).toBe("INVALID_ARGUMENT");
  });
});

describe("BitArray: SetBit and Equal rows", () => {
  it("SetBit(1) = ba(1, 80) and SetBit(0) = ba(1, 00)", () => {
    expectBa(ba(16, "ffff").setBit(1), 1, "80");
    expectBa(ba(16, "ffff").setBit(0), 1, "00");
  });

  it("NewBitArray(2, 0b10) != ba(3, 80)", () => {
    expect(BitArray.fromUint(2, 0b10).equals(ba(3, "80"))).toBe(false);
    expect(BitArray.fromUint(2, 0b10).equals(ba(2, "80"))).toBe(true);
    expect(ba(8, "ab").equals(ba(8, "ac"))).toBe(false);
  });
});

describe("BitArray: KeyBytes rows", () => {
  const rows: [length: number, data: string, key: string][] = [
    [0, "", ""],
    [1, "80", "8001"],
    [8, "80", "8008"],
    [11, "ffff", "ffe00b"],
  ];
  for (const [length, data, key] of rows) {
    it(`KeyBytes of ba(${length}, ${data || "-"}) = ${key || "(empty)"}`, () => {
      expect(bytesToHex(ba(length, data).keyBytes())).toBe(key);
    });
  }

  it("PutKeyBytes writes the same bytes at an offset", () => {
    const out = new Uint8Array(6).fill(0xee);
    expect(ba(11, "ffff").putKeyBytes(out, 2)).toBe(3);
    expect(bytesToHex(out)).toBe("eeeeffe00bee");
    expect(new BitArray().putKeyBytes(out)).toBe(0);
  });

  it("fromPathKey inverts KeyBytes", () => {
    const bits = BitArray.fromPathKey(hexToBytes("ffe00b"));
    expectBa(bits, 11, "ffe0");
    expectBa(BitArray.fromPathKey(new Uint8Array(0)), 0, "");
  });
});

describe("BitArray: Bit, Copy, String", () => {
  it("reads bits MSB-first and 0 past the end", () => {
    const bits = ba(4, "a0");
    expect([0, 1, 2, 3, 4, 200].map((i) => bits.bit(i))).toEqual([1, 0, 1, 0, 0, 0]);
  });

  it("copies are independent", () => {
    const original = ba(8, "0f");
    const copy = original.copy();
    copy.setBit(1);
    expectBa(original, 8, "0f");
    expectBa(copy, 1, "80");
  });

  it('formats as "(length) hex"', () => {
    expect(ba(4, "a0").toString()).toBe(`(4) a0${"0".repeat(62)}`);
  });
});
