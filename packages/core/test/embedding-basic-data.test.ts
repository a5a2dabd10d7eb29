import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  basicDataBalanceField,
  packBasicData,
  unpackBasicData,
} from "../src/embedding/basic-data.js";
import { BasicDataError } from "../src/embedding/errors.js";
import { expectTypedError } from "./helpers/expect-error.js";
import {
  bytesToHex,
  hexToBytes,
  loadEthereumjsVectors,
  loadGethSpec,
  loadReferenceVectors,
} from "./helpers/vectors.js";

const vectors = loadReferenceVectors();

function expectBasicDataError(fn: () => unknown, code: string, fragment: string): void {
  expectTypedError(fn, BasicDataError, code, fragment);
}

/** geth's balance bytes, emulated on hex strings: minimal big-endian bytes, `[16:]` if longer than 16. */
function gethBalanceBytes(balance: bigint): Uint8Array {
  let hex = balance === 0n ? "" : balance.toString(16);
  if (hex.length % 2) hex = `0${hex}`;
  let bytes = hexToBytes(hex);
  if (bytes.length > 16) bytes = bytes.slice(16);
  const field = new Uint8Array(16);
  field.set(bytes, 16 - bytes.length);
  return field;
}

describe("basic_data_vectors (every entry)", () => {
  it("has 5 entries", () => {
    expect(vectors.basic_data_vectors.length).toBe(5);
  });

  it.each(vectors.basic_data_vectors.map((v) => [v.value, v] as const))(
    "%s packs and unpacks",
    (_value, v) => {
      const fields = {
        version: v.version,
        codeSize: v.code_size,
        nonce: BigInt(v.nonce),
        balance: BigInt(v.balance),
      };
      expect(bytesToHex(packBasicData(fields))).toBe(v.value);
      expect(unpackBasicData(hexToBytes(v.value))).toEqual(fields);
    },
  );
});

describe("geth spec §6.3 EELS BASIC_DATA vectors", () => {
  const spec = loadGethSpec();
  const section = spec.slice(
    spec.indexOf("### 6.3 Cross-check vectors from EELS"),
    spec.indexOf("## 7. Benchmarks"),
  );
  const rows = [
    ...section.matchAll(
      /basic_data code_size=(\d+) nonce=(\d+) balance=(\d+)\s+->\s+([0-9a-f]{64})/g,
    ),
  ].map((m) => ({
    codeSize: Number(m[1]),
    nonce: BigInt(m[2]!),
    balance: BigInt(m[3]!),
    value: `0x${m[4]}`,
  }));

  it("parses 4 rows", () => {
    expect(rows.length).toBe(4);
  });

  it.each(rows.map((r) => [r.value, r] as const))("%s", (_value, r) => {
    const { value, ...fields } = r;
    expect(bytesToHex(packBasicData(fields))).toBe(value);
    expect(unpackBasicData(hexToBytes(value))).toEqual({ version: 0, ...fields });
  });
});

describe("ethereumjs basic_data_encoding", () => {
  const encoding = loadEthereumjsVectors().key_derivation.basic_data_encoding;
  const parseNumber = (text: string): bigint => {
    const power = /^2\^(\d+)-1$/.exec(text);
    if (power) return 2n ** BigInt(power[1]!) - 1n;
    const scientific = /^(\d+)e(\d+)$/.exec(text);
    if (scientific) return BigInt(scientific[1]!) * 10n ** BigInt(scientific[2]!);
    return BigInt(text);
  };
  const cases = Object.entries(encoding)
    .filter(([label]) => label !== "layout")
    .map(([label, value]) => {
      const fields = Object.fromEntries(
        label.split(",").map((kv) => kv.split("=") as [string, string]),
      );
      return { label, value, fields };
    });

  it("has 2 cases", () => {
    expect(cases.length).toBe(2);
  });

  it.each(cases.map((c) => [c.label, c] as const))("%s", (_label, c) => {
    const input = {
      codeSize: Number(c.fields.codeSize),
      nonce: parseNumber(c.fields.nonce!),
      balance: parseNumber(c.fields.balance!),
    };
    expect(bytesToHex(packBasicData(input))).toBe(`0x${c.value}`);
    expect(unpackBasicData(hexToBytes(c.value))).toEqual({ version: 0, ...input });
  });
});

describe("geth layout details", () => {
  it("code size is a uint32 at bytes 4..7 (not 3 bytes at 5..7)", () => {
    expect(bytesToHex(packBasicData({ codeSize: 0x01020304, nonce: 0n, balance: 0n }))).toBe(
      `0x0000000001020304${"00".repeat(24)}`,
    );
    expect(
      unpackBasicData(packBasicData({ codeSize: 0xffff_ffff, nonce: 0n, balance: 0n })).codeSize,
    ).toBe(0xffff_ffff);
  });

  it("version goes to byte 0; bytes 1..3 are zero even in a reused buffer", () => {
    const out = new Uint8Array(32).fill(0xee);
    expect(packBasicData({ version: 7, codeSize: 1, nonce: 2n, balance: 3n }, out)).toBe(out);
    expect(bytesToHex(out)).toBe(
      "0x0700000000000001000000000000000200000000000000000000000000000003",
    );
  });

  it("balances over 16 bytes keep geth's `minimal[16:]` bytes", () => {
    // 17 bytes 01 00..00 (2^128): only the last byte survives.
    expect(basicDataBalanceField(2n ** 128n)).toBe(0n);
    // 17 bytes 01 00..12 34: minimal[16:] is the single byte 0x34 (not the low 128 bits 0x1234).
    expect(basicDataBalanceField(2n ** 128n + 0x1234n)).toBe(0x34n);
    // 20 bytes: the last 4 bytes.
    const twenty = BigInt(`0x${"ab".repeat(16)}0a0b0c0d`);
    expect(basicDataBalanceField(twenty)).toBe(0x0a0b0c0dn);
    // 32 bytes: the low 128 bits.
    expect(basicDataBalanceField(2n ** 256n - 1n)).toBe(2n ** 128n - 1n);
    // Up to 16 bytes: unchanged.
    expect(basicDataBalanceField(2n ** 128n - 1n)).toBe(2n ** 128n - 1n);

    const packed = packBasicData({ codeSize: 0, nonce: 0n, balance: 2n ** 128n + 0x1234n });
    expect(bytesToHex(packed)).toBe(`0x${"00".repeat(31)}34`);
    const full = packBasicData({
      codeSize: 0,
      nonce: 1n,
      balance: BigInt(`0x${"11".repeat(16)}${"22".repeat(16)}`),
    });
    expect(bytesToHex(full)).toBe(`0x${"00".repeat(15)}01${"22".repeat(16)}`);
  });

  it("balance bytes equal geth's byte-slicing on any uint256 (property)", () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.bigInt({ min: 0n, max: 2n ** 256n - 1n }),
          fc.bigInt({ min: 2n ** 128n, max: 2n ** 136n }),
        ),
        (balance) => {
          const packed = packBasicData({ codeSize: 0, nonce: 0n, balance });
          expect(bytesToHex(packed.subarray(16))).toBe(bytesToHex(gethBalanceBytes(balance)));
        },
      ),
      { numRuns: 300 },
    );
  });

  it("pack/unpack round-trips every in-range field set (property)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 255 }),
        fc.integer({ min: 0, max: 0xffff_ffff }),
        fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }),
        fc.bigInt({ min: 0n, max: 2n ** 128n - 1n }),
        (version, codeSize, nonce, balance) => {
          const fields = { version, codeSize, nonce, balance };
          expect(unpackBasicData(packBasicData(fields))).toEqual(fields);
        },
      ),
    );
  });

  it("unpack reads a subarray at its own offset", () => {
    const backing = new Uint8Array(40);
    packBasicData({ codeSize: 5, nonce: 6n, balance: 7n }, backing.subarray(8, 40));
    expect(unpackBasicData(backing.subarray(8, 40))).toEqual({
      version: 0,
      codeSize: 5,
      nonce: 6n,
      balance: 7n,
    });
  });
});

describe("errors name the bad input", () => {
  const ok = { codeSize: 0, nonce: 0n, balance: 0n };

  it("rejects out-of-range fields", () => {
    expectBasicDataError(
      () => packBasicData({ ...ok, version: 256 }),
      "INVALID_VERSION",
      "version 256",
    );
    expectBasicDataError(
      () => packBasicData({ ...ok, codeSize: -1 }),
      "INVALID_CODE_SIZE",
      "code size -1",
    );
    expectBasicDataError(
      () => packBasicData({ ...ok, codeSize: 2 ** 32 }),
      "INVALID_CODE_SIZE",
      "4294967296",
    );
    expectBasicDataError(
      () => packBasicData({ ...ok, codeSize: 1.5 }),
      "INVALID_CODE_SIZE",
      "code size 1.5",
    );
    expectBasicDataError(
      () => packBasicData({ ...ok, nonce: -1n }),
      "INVALID_NONCE",
      "nonce must be a bigint in 0..2^64-1, got -1n",
    );
    expectBasicDataError(
      () => packBasicData({ ...ok, nonce: 2n ** 64n }),
      "INVALID_NONCE",
      `${2n ** 64n}`,
    );
    expectBasicDataError(
      () => packBasicData({ ...ok, nonce: 1 as unknown as bigint }),
      "INVALID_NONCE",
      "nonce must be a bigint in 0..2^64-1, got 1",
    );
    expectBasicDataError(
      () => packBasicData({ ...ok, balance: -5n }),
      "INVALID_BALANCE",
      "balance must be a bigint in 0..2^256-1, got -5n",
    );
    expectBasicDataError(
      () => packBasicData({ ...ok, balance: 2n ** 256n }),
      "INVALID_BALANCE",
      `${2n ** 256n}`,
    );
  });

  it("rejects wrong buffer lengths", () => {
    expectBasicDataError(() => packBasicData(ok, new Uint8Array(31)), "INVALID_LENGTH", "got 31");
    expectBasicDataError(() => unpackBasicData(new Uint8Array(33)), "INVALID_LENGTH", "got 33");
  });
});
