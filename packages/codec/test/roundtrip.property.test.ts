import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  BitArray,
  bitmapHas,
  childPathKey,
  decodeGroupBlob,
  decodeInternalBlob,
  decodeNode,
  decodePathKey,
  decodeStemBlob,
  encodeGroupBlob,
  encodeGroupBlobFromEntries,
  encodeInternalBlob,
  encodePathKey,
  encodeStemBlob,
  encodeStemBlobFromSlots,
  groupBlobSize,
  groupEntries,
  popcount,
  stemBlobValue,
  writePathKey,
} from "../src/index.js";
import { bytesToHex } from "./hex.js";
import { modelGroupBlob, modelPathKey, modelStemBlob } from "./reference-model.js";

const bytes = (size: number) => fc.uint8Array({ minLength: size, maxLength: size });

/** A random valid entry set of a depth-g group: non-overlapping subtrees, aligned positions. */
function validGroupEntries(groupDepth: number) {
  const width = 1 << groupDepth;
  return fc
    .tuple(
      fc.array(
        fc.tuple(
          // Bias towards the bottom layer so that large groups also fill up.
          fc.oneof(fc.constant(groupDepth), fc.integer({ min: 1, max: groupDepth })),
          fc.integer({ min: 0, max: width - 1 }),
        ),
        { maxLength: width * 2 },
      ),
      bytes(width * 32),
    )
    .map(([candidates, hashPool]) => {
      const chosen: { position: number; depthOffset: number }[] = [];
      for (const [depthOffset, raw] of candidates) {
        const span = 1 << (groupDepth - depthOffset);
        const position = raw - (raw % span);
        const clashes = chosen.some(
          (other) =>
            position < other.position + (1 << (groupDepth - other.depthOffset)) &&
            other.position < position + span,
        );
        if (!clashes) {
          chosen.push({ position, depthOffset });
        }
      }
      chosen.sort((a, b) => a.position - b.position);
      return chosen.map((entry, i) => ({
        ...entry,
        hash: hashPool.slice(i * 32, i * 32 + 32),
      }));
    });
}

describe("property: group blobs round-trip for every group depth", () => {
  for (let groupDepth = 1; groupDepth <= 8; groupDepth++) {
    it(`g=${groupDepth}: encode matches the model, decode gives the entries back`, () => {
      fc.assert(
        fc.property(validGroupEntries(groupDepth), (entries) => {
          const count = entries.length;
          const hashes = new Uint8Array(count * 32);
          for (const [i, entry] of entries.entries()) {
            hashes.set(entry.hash, i * 32);
          }
          const positions = entries.map((entry) => entry.position);
          const depthOffsets = entries.map((entry) => entry.depthOffset);

          const blob = encodeGroupBlob(groupDepth, count, positions, depthOffsets, hashes);
          expect(bytesToHex(blob)).toBe(bytesToHex(modelGroupBlob(groupDepth, entries)));
          expect(blob.length).toBe(groupBlobSize(groupDepth, count));
          expect(blob.length).not.toBe(65);

          const decoded = decodeGroupBlob(blob);
          expect(decoded.groupDepth).toBe(groupDepth);
          expect(decoded.count).toBe(count);
          expect([...decoded.positions]).toEqual(positions);
          expect([...decoded.depthOffsets]).toEqual(depthOffsets);
          expect(bytesToHex(decoded.hashes)).toBe(bytesToHex(hashes));
          expect(decodeNode(blob).kind).toBe("group");
          expect(bytesToHex(encodeGroupBlobFromEntries(groupDepth, groupEntries(decoded)))).toBe(
            bytesToHex(blob),
          );
        }),
        { numRuns: 150 },
      );
    });
  }
});

describe("property: stem blobs round-trip", () => {
  it("any stem, any set of subindices, any values", () => {
    fc.assert(
      fc.property(
        bytes(31),
        fc.uniqueArray(fc.integer({ min: 0, max: 255 }), { maxLength: 256 }),
        bytes(256 * 32),
        (stem, subindices, valuePool) => {
          const values = new Map<number, Uint8Array>();
          subindices.forEach((subindex, i) => {
            values.set(subindex, valuePool.slice(i * 32, i * 32 + 32));
          });
          const slots = Array.from({ length: 256 }, (_, subindex) => values.get(subindex));

          const blob = encodeStemBlobFromSlots(stem, slots);
          expect(bytesToHex(blob)).toBe(bytesToHex(modelStemBlob(stem, values)));

          const decoded = decodeStemBlob(blob);
          expect(bytesToHex(decoded.stem)).toBe(bytesToHex(stem));
          expect(decoded.count).toBe(values.size);
          expect(popcount(decoded.bitmap)).toBe(values.size);
          for (let subindex = 0; subindex < 256; subindex++) {
            const expected = values.get(subindex);
            expect(bitmapHas(decoded.bitmap, subindex)).toBe(expected !== undefined);
            const actual = stemBlobValue(decoded, subindex);
            expect(actual === undefined ? undefined : bytesToHex(actual)).toBe(
              expected === undefined ? undefined : bytesToHex(expected),
            );
          }
          expect(bytesToHex(encodeStemBlob(decoded.stem, decoded.bitmap, decoded.values))).toBe(
            bytesToHex(blob),
          );
          expect(decodeNode(blob).kind).toBe("stem");
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe("property: flat internal blobs round-trip", () => {
  it("any two hashes", () => {
    fc.assert(
      fc.property(bytes(32), bytes(32), (left, right) => {
        const blob = encodeInternalBlob(left, right);
        expect(bytesToHex(blob)).toBe(`02${bytesToHex(left)}${bytesToHex(right)}`);
        const decoded = decodeInternalBlob(blob);
        expect(bytesToHex(decoded.left)).toBe(bytesToHex(left));
        expect(bytesToHex(decoded.right)).toBe(bytesToHex(right));
        expect(decodeNode(blob).kind).toBe("internal");
      }),
    );
  });
});

describe("property: path keys and BitArray", () => {
  const pathArbitrary = fc.tuple(bytes(32), fc.integer({ min: 0, max: 248 }));

  it("encodePathKey matches the model and decodePathKey inverts it", () => {
    fc.assert(
      fc.property(pathArbitrary, fc.integer({ min: 0, max: 8 }), ([bits, length], offset) => {
        const key = encodePathKey(bits, length);
        expect(bytesToHex(key)).toBe(bytesToHex(modelPathKey(bits, length)));

        const decoded = decodePathKey(key);
        expect(decoded.length).toBe(length);
        expect(bytesToHex(encodePathKey(decoded.bits, length))).toBe(bytesToHex(key));
        expect(bytesToHex(decoded.bits.subarray((length + 7) >> 3))).toBe(
          "00".repeat(32 - ((length + 7) >> 3)),
        );

        const out = new Uint8Array(offset + 33);
        expect(writePathKey(bits, length, out, offset)).toBe(key.length);
        expect(bytesToHex(out.subarray(offset, offset + key.length))).toBe(bytesToHex(key));

        if (length > 0) {
          expect(bytesToHex(childPathKey(bits, length - 1))).toBe(bytesToHex(key));
        }
      }),
      { numRuns: 500 },
    );
  });

  it("BitArray built bit by bit equals setBytes, and msbs is a prefix", () => {
    fc.assert(
      fc.property(pathArbitrary, fc.integer({ min: 0, max: 255 }), ([bits, length], n) => {
        const direct = BitArray.fromBytes(length, bits);
        let appended = new BitArray();
        for (let i = 0; i < length; i++) {
          appended = appended.appendBit(direct.bit(i));
        }
        expect(appended.equals(direct)).toBe(true);
        expect(bytesToHex(direct.keyBytes())).toBe(bytesToHex(modelPathKey(bits, length)));
        expect(BitArray.fromPathKey(direct.keyBytes()).equals(direct)).toBe(true);
        expect(direct.msbs(n).equals(BitArray.fromBytes(Math.min(n, length), bits))).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});
