import { describe, expect, it } from "vitest";
import {
  decodeNode,
  decodeStemBlob,
  encodeStemBlob,
  encodeStemBlobFromSlots,
  stemBlobValue,
} from "../src/index.js";
import { catchCodecError, codecErrorCode } from "./expect-codec-error.js";
import { bytesToHex, hexToBytes } from "./hex.js";

// Spec 6.1 TestSerializeDeserializeStemNode: stem = bytes 0..30, values at 0, 10 and 255.
const STEM_HEX = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e";
const V0 = "01".repeat(32);
const V10 = "02".repeat(32);
const V255 = "03".repeat(32);
const BITMAP_HEX = `8020${"00".repeat(29)}01`;
const EXAMPLE_BLOB_HEX = `01${STEM_HEX}${BITMAP_HEX}${V0}${V10}${V255}`;

function exampleSlots(): (Uint8Array | undefined)[] {
  const slots: (Uint8Array | undefined)[] = new Array(256).fill(undefined);
  slots[0] = hexToBytes(V0);
  slots[10] = hexToBytes(V10);
  slots[255] = hexToBytes(V255);
  return slots;
}

describe("stem blob: spec 6.1 TestSerializeDeserializeStemNode", () => {
  it("encodes to 01 || stem || bitmap 80 20 00..00 01 || v0 || v10 || v255 (160 bytes)", () => {
    const blob = encodeStemBlobFromSlots(hexToBytes(STEM_HEX), exampleSlots());
    expect(blob.length).toBe(160);
    expect(bytesToHex(blob)).toBe(EXAMPLE_BLOB_HEX);
    expect(blob[0]).toBe(1);
    expect(bytesToHex(blob.subarray(1, 32))).toBe(STEM_HEX);
  });

  it("encodeStemBlob from bitmap and packed values gives the same bytes", () => {
    const blob = encodeStemBlob(
      hexToBytes(STEM_HEX),
      hexToBytes(BITMAP_HEX),
      hexToBytes(V0 + V10 + V255),
    );
    expect(bytesToHex(blob)).toBe(EXAMPLE_BLOB_HEX);
  });

  it("decodes to the same three values and no others", () => {
    const decoded = decodeStemBlob(hexToBytes(EXAMPLE_BLOB_HEX));
    expect(bytesToHex(decoded.stem)).toBe(STEM_HEX);
    expect(bytesToHex(decoded.bitmap)).toBe(BITMAP_HEX);
    expect(decoded.count).toBe(3);
    expect(bytesToHex(decoded.values)).toBe(V0 + V10 + V255);
    const present: [number, string][] = [];
    for (let subindex = 0; subindex < 256; subindex++) {
      const value = stemBlobValue(decoded, subindex);
      if (value !== undefined) {
        present.push([subindex, bytesToHex(value)]);
      }
    }
    expect(present).toEqual([
      [0, V0],
      [10, V10],
      [255, V255],
    ]);
  });

  it("returns views into the input, not copies", () => {
    const blob = hexToBytes(EXAMPLE_BLOB_HEX);
    const decoded = decodeStemBlob(blob);
    expect(decoded.stem.buffer).toBe(blob.buffer);
    expect(decoded.values.byteOffset).toBe(blob.byteOffset + 64);
    blob[64] = 0x99;
    expect(decoded.values[0]).toBe(0x99);
    expect(stemBlobValue(decoded, 0)?.[0]).toBe(0x99);
  });

  it("decodeNode gives kind stem with the same fields", () => {
    const node = decodeNode(hexToBytes(EXAMPLE_BLOB_HEX));
    expect(node.kind).toBe("stem");
    if (node.kind === "stem") {
      expect(node.count).toBe(3);
      expect(bytesToHex(node.stem)).toBe(STEM_HEX);
    }
  });
});

describe("stem blob: legacy and edge layouts", () => {
  it("decodes the first release's fixed 8256-byte blob, ignoring the zero padding", () => {
    const legacy = new Uint8Array(1 + 31 + 32 + 256 * 32);
    legacy.set(hexToBytes(EXAMPLE_BLOB_HEX), 0);
    expect(legacy.length).toBe(8256);
    const decoded = decodeStemBlob(legacy);
    expect(decoded.count).toBe(3);
    expect(decoded.values.length).toBe(96);
    expect(bytesToHex(decoded.values)).toBe(V0 + V10 + V255);
    expect(bytesToHex(stemBlobValue(decoded, 255)!)).toBe(V255);
    // Re-encoding gives today's trimmed 64 + 32K form.
    expect(bytesToHex(encodeStemBlob(decoded.stem, decoded.bitmap, decoded.values))).toBe(
      EXAMPLE_BLOB_HEX,
    );
  });

  it("a value-less stem is the 64-byte header alone", () => {
    const blob = encodeStemBlobFromSlots(hexToBytes(STEM_HEX), new Array(256));
    expect(bytesToHex(blob)).toBe(`01${STEM_HEX}${"00".repeat(32)}`);
    const decoded = decodeStemBlob(blob);
    expect(decoded.count).toBe(0);
    expect(decoded.values.length).toBe(0);
    expect(stemBlobValue(decoded, 7)).toBeUndefined();
  });

  it("a full stem holds 256 values in subindex order", () => {
    const slots = Array.from({ length: 256 }, (_, i) => new Uint8Array(32).fill(i));
    const blob = encodeStemBlobFromSlots(new Uint8Array(31), slots);
    expect(blob.length).toBe(64 + 256 * 32);
    expect(bytesToHex(blob.subarray(32, 64))).toBe("ff".repeat(32));
    const decoded = decodeStemBlob(blob);
    expect(decoded.count).toBe(256);
    expect(stemBlobValue(decoded, 200)?.every((byte) => byte === 200)).toBe(true);
  });
});

describe("stem blob: rejections", () => {
  it("empty input -> INVALID_LENGTH", () => {
    expect(codecErrorCode(() => decodeStemBlob(new Uint8Array(0)))).toBe("INVALID_LENGTH");
  });

  it("type byte other than 1 -> INVALID_NODE_TYPE", () => {
    const blob = hexToBytes(EXAMPLE_BLOB_HEX);
    blob[0] = 2;
    expect(codecErrorCode(() => decodeStemBlob(blob))).toBe("INVALID_NODE_TYPE");
  });

  it("shorter than the 64-byte header -> INVALID_LENGTH", () => {
    const error = catchCodecError(() =>
      decodeStemBlob(hexToBytes(EXAMPLE_BLOB_HEX).subarray(0, 63)),
    );
    expect(error.code).toBe("INVALID_LENGTH");
    expect(error.message).toContain("63 bytes");
  });

  it("fewer value bytes than set bits -> STEM_BLOB_TRUNCATED", () => {
    const blob = hexToBytes(EXAMPLE_BLOB_HEX);
    const error = catchCodecError(() => decodeStemBlob(blob.subarray(0, 159)));
    expect(error.code).toBe("STEM_BLOB_TRUNCATED");
    expect(error.message).toContain("159 bytes");
    expect(error.message).toContain("3 set bits");
    expect(codecErrorCode(() => decodeStemBlob(blob.subarray(0, 64)))).toBe("STEM_BLOB_TRUNCATED");
    expect(codecErrorCode(() => decodeNode(blob.subarray(0, 100)))).toBe("STEM_BLOB_TRUNCATED");
  });

  it("encoders reject wrong sizes with INVALID_ARGUMENT", () => {
    const stem = hexToBytes(STEM_HEX);
    const bitmap = hexToBytes(BITMAP_HEX);
    const values = hexToBytes(V0 + V10 + V255);
    expect(codecErrorCode(() => encodeStemBlob(stem.subarray(1), bitmap, values))).toBe(
      "INVALID_ARGUMENT",
    );
    expect(codecErrorCode(() => encodeStemBlob(stem, bitmap.subarray(1), values))).toBe(
      "INVALID_ARGUMENT",
    );
    const mismatch = catchCodecError(() => encodeStemBlob(stem, bitmap, values.subarray(32)));
    expect(mismatch.code).toBe("INVALID_ARGUMENT");
    expect(mismatch.message).toContain("3 set bits");
    expect(mismatch.message).toContain("96 bytes, got 64");

    expect(codecErrorCode(() => encodeStemBlobFromSlots(stem, new Array(255)))).toBe(
      "INVALID_ARGUMENT",
    );
    const slots = exampleSlots();
    slots[10] = new Uint8Array(31);
    const shortValue = catchCodecError(() => encodeStemBlobFromSlots(stem, slots));
    expect(shortValue.code).toBe("INVALID_ARGUMENT");
    expect(shortValue.message).toContain("subindex 10");
  });

  it("stemBlobValue rejects subindices outside 0..255", () => {
    const decoded = decodeStemBlob(hexToBytes(EXAMPLE_BLOB_HEX));
    expect(codecErrorCode(() => stemBlobValue(decoded, 256))).toBe("INVALID_ARGUMENT");
    expect(codecErrorCode(() => stemBlobValue(decoded, -1))).toBe("INVALID_ARGUMENT");
  });
});
