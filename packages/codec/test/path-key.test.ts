import { describe, expect, it } from "vitest";
import {
  childPathKey,
  comparePathKeys,
  decodePathKey,
  encodePathKey,
  nodeDbKey,
  pathKeySize,
  writePathKey,
} from "../src/index.js";
import { catchCodecError, codecErrorCode } from "./expect-codec-error.js";
import { bytesToHex, hexToBytes } from "./hex.js";

describe("encodePathKey (spec 3.4 and 6.1 KeyBytes)", () => {
  const rows: [bits: string, length: number, key: string][] = [
    ["", 0, ""],
    ["ff", 0, ""],
    ["80", 1, "8001"],
    ["80", 8, "8008"],
    ["ffff", 11, "ffe00b"],
    ["ff".repeat(32), 248, `${"ff".repeat(31)}f8`],
    ["ff", 3, "e003"],
    ["0123456789", 33, "012345678021"],
  ];
  for (const [bits, length, key] of rows) {
    it(`${length} bits of ${bits || "(none)"} -> ${key || "(empty)"}`, () => {
      expect(bytesToHex(encodePathKey(hexToBytes(bits), length))).toBe(key);
      expect(pathKeySize(length)).toBe(key.length / 2);
    });
  }

  it("rejects lengths outside 0..248 and too few bit bytes", () => {
    expect(codecErrorCode(() => encodePathKey(new Uint8Array(32), 249))).toBe("INVALID_ARGUMENT");
    expect(codecErrorCode(() => encodePathKey(new Uint8Array(32), -1))).toBe("INVALID_ARGUMENT");
    expect(codecErrorCode(() => encodePathKey(new Uint8Array(32), 1.5))).toBe("INVALID_ARGUMENT");
    expect(codecErrorCode(() => encodePathKey(new Uint8Array(1), 9))).toBe("INVALID_ARGUMENT");
    expect(codecErrorCode(() => pathKeySize(300))).toBe("INVALID_ARGUMENT");
  });
});

describe("writePathKey", () => {
  it("writes at an offset, touches nothing else and returns the size", () => {
    const out = new Uint8Array(8).fill(0xee);
    expect(writePathKey(hexToBytes("ffff"), 11, out, 3)).toBe(3);
    expect(bytesToHex(out)).toBe("eeeeeeffe00beeee");
    expect(writePathKey(hexToBytes("ff"), 0, out, 8)).toBe(0);
    expect(bytesToHex(out)).toBe("eeeeeeffe00beeee");
  });

  it("refuses a buffer without room before writing anything", () => {
    const out = new Uint8Array(4).fill(0xee);
    const error = catchCodecError(() => writePathKey(hexToBytes("ffff"), 11, out, 2));
    expect(error.code).toBe("INVALID_ARGUMENT");
    expect(error.message).toContain("3 bytes at offset 2");
    expect(bytesToHex(out)).toBe("eeeeeeee");
    expect(codecErrorCode(() => writePathKey(hexToBytes("ff"), 1, out, -1))).toBe(
      "INVALID_ARGUMENT",
    );
  });
});

describe("childPathKey = geth keyToPath (spec 6.1 TestKeyToPath)", () => {
  const rows: [depth: number, key: string, path: string][] = [
    [0, "80", "8001"],
    [7, "ff", "ff08"],
    [10, "ff00", "ff000b"],
    [247, "00".repeat(32), `${"00".repeat(31)}f8`],
  ];
  for (const [depth, key, path] of rows) {
    it(`depth ${depth}, key ${key.length > 8 ? `${key.length / 2} bytes` : key} -> ${path}`, () => {
      expect(bytesToHex(childPathKey(hexToBytes(key), depth))).toBe(path);
    });
  }

  it("depth 248 -> PATH_TOO_DEEP (node too deep)", () => {
    const error = catchCodecError(() => childPathKey(new Uint8Array(32), 248));
    expect(error.code).toBe("PATH_TOO_DEEP");
    expect(error.message).toContain("248");
    expect(codecErrorCode(() => childPathKey(new Uint8Array(32), 1000))).toBe("PATH_TOO_DEEP");
  });

  it("takes the first depth+1 bits of a full key and zeroes the rest", () => {
    const key = hexToBytes("a1591a87f66eced286a026be194ec87be0fe1e9479baf3b85caeba29aaa5ff00");
    expect(bytesToHex(childPathKey(key, 2))).toBe("a003");
    expect(bytesToHex(childPathKey(key, 12))).toBe("a1580d");
  });

  it("reads bytes missing from a short key as zero, like geth SetBytes", () => {
    expect(bytesToHex(childPathKey(hexToBytes("ff"), 15))).toBe("ff0010");
  });

  it("rejects negative or fractional depths", () => {
    expect(codecErrorCode(() => childPathKey(new Uint8Array(32), -1))).toBe("INVALID_ARGUMENT");
    expect(codecErrorCode(() => childPathKey(new Uint8Array(32), 0.5))).toBe("INVALID_ARGUMENT");
  });
});

describe("decodePathKey", () => {
  it("decodes canonical keys to left-aligned bits and a length", () => {
    const decoded = decodePathKey(hexToBytes("ffe00b"));
    expect(decoded.length).toBe(11);
    expect(bytesToHex(decoded.bits)).toBe("ffe0".padEnd(64, "0"));

    const root = decodePathKey(new Uint8Array(0));
    expect(root.length).toBe(0);
    expect(bytesToHex(root.bits)).toBe("0".repeat(64));

    const deepest = decodePathKey(hexToBytes(`${"ab".repeat(31)}f8`));
    expect(deepest.length).toBe(248);
    expect(bytesToHex(deepest.bits)).toBe(`${"ab".repeat(31)}00`);
  });

  const rejections: [key: string, why: string][] = [
    ["00", "length byte 0 in a non-empty key"],
    ["8000", "length byte 0 after a path byte"],
    [`${"00".repeat(32)}f9`, "249 bits"],
    [`${"00".repeat(31)}ff`, "255 bits"],
    ["80", "1 byte for a 128-bit length"],
    ["808001", "an extra byte"],
    ["8009", "a byte missing for 9 bits"],
    ["c001", "padding bit set after a 1-bit path"],
    ["ff07", "padding bit set after a 7-bit path (ff)"],
    ["ff010f", "padding bit set in the second byte"],
  ];
  for (const [key, why] of rejections) {
    it(`rejects ${key} (${why}) with INVALID_PATH_KEY`, () => {
      const error = catchCodecError(() => decodePathKey(hexToBytes(key)));
      expect(error.code).toBe("INVALID_PATH_KEY");
      expect(error.message).toMatch(/path key/);
    });
  }
});

describe("nodeDbKey", () => {
  it('prefixes "vA" by default', () => {
    expect(bytesToHex(nodeDbKey(new Uint8Array(0)))).toBe("7641");
    expect(bytesToHex(nodeDbKey(hexToBytes("8001")))).toBe("76418001");
  });

  it("takes another prefix", () => {
    expect(bytesToHex(nodeDbKey(hexToBytes("a003"), hexToBytes("62")))).toBe("62a003");
  });
});

describe("comparePathKeys", () => {
  it("orders keys byte-wise, a prefix first", () => {
    const keys = ["8008", "", "0001", "8001", "800002", "80", "ffe00b", "0008"];
    const sorted = keys
      .map(hexToBytes)
      .sort(comparePathKeys)
      .map((key) => bytesToHex(key));
    expect(sorted).toEqual(["", "0001", "0008", "80", "800002", "8001", "8008", "ffe00b"]);
  });

  it("returns -1, 0 or 1", () => {
    expect(comparePathKeys(hexToBytes("01"), hexToBytes("ff"))).toBe(-1);
    expect(comparePathKeys(hexToBytes("ff"), hexToBytes("01"))).toBe(1);
    expect(comparePathKeys(hexToBytes("0102"), hexToBytes("0102"))).toBe(0);
    expect(comparePathKeys(hexToBytes("01"), hexToBytes("0100"))).toBe(-1);
    expect(comparePathKeys(hexToBytes("0100"), hexToBytes("01"))).toBe(1);
  });
});
