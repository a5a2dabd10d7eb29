import { describe, expect, it } from "vitest";
import { decodeInternalBlob, decodeNode, encodeInternalBlob } from "../src/index.js";
import { codecErrorCode } from "./expect-codec-error.js";
import { bytesToHex, hexToBytes } from "./hex.js";

// Spec 3.8: the flat format 02 || left32 || right32 (group depth 0 in the shared vectors).
const LEFT = "1234567890abcdef1234567890abcdef1234567890abcdef1234567890abcdef";
const RIGHT = "fedcba0987654321fedcba0987654321fedcba0987654321fedcba0987654321";

describe("flat internal blob", () => {
  it("encodes 02 || left || right in 65 bytes", () => {
    const blob = encodeInternalBlob(hexToBytes(LEFT), hexToBytes(RIGHT));
    expect(blob.length).toBe(65);
    expect(bytesToHex(blob)).toBe(`02${LEFT}${RIGHT}`);
  });

  it("encodes an empty child as 32 zero bytes, as written", () => {
    const blob = encodeInternalBlob(new Uint8Array(32), hexToBytes(RIGHT));
    expect(bytesToHex(blob)).toBe(`02${"00".repeat(32)}${RIGHT}`);
  });

  it("decodes to views of both hashes", () => {
    const blob = hexToBytes(`02${LEFT}${RIGHT}`);
    const { left, right } = decodeInternalBlob(blob);
    expect(bytesToHex(left)).toBe(LEFT);
    expect(bytesToHex(right)).toBe(RIGHT);
    expect(left.buffer).toBe(blob.buffer);
    expect(right.byteOffset).toBe(blob.byteOffset + 33);
  });

  it("decodeNode picks it for a 65-byte type-2 blob, even when byte 1 looks like a group depth", () => {
    const node = decodeNode(hexToBytes(`02${"05".repeat(32)}${RIGHT}`));
    expect(node.kind).toBe("internal");
    if (node.kind === "internal") {
      expect(bytesToHex(node.left)).toBe("05".repeat(32));
      expect(bytesToHex(node.right)).toBe(RIGHT);
    }
  });

  it("rejects other lengths with INVALID_LENGTH and other types with INVALID_NODE_TYPE", () => {
    const blob = hexToBytes(`02${LEFT}${RIGHT}`);
    expect(codecErrorCode(() => decodeInternalBlob(blob.subarray(0, 64)))).toBe("INVALID_LENGTH");
    expect(codecErrorCode(() => decodeInternalBlob(hexToBytes(`02${LEFT}${RIGHT}00`)))).toBe(
      "INVALID_LENGTH",
    );
    expect(codecErrorCode(() => decodeInternalBlob(new Uint8Array(0)))).toBe("INVALID_LENGTH");
    expect(codecErrorCode(() => decodeInternalBlob(hexToBytes(`01${LEFT}${RIGHT}`)))).toBe(
      "INVALID_NODE_TYPE",
    );
  });

  it("rejects child hashes that are not 32 bytes", () => {
    expect(codecErrorCode(() => encodeInternalBlob(new Uint8Array(31), new Uint8Array(32)))).toBe(
      "INVALID_ARGUMENT",
    );
    expect(codecErrorCode(() => encodeInternalBlob(new Uint8Array(32), new Uint8Array(33)))).toBe(
      "INVALID_ARGUMENT",
    );
  });
});
