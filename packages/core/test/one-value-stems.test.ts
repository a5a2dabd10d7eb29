import v8 from "node:v8";
import { blake3 } from "@noble/hashes/blake3.js";
import { sha256 } from "@noble/hashes/sha2.js";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createBlake3Hasher } from "../src/hash/blake3-hasher.js";
import { HashError } from "../src/hash/errors.js";
import { LevelwiseStemHasher, type OneValueStemHashes } from "../src/hash/one-value-stems.js";
import {
  createSha256Hasher,
  createWasmSha256Kernel,
  jsSha256Kernel,
  type Sha256BatchKernel,
} from "../src/sha256/index.js";

// The fused one-value stem hash against an independent reference: EIP-7864's stem subtree of a
// stem holding one value, computed message by message with @noble/hashes.

type Digest = (message: Uint8Array) => Uint8Array;

/** Stem hash of the 64-byte record stem (31) ‖ subindex (1) ‖ value (32), by hand. */
function referenceStemHash(h: Digest, record: Uint8Array): Uint8Array {
  const subindex = record[31]!;
  let node = h(record.subarray(32, 64)); // the leaf
  for (let level = 0; level < 8; level++) {
    const pair = new Uint8Array(64);
    // Bit `level` of the subindex: 0 = left child of its parent, 1 = right child.
    pair.set(node, ((subindex >> level) & 1) === 1 ? 32 : 0);
    node = h(pair);
  }
  const message = new Uint8Array(64);
  message.set(record.subarray(0, 31), 0); // byte 31 stays 0x00
  message.set(node, 32);
  return h(message);
}

function referenceAll(h: Digest, src: Uint8Array, off: number, count: number): Uint8Array {
  const out = new Uint8Array(32 * count);
  for (let i = 0; i < count; i++) {
    out.set(referenceStemHash(h, src.subarray(off + 64 * i, off + 64 * i + 64)), 32 * i);
  }
  return out;
}

const hex = (b: Uint8Array): string => Buffer.from(b).toString("hex");

/** A kernel without the fused call: callers and createSha256Hasher go level by level. */
const plainKernel: Sha256BatchKernel = {
  hash32Batch: (s, so, n, d, dq) => jsSha256Kernel.hash32Batch(s, so, n, d, dq),
  hash64Batch: (s, so, n, d, dq) => jsSha256Kernel.hash64Batch(s, so, n, d, dq),
};

const wasm = createWasmSha256Kernel();
const wasmChunk8 = createWasmSha256Kernel({ chunk: 8 });

const IMPLEMENTATIONS: [string, OneValueStemHashes | undefined, Digest][] = [
  ["wasm kernel", wasm as OneValueStemHashes | undefined, sha256],
  ["wasm kernel chunk=8", wasmChunk8 as OneValueStemHashes | undefined, sha256],
  ["js kernel", jsSha256Kernel as OneValueStemHashes, sha256],
  ["sha256 hasher (best kernel)", createSha256Hasher() as OneValueStemHashes, sha256],
  [
    "sha256 hasher over a kernel without it",
    createSha256Hasher(plainKernel) as OneValueStemHashes,
    sha256,
  ],
  ["levelwise over the js kernel", new LevelwiseStemHasher(jsSha256Kernel), sha256],
  ["blake3 hasher", createBlake3Hasher() as OneValueStemHashes, blake3],
];

describe("hashOneValueStems", () => {
  it("every built-in kernel and hasher has it (the wasm kernel natively)", () => {
    expect(wasm).toBeDefined();
    expect(typeof wasm!.hashOneValueStems).toBe("function");
    expect(typeof jsSha256Kernel.hashOneValueStems).toBe("function");
    expect(typeof createSha256Hasher().hashOneValueStems).toBe("function");
    expect(typeof createBlake3Hasher().hashOneValueStems).toBe("function");
  });

  it("the reference is the EIP-7864 stem hash (a fixed record, worked through by hand)", () => {
    // Stem 0x01..0x1f, subindex 5 (binary 00000101: right, left, right, then left x5), value 0xaa..
    const record = new Uint8Array(64);
    for (let i = 0; i < 31; i++) record[i] = i + 1;
    record[31] = 5;
    record.fill(0xaa, 32);
    const z = new Uint8Array(32);
    const cat = (a: Uint8Array, b: Uint8Array): Uint8Array => {
      const m = new Uint8Array(64);
      m.set(a, 0);
      m.set(b, 32);
      return m;
    };
    let node = sha256(new Uint8Array(32).fill(0xaa));
    node = sha256(cat(z, node));
    node = sha256(cat(node, z));
    node = sha256(cat(z, node));
    for (let i = 0; i < 5; i++) node = sha256(cat(node, z));
    const stem = new Uint8Array(32);
    stem.set(record.subarray(0, 31));
    expect(hex(referenceStemHash(sha256, record))).toBe(hex(sha256(cat(stem, node))));
  });

  describe.each(IMPLEMENTATIONS)("%s", (_name, impl, h) => {
    it("matches the reference for subindices 0, 1, 128, 255 and all-zero / all-ones records", () => {
      const count = 9;
      const src = new Uint8Array(64 * count);
      const subs = [0, 1, 128, 255, 0, 255, 7, 64, 200];
      for (let i = 0; i < count; i++) {
        src.fill(i === 4 ? 0 : i === 5 ? 0xff : (i * 37 + 11) & 0xff, 64 * i, 64 * i + 64);
        src[64 * i + 31] = subs[i]!;
      }
      const dst = new Uint8Array(32 * count);
      impl!.hashOneValueStems(src, 0, count, dst, 0);
      expect(hex(dst)).toBe(hex(referenceAll(h, src, 0, count)));
    });

    it("matches the reference on random records, counts, offsets, and in place (property)", () => {
      fc.assert(
        fc.property(
          // Small counts (lanes of a partial group) and counts past the wasm chunk of 1024.
          fc.oneof(fc.integer({ min: 0, max: 40 }), fc.integer({ min: 1021, max: 1100 })),
          fc.integer({ min: 0, max: 70 }),
          fc.integer({ min: 0, max: 70 }),
          fc.boolean(),
          fc.integer({ min: 1, max: 0x7fffffff }),
          (count, srcOffset, dstOffset, inPlace, seed) => {
            const src = new Uint8Array(srcOffset + 64 * count + 3);
            let x = seed;
            for (let i = 0; i < src.length; i++) {
              x = (Math.imul(x, 1103515245) + 12345) | 0;
              src[i] = x >>> 24;
            }
            const expected = referenceAll(h, src, srcOffset, count);
            if (inPlace) {
              impl!.hashOneValueStems(src, srcOffset, count, src, srcOffset);
              const got = src.subarray(srcOffset, srcOffset + 32 * count);
              expect(hex(got)).toBe(hex(expected));
            } else {
              const dst = new Uint8Array(dstOffset + 32 * count + 5).fill(0x5a);
              impl!.hashOneValueStems(src, srcOffset, count, dst, dstOffset);
              expect(hex(dst.subarray(dstOffset, dstOffset + 32 * count))).toBe(hex(expected));
              // Nothing outside the output range is written.
              expect(dst.subarray(0, dstOffset).every((b) => b === 0x5a)).toBe(true);
              expect(dst.subarray(dstOffset + 32 * count).every((b) => b === 0x5a)).toBe(true);
            }
          },
        ),
        { numRuns: 30 },
      );
    });

    it("rejects out-of-range arguments with a HashError before writing anything", () => {
      const src = new Uint8Array(64 * 4);
      const dst = new Uint8Array(32 * 4).fill(7);
      const bad: [number, number, number][] = [
        [1, 4, 0], // source overruns by one byte
        [0, 5, 0], // too many records
        [0, 4, 1], // destination overruns
        [-1, 1, 0],
        [0, -1, 0],
        [0, 1.5, 0],
        [0.5, 1, 0],
        [0, 1, Number.NaN],
      ];
      for (const [so, n, dq] of bad) {
        expect(() => impl!.hashOneValueStems(src, so, n, dst, dq)).toThrow(
          expect.objectContaining({ code: "BATCH_OUT_OF_RANGE" }),
        );
        expect(() => impl!.hashOneValueStems(src, so, n, dst, dq)).toThrow(HashError);
      }
      expect(dst.every((b) => b === 7)).toBe(true);
    });
  });

  it.each([
    ["--liftoff-only", "--no-liftoff-only"],
    ["--no-liftoff", "--liftoff"],
  ])("the wasm kernel is bit-exact with %s", (flag, restore) => {
    v8.setFlagsFromString(flag);
    try {
      const kernel = createWasmSha256Kernel();
      const count = 257;
      const src = new Uint8Array(64 * count);
      for (let i = 0; i < src.length; i++) src[i] = (i * 131 + (i >> 6) * 29 + 7) & 0xff;
      const dst = new Uint8Array(32 * count);
      kernel!.hashOneValueStems!(src, 0, count, dst, 0);
      expect(hex(dst)).toBe(hex(referenceAll(sha256, src, 0, count)));
    } finally {
      v8.setFlagsFromString(restore);
    }
  });
});
