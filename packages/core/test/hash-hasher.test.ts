import { createHash, randomBytes } from "node:crypto";
import { blake3 } from "@noble/hashes/blake3.js";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createBlake3Hasher } from "../src/hash/blake3-hasher.js";
import { HashError } from "../src/hash/errors.js";
import { getHasher } from "../src/hash/get-hasher.js";
import type { Hasher, Sha256BatchKernel } from "../src/hash/hasher.js";
import { createSha256Hasher } from "../src/hash/sha256-hasher.js";
import { jsSha256Kernel } from "../src/sha256/js-kernel.js";
import { bytesToHex } from "./helpers/vectors.js";

const nodeSha256 = (message: Uint8Array): Uint8Array =>
  new Uint8Array(createHash("sha256").update(message).digest());

type Reference = (message: Uint8Array) => Uint8Array;

const hashers: { name: string; make: () => Hasher; reference: Reference }[] = [
  { name: "sha256 (default kernel)", make: () => createSha256Hasher(), reference: nodeSha256 },
  {
    name: "sha256 (pure-TS kernel)",
    make: () => createSha256Hasher(jsSha256Kernel),
    reference: nodeSha256,
  },
  { name: "blake3", make: () => createBlake3Hasher(), reference: (m) => blake3(m) },
];

const SENTINEL = 0xa5;

/** Runs one batch at random offsets inside larger views and checks every digest and the untouched bytes. */
function checkBatch(hasher: Hasher, reference: Reference, size: 32 | 64, count: number): void {
  const srcOffset = count % 5;
  const dstOffset = (count * 7) % 3;
  // Views with a non-zero byteOffset into a bigger buffer exercise the kernels' address math.
  const srcBacking = new Uint8Array(13 + srcOffset + size * count + 9);
  srcBacking.set(randomBytes(srcBacking.length));
  const src = srcBacking.subarray(13, srcBacking.length - 4);
  const dstBacking = new Uint8Array(5 + dstOffset + 32 * count + 11).fill(SENTINEL);
  const dst = dstBacking.subarray(5, dstBacking.length - 3);
  const srcBefore = src.slice();

  const batch = size === 32 ? hasher.hash32Batch : hasher.hash64Batch;
  batch.call(hasher, src, srcOffset, count, dst, dstOffset);

  for (let i = 0; i < count; i++) {
    const message = srcBefore.subarray(srcOffset + size * i, srcOffset + size * (i + 1));
    expect(bytesToHex(dst.subarray(dstOffset + 32 * i, dstOffset + 32 * (i + 1)))).toBe(
      bytesToHex(reference(message)),
    );
  }
  expect(src).toEqual(srcBefore);
  const untouched = [
    ...dstBacking.subarray(0, 5 + dstOffset),
    ...dstBacking.subarray(5 + dstOffset + 32 * count),
  ];
  expect(untouched.every((b) => b === SENTINEL)).toBe(true);
}

describe.each(hashers)("$name batch APIs", ({ make, reference }) => {
  const hasher = make();

  it.each([0, 1, 2, 3, 7, 8, 33, 257])(
    "hash32Batch of %i messages matches the reference",
    (count) => {
      checkBatch(hasher, reference, 32, count);
    },
  );

  it.each([0, 1, 2, 3, 7, 8, 33, 257])(
    "hash64Batch of %i messages matches the reference",
    (count) => {
      checkBatch(hasher, reference, 64, count);
    },
  );

  it.each([1, 2, 5, 64, 129])(
    "hash64Batch in place (dst === src, same offset) with %i messages",
    (count) => {
      const offset = 3;
      const buffer = new Uint8Array(offset + 64 * count);
      buffer.set(randomBytes(buffer.length));
      const before = buffer.slice();
      hasher.hash64Batch(buffer, offset, count, buffer, offset);
      for (let i = 0; i < count; i++) {
        const message = before.subarray(offset + 64 * i, offset + 64 * (i + 1));
        expect(bytesToHex(buffer.subarray(offset + 32 * i, offset + 32 * (i + 1)))).toBe(
          bytesToHex(reference(message)),
        );
      }
      expect(buffer.subarray(0, offset)).toEqual(before.subarray(0, offset));
    },
  );

  it.each([1, 3, 64])("hash32Batch in place with %i messages", (count) => {
    const buffer = new Uint8Array(32 * count);
    buffer.set(randomBytes(buffer.length));
    const before = buffer.slice();
    hasher.hash32Batch(buffer, 0, count, buffer, 0);
    for (let i = 0; i < count; i++) {
      expect(bytesToHex(buffer.subarray(32 * i, 32 * (i + 1)))).toBe(
        bytesToHex(reference(before.subarray(32 * i, 32 * (i + 1)))),
      );
    }
  });

  it("alternating backing buffers (DataView cache) give the right digests", () => {
    const a = new Uint8Array(randomBytes(64 * 3));
    const b = new Uint8Array(randomBytes(64 * 3));
    for (const src of [a, b, a, b]) {
      const dst = new Uint8Array(32 * 3);
      hasher.hash64Batch(src, 0, 3, dst, 0);
      expect(bytesToHex(dst.subarray(64, 96))).toBe(bytesToHex(reference(src.subarray(128, 192))));
    }
  });

  it("matches the reference on arbitrary batches (property)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 20 }),
        fc.constantFrom<32 | 64>(32, 64),
        fc.integer({ min: 0, max: 40 }),
        fc.integer({ min: 0, max: 40 }),
        fc.uint8Array({ minLength: 64 * 20 + 40, maxLength: 64 * 20 + 40 }),
        (count, size, srcOffset, dstOffset, src) => {
          const dst = new Uint8Array(dstOffset + 32 * count);
          const batch = size === 32 ? hasher.hash32Batch : hasher.hash64Batch;
          batch.call(hasher, src, srcOffset, count, dst, dstOffset);
          for (let i = 0; i < count; i++) {
            const message = src.subarray(srcOffset + size * i, srcOffset + size * (i + 1));
            expect(dst.subarray(dstOffset + 32 * i, dstOffset + 32 * (i + 1))).toEqual(
              reference(message),
            );
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it.each([0, 1, 31, 32, 55, 56, 63, 64, 65, 1000])(
    "digest of %i bytes matches the reference",
    (length) => {
      const message = new Uint8Array(randomBytes(length));
      const digest = hasher.digest(message);
      expect(digest).toBeInstanceOf(Uint8Array);
      expect(digest.length).toBe(32);
      expect(bytesToHex(digest)).toBe(bytesToHex(reference(message)));
      // A new array each time, not a shared buffer.
      expect(hasher.digest(message)).not.toBe(digest);
    },
  );

  it.each([
    ["count is negative", 32, 0, -1, 32, 0],
    ["count is fractional", 64, 0, 1.5, 64, 0],
    ["srcOffset is negative", 32, -1, 1, 32, 0],
    ["src is too short", 64, 1, 1, 32, 0],
    ["dst is too short", 32, 0, 2, 63, 0],
    ["dstOffset runs past the end", 64, 0, 1, 64, 33],
    ["dstOffset is NaN", 32, 0, 1, 32, Number.NaN],
  ] as const)(
    "rejects a batch where %s, writing nothing",
    (_label, size, srcOffset, count, dstLength, dstOffset) => {
      const src = new Uint8Array(64);
      const dst = new Uint8Array(dstLength).fill(SENTINEL);
      const batch = size === 32 ? hasher.hash32Batch : hasher.hash64Batch;
      let error: unknown;
      try {
        batch.call(hasher, src, srcOffset, count, dst, dstOffset);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(HashError);
      expect((error as HashError).code).toBe("BATCH_OUT_OF_RANGE");
      expect(dst.every((b) => b === SENTINEL)).toBe(true);
    },
  );
});

describe("known answers", () => {
  it("SHA-256 of 32 zero bytes, of 64 zero bytes and of 'abc'", () => {
    const sha = getHasher("sha256");
    const out = new Uint8Array(32);
    sha.hash32Batch(new Uint8Array(32), 0, 1, out, 0);
    expect(bytesToHex(out)).toBe(
      "0x66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925",
    );
    sha.hash64Batch(new Uint8Array(64), 0, 1, out, 0);
    expect(bytesToHex(out)).toBe(
      "0xf5a5fd42d16a20302798ef6ed309979b43003d2320d9f0e8ea9831a92759fb4b",
    );
    expect(bytesToHex(sha.digest(new TextEncoder().encode("abc")))).toBe(
      "0xba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
    );
  });

  it("BLAKE3 of the empty message", () => {
    expect(bytesToHex(getHasher("blake3").digest(new Uint8Array(0)))).toBe(
      "0xaf1349b9f5f9a1a6a0404dea36dcc9499bcb25c9adc112b7cc9a93cae41f3262",
    );
  });
});

describe("createSha256Hasher with an injected kernel", () => {
  function recordingKernel(): { kernel: Sha256BatchKernel; calls: string[] } {
    const inner = jsSha256Kernel;
    const calls: string[] = [];
    return {
      calls,
      kernel: {
        hash32Batch(src, srcOffset, count, dst, dstOffset) {
          calls.push(`32:${srcOffset}:${count}:${dstOffset}`);
          inner.hash32Batch(src, srcOffset, count, dst, dstOffset);
        },
        hash64Batch(src, srcOffset, count, dst, dstOffset) {
          calls.push(`64:${srcOffset}:${count}:${dstOffset}`);
          inner.hash64Batch(src, srcOffset, count, dst, dstOffset);
        },
      },
    };
  }

  it("delegates valid batches to the kernel and keeps the results", () => {
    const { kernel, calls } = recordingKernel();
    const hasher = createSha256Hasher(kernel);
    const src = new Uint8Array(randomBytes(128));
    const dst = new Uint8Array(64);
    hasher.hash64Batch(src, 0, 2, dst, 0);
    hasher.hash32Batch(src, 32, 1, dst, 32);
    expect(calls).toEqual(["64:0:2:0", "32:32:1:32"]);
    expect(dst.subarray(0, 32)).toEqual(nodeSha256(src.subarray(0, 64)));
    expect(dst.subarray(32, 64)).toEqual(nodeSha256(src.subarray(32, 64)));
    expect(hasher.name).toBe("sha256");
  });

  it("validates before calling the kernel", () => {
    const { kernel, calls } = recordingKernel();
    const hasher = createSha256Hasher(kernel);
    expect(() => hasher.hash64Batch(new Uint8Array(63), 0, 1, new Uint8Array(32), 0)).toThrow(
      HashError,
    );
    expect(calls).toEqual([]);
  });
});

describe("getHasher", () => {
  it("returns one shared instance per function, over the best kernel here", () => {
    expect(getHasher("sha256")).toBe(getHasher("sha256"));
    expect(getHasher("blake3")).toBe(getHasher("blake3"));
    expect(getHasher("sha256").name).toBe("sha256");
    expect(getHasher("blake3").name).toBe("blake3");
  });

  it("rejects an unknown name with a typed error naming it", () => {
    expect(() => getHasher("sha512" as "sha256")).toThrow(
      expect.objectContaining({
        code: "UNKNOWN_HASH_FUNCTION",
        message: expect.stringContaining('"sha512"'),
      }),
    );
  });
});
