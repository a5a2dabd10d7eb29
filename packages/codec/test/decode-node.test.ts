import { describe, expect, it } from "vitest";
import { decodeGroupBlob, decodeNode } from "../src/index.js";
import { catchCodecError } from "./expect-codec-error.js";
import { bytesToHex, hexToBytes } from "./hex.js";

const ZERO_HASH = "00".repeat(32);

describe("decodeNode: spec 6.1 decoder rows", () => {
  it("TestDeserializeEmptyNode: [] -> empty, no error", () => {
    expect(decodeNode(new Uint8Array(0))).toEqual({ kind: "empty" });
  });

  // [geth test, blob hex, code, geth's error text]
  const rows: [test: string, blob: string, code: string, gethText: string][] = [
    ["TestDeserializeInvalidType", "63000000", "INVALID_NODE_TYPE", "invalid node type"],
    ["TestDeserializeInvalidLength", "0201c0", "INVALID_LENGTH", "invalid serialized node length"],
    ["TestDeserializeInvalidGroupDepth", "02000000", "INVALID_GROUP_DEPTH", "invalid group depth"],
    [
      "TestDecodeRejectsNonCanonicalPosition",
      `02050400000020${ZERO_HASH}`,
      "NON_CANONICAL_BITMAP_POSITION",
      "non-canonical bitmap position",
    ],
    [
      "TestDecodeRejectsInvalidDepthOffset gd2/depth3",
      `02028040${ZERO_HASH}`,
      "INVALID_DEPTH_OFFSET",
      "invalid depth offset",
    ],
    [
      "TestDecodeRejectsInvalidDepthOffset gd3/depth4",
      `02038060${ZERO_HASH}`,
      "INVALID_DEPTH_OFFSET",
      "invalid depth offset",
    ],
    [
      "TestDecodeRejectsInvalidDepthOffset gd5/depth6",
      `020580000000a0${ZERO_HASH}`,
      "INVALID_DEPTH_OFFSET",
      "invalid depth offset",
    ],
    [
      "TestDecodeRejectsInvalidDepthOffset gd7/depth8",
      `020780${"00".repeat(15)}e0${ZERO_HASH}`,
      "INVALID_DEPTH_OFFSET",
      "invalid depth offset",
    ],
    [
      "TestDecodeRejectsNonCanonicalDepthPadding",
      `02028021${ZERO_HASH}`,
      "NON_CANONICAL_DEPTH_PADDING",
      "non-canonical depth padding",
    ],
  ];
  for (const [test, blob, code, gethText] of rows) {
    it(`${test}: ${blob.length > 24 ? `${blob.slice(0, 16)}... (${blob.length / 2} bytes)` : blob} -> ${code}`, () => {
      const bytes = hexToBytes(blob);
      const error = catchCodecError(() => decodeNode(bytes));
      expect(error.code).toBe(code);
      expect(error.message).toContain(gethText);
      expect(error.message).toContain(String(bytes.length));
      if (bytes[0] === 2) {
        expect(catchCodecError(() => decodeGroupBlob(bytes)).code).toBe(code);
      }
    });
  }

  it("the non-canonical position message names the bit and its depth offset", () => {
    const error = catchCodecError(() => decodeNode(hexToBytes(`02050400000020${ZERO_HASH}`)));
    expect(error.message).toContain("position 5");
    expect(error.message).toContain("depth offset 2");
    expect(error.message).toContain("low 3 bits");
  });

  it("the depth offset message names the offset and the group depth", () => {
    const error = catchCodecError(() => decodeNode(hexToBytes(`02038060${ZERO_HASH}`)));
    expect(error.message).toContain("invalid depth offset 4");
    expect(error.message).toContain("group depth 3");
  });
});

describe("decodeNode: dispatch", () => {
  it("type 1 -> stem", () => {
    const blob = hexToBytes(`01${"ab".repeat(31)}${"00".repeat(32)}`);
    const node = decodeNode(blob);
    expect(node.kind).toBe("stem");
    if (node.kind === "stem") {
      expect(bytesToHex(node.stem)).toBe("ab".repeat(31));
      expect(node.count).toBe(0);
    }
  });

  it("type 2 of 65 bytes -> internal, other type 2 -> group", () => {
    expect(decodeNode(hexToBytes(`02${"11".repeat(64)}`)).kind).toBe("internal");
    expect(decodeNode(hexToBytes(`0201c000${"11".repeat(64)}`)).kind).toBe("group");
    expect(decodeNode(hexToBytes("020500000000")).kind).toBe("group");
  });

  it("type 2 of 64 or 66 bytes is parsed as a group and rejected", () => {
    expect(catchCodecError(() => decodeNode(hexToBytes(`02${"11".repeat(63)}`))).code).toBe(
      "INVALID_GROUP_DEPTH",
    );
    expect(catchCodecError(() => decodeNode(hexToBytes(`0201${"00".repeat(64)}`))).code).toBe(
      "INVALID_LENGTH",
    );
  });

  for (const type of [0, 3, 4, 0x7f, 0xff]) {
    it(`type ${type} -> INVALID_NODE_TYPE`, () => {
      const blob = new Uint8Array(65);
      blob[0] = type;
      const error = catchCodecError(() => decodeNode(blob));
      expect(error.code).toBe("INVALID_NODE_TYPE");
      expect(error.message).toContain(`invalid node type ${type}`);
    });
  }
});
