import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  BitArray,
  CodecError,
  childPathKey,
  type DecodedNode,
  decodeGroupBlob,
  decodeInternalBlob,
  decodeNode,
  decodePathKey,
  decodeStemBlob,
  encodeGroupBlob,
  encodeInternalBlob,
  encodePathKey,
  encodeStemBlob,
  encodeStemBlobFromSlots,
} from "../src/index.js";
import { bytesToHex, hexToBytes } from "./hex.js";
import { loadNodesets } from "./nodesets.js";

// Hostile input must either decode or raise a CodecError; a TypeError or a RangeError from a typed
// array escaping is a bug. Whatever decodes must be canonical: re-encoding gives the input back.

/** Runs `action`; returns undefined when it threw a CodecError, rethrows anything else. */
function codecErrorsOnly<T>(action: () => T): T | undefined {
  try {
    return action();
  } catch (error) {
    if (error instanceof CodecError) {
      return undefined;
    }
    throw error;
  }
}

function expectCanonical(blob: Uint8Array, node: DecodedNode): void {
  switch (node.kind) {
    case "empty":
      expect(blob.length).toBe(0);
      break;
    case "stem":
      // Trailing bytes after the values are ignored (legacy fixed-size blobs).
      expect(bytesToHex(encodeStemBlob(node.stem, node.bitmap, node.values))).toBe(
        bytesToHex(blob.subarray(0, 64 + 32 * node.count)),
      );
      break;
    case "internal":
      expect(bytesToHex(encodeInternalBlob(node.left, node.right))).toBe(bytesToHex(blob));
      break;
    case "group":
      expect(
        bytesToHex(
          encodeGroupBlob(
            node.groupDepth,
            node.count,
            node.positions,
            node.depthOffsets,
            node.hashes,
          ),
        ),
      ).toBe(bytesToHex(blob));
      break;
  }
}

function checkAnyBlob(blob: Uint8Array): void {
  const node = codecErrorsOnly(() => decodeNode(blob));
  if (node !== undefined) {
    expectCanonical(blob, node);
  }
  codecErrorsOnly(() => decodeStemBlob(blob));
  codecErrorsOnly(() => decodeGroupBlob(blob));
  codecErrorsOnly(() => decodeInternalBlob(blob));
}

function checkAnyPathKey(key: Uint8Array): void {
  const decoded = codecErrorsOnly(() => decodePathKey(key));
  if (decoded !== undefined) {
    expect(bytesToHex(encodePathKey(decoded.bits, decoded.length))).toBe(bytesToHex(key));
  }
  codecErrorsOnly(() => BitArray.fromPathKey(key));
}

const fixtureBlobs = loadNodesets().flatMap((testCase) =>
  Object.values(testCase.nodesets).flatMap((nodes) => nodes.map((node) => hexToBytes(node.blob))),
);
const fixturePaths = loadNodesets().flatMap((testCase) =>
  Object.values(testCase.nodesets).flatMap((nodes) => nodes.map((node) => hexToBytes(node.path))),
);

type Mutation =
  | { kind: "set"; index: number; value: number }
  | { kind: "flip"; index: number; bit: number }
  | { kind: "truncate"; keep: number }
  | { kind: "extend"; extra: Uint8Array };

const mutationArbitrary: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({
    kind: fc.constant("set" as const),
    index: fc.nat(),
    value: fc.integer({ min: 0, max: 255 }),
  }),
  fc.record({
    kind: fc.constant("flip" as const),
    index: fc.nat(),
    bit: fc.integer({ min: 0, max: 7 }),
  }),
  fc.record({ kind: fc.constant("truncate" as const), keep: fc.nat() }),
  fc.record({
    kind: fc.constant("extend" as const),
    extra: fc.uint8Array({ minLength: 1, maxLength: 40 }),
  }),
);

function mutate(input: Uint8Array, mutation: Mutation): Uint8Array {
  const bytes = input.slice();
  switch (mutation.kind) {
    case "set":
      if (bytes.length > 0) {
        bytes[mutation.index % bytes.length] = mutation.value;
      }
      return bytes;
    case "flip":
      if (bytes.length > 0) {
        const index = mutation.index % bytes.length;
        bytes[index] = bytes[index]! ^ (1 << mutation.bit);
      }
      return bytes;
    case "truncate":
      return bytes.subarray(0, mutation.keep % (bytes.length + 1));
    case "extend": {
      const longer = new Uint8Array(bytes.length + mutation.extra.length);
      longer.set(bytes, 0);
      longer.set(mutation.extra, bytes.length);
      return longer;
    }
  }
}

/** A type-2 blob of exactly the right length for its bitmap, so decoding reaches the entry checks. */
const wellSizedGroupArbitrary = fc
  .integer({ min: 1, max: 8 })
  .chain((groupDepth) => {
    const bitmapBytes = groupDepth <= 3 ? 1 : 1 << (groupDepth - 3);
    const usedMask = groupDepth < 3 ? (0xff << (8 - (1 << groupDepth))) & 0xff : 0xff;
    return fc.tuple(
      fc.constant(groupDepth),
      fc.uint8Array({ minLength: bitmapBytes, maxLength: bitmapBytes }).map((bitmap) => {
        bitmap[0] = bitmap[0]! & usedMask;
        return bitmap;
      }),
      fc.uint8Array({ minLength: 96, maxLength: 96 }),
    );
  })
  .map(([groupDepth, bitmap, depthPool]) => {
    let count = 0;
    for (const byte of bitmap) {
      for (let bit = 0; bit < 8; bit++) {
        count += (byte >> bit) & 1;
      }
    }
    const depthBytes = Math.ceil((3 * count) / 8);
    const blob = new Uint8Array(2 + bitmap.length + depthBytes + 32 * count);
    blob[0] = 2;
    blob[1] = groupDepth;
    blob.set(bitmap, 2);
    blob.set(depthPool.subarray(0, depthBytes), 2 + bitmap.length);
    // Non-zero hashes: a zero hash is refused after every other check, which would hide them.
    blob.fill(0x5a, 2 + bitmap.length + depthBytes);
    return blob;
  });

describe("property: decoders throw nothing but CodecError", () => {
  it("random bytes", () => {
    fc.assert(fc.property(fc.uint8Array({ maxLength: 700 }), checkAnyBlob), { numRuns: 2000 });
  });

  it("random bytes behind a stem or internal type byte and a small group depth", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(1, 2),
        fc.integer({ min: 0, max: 10 }),
        fc.uint8Array({ maxLength: 600 }),
        (type, groupDepth, rest) => {
          checkAnyBlob(Uint8Array.from([type, groupDepth, ...rest]));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it("well-sized group blobs with random bitmaps and depth fields", () => {
    let decoded = 0;
    fc.assert(
      fc.property(wellSizedGroupArbitrary, (blob) => {
        checkAnyBlob(blob);
        // An empty group (K = 0) always decodes: only non-empty ones show the entry checks pass.
        if ((codecErrorsOnly(() => decodeGroupBlob(blob))?.count ?? 0) > 0) {
          decoded++;
        }
      }),
      { numRuns: 2000 },
    );
    // Random depth fields make most of these invalid; some non-empty ones must still get through.
    expect(decoded).toBeGreaterThan(0);
  });

  it(`mutations of the ${fixtureBlobs.length} fixture blobs`, () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...fixtureBlobs),
        fc.array(mutationArbitrary, { minLength: 1, maxLength: 3 }),
        (blob, mutations) => {
          checkAnyBlob(mutations.reduce(mutate, blob));
        },
      ),
      { numRuns: 3000 },
    );
  });

  it("random path keys and mutations of the fixture path keys", () => {
    fc.assert(fc.property(fc.uint8Array({ maxLength: 40 }), checkAnyPathKey), { numRuns: 2000 });
    fc.assert(
      fc.property(
        fc.constantFrom(...fixturePaths),
        fc.array(mutationArbitrary, { minLength: 1, maxLength: 3 }),
        (key, mutations) => {
          checkAnyPathKey(mutations.reduce(mutate, key));
        },
      ),
      { numRuns: 2000 },
    );
  });
});

describe("property: encoders throw nothing but CodecError on bad arguments", () => {
  it("encodeGroupBlob with arbitrary numbers either refuses or round-trips", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -1, max: 10 }),
        fc.integer({ min: -1, max: 12 }),
        fc.array(fc.integer({ min: -2, max: 300 }), { maxLength: 12 }),
        fc.array(fc.integer({ min: -1, max: 10 }), { maxLength: 12 }),
        fc.uint8Array({ maxLength: 12 * 32 }),
        (groupDepth, count, positions, depthOffsets, hashes) => {
          const blob = codecErrorsOnly(() =>
            encodeGroupBlob(groupDepth, count, positions, depthOffsets, hashes),
          );
          if (blob !== undefined) {
            const decoded = decodeGroupBlob(blob);
            expect([...decoded.positions]).toEqual(positions.slice(0, count));
            expect([...decoded.depthOffsets]).toEqual(depthOffsets.slice(0, count));
          }
        },
      ),
      { numRuns: 2000 },
    );
  });

  it("path key and stem encoders with arbitrary sizes", () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 40 }),
        fc.integer({ min: -3, max: 260 }),
        fc.uint8Array({ maxLength: 40 }),
        (bits, length, other) => {
          codecErrorsOnly(() => encodePathKey(bits, length));
          codecErrorsOnly(() => childPathKey(bits, length));
          codecErrorsOnly(() => BitArray.fromBytes(length, bits));
          codecErrorsOnly(() => encodeStemBlob(bits, other, bits));
          codecErrorsOnly(() => encodeInternalBlob(bits, other));
          codecErrorsOnly(() => encodeStemBlobFromSlots(other, new Array(Math.max(0, length))));
        },
      ),
      { numRuns: 1000 },
    );
  });
});
