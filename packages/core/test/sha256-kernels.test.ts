import { createHash, randomBytes } from "node:crypto";
import v8 from "node:v8";
import { sha256 as nobleSha256 } from "@noble/hashes/sha2.js";
import fc from "fast-check";
import { afterEach, describe, expect, it, vi } from "vitest";
import { HashError } from "../src/hash/errors.js";
import {
  bestSha256Kernel,
  createWasmSha256Kernel,
  jsSha256Kernel,
  type Sha256BatchKernel,
} from "../src/sha256/index.js";

/** The WebAssembly API (core's tsconfig has no DOM lib, and @types/node declares no WebAssembly values). */
const WA = (
  globalThis as unknown as {
    WebAssembly: {
      validate(bytes: Uint8Array): boolean;
      Module: new (bytes: Uint8Array) => object;
    };
  }
).WebAssembly;

const cryptoSha256 = (m: Uint8Array): Uint8Array =>
  new Uint8Array(createHash("sha256").update(m).digest());

function hex(b: Uint8Array): string {
  return Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString("hex");
}

const wasmKernel = createWasmSha256Kernel();
// Chunks of 8 messages: exercises the copy-in / hash / copy-out loop (and in-place hashing) across many chunks.
const wasmSmallChunks = createWasmSha256Kernel({ chunk: 8 });

const KERNELS: [string, Sha256BatchKernel | undefined][] = [
  ["js", jsSha256Kernel],
  ["wasm", wasmKernel],
  ["wasm chunk=8", wasmSmallChunks],
];

const COUNTS = [0, 1, 2, 3, 4, 5, 7, 8, 63, 1000, 4097];
const SIZES = [32, 64] as const;

function batch(k: Sha256BatchKernel, size: 32 | 64): Sha256BatchKernel["hash32Batch"] {
  return size === 32 ? k.hash32Batch : k.hash64Batch;
}

/** Reference digests of `count` messages of `size` bytes at src[off + size * i]. */
function referenceDigests(src: Uint8Array, off: number, count: number, size: number): Uint8Array {
  const out = new Uint8Array(32 * count);
  for (let i = 0; i < count; i++) {
    out.set(cryptoSha256(src.subarray(off + size * i, off + size * (i + 1))), 32 * i);
  }
  return out;
}

/** First index where two digests arrays differ, as "message i", for readable failures. */
function firstMismatch(actual: Uint8Array, expected: Uint8Array): string {
  for (let i = 0; i < expected.length; i += 32) {
    const a = hex(actual.subarray(i, i + 32));
    const e = hex(expected.subarray(i, i + 32));
    if (a !== e) return `message ${i / 32}: got ${a}, expected ${e}`;
  }
  return actual.length === expected.length ? "equal" : "length differs";
}

describe("reference implementations agree", () => {
  it("node:crypto and @noble/hashes give the same digests, and the known zero-message vectors", () => {
    for (const size of SIZES) {
      for (let i = 0; i < 20; i++) {
        const m = new Uint8Array(randomBytes(size));
        expect(hex(nobleSha256(m))).toBe(hex(cryptoSha256(m)));
      }
    }
    expect(hex(cryptoSha256(new Uint8Array(32)))).toBe(
      "66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925",
    );
    expect(hex(cryptoSha256(new Uint8Array(64)))).toBe(
      "f5a5fd42d16a20302798ef6ed309979b43003d2320d9f0e8ea9831a92759fb4b",
    );
  });
});

describe("wasm availability", () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it("Node 20 has WebAssembly SIMD, so the wasm kernel exists and is the best kernel", () => {
    expect(wasmKernel).toBeDefined();
    expect(wasmSmallChunks).toBeDefined();
    const best = bestSha256Kernel();
    expect(best).not.toBe(jsSha256Kernel);
    expect(bestSha256Kernel()).toBe(best);
  });

  it("returns undefined without WebAssembly", () => {
    vi.stubGlobal("WebAssembly", undefined);
    expect(createWasmSha256Kernel()).toBeUndefined();
  });

  it("returns undefined when SIMD does not validate", () => {
    const validate = vi.spyOn(WA, "validate").mockReturnValue(false);
    expect(createWasmSha256Kernel()).toBeUndefined();
    expect(validate).toHaveBeenCalled();
  });

  it("returns undefined when synchronous compilation throws", () => {
    vi.spyOn(WA, "Module").mockImplementation(() => {
      throw new RangeError("WebAssembly.Module is disallowed on the main thread");
    });
    expect(createWasmSha256Kernel()).toBeUndefined();
  });

  it("rejects chunk sizes that are not a multiple of 4 in [4, 1024]", () => {
    for (const chunk of [0, 2, 6, 1028, 2048, 1.5]) {
      expect(() => createWasmSha256Kernel({ chunk })).toThrow(HashError);
    }
  });
});

describe.each(KERNELS)("%s kernel", (_name, maybeKernel) => {
  const kernel = maybeKernel!;

  it("exists", () => {
    expect(maybeKernel).toBeDefined();
  });

  for (const size of SIZES) {
    it(`hashes ${size}-byte messages bit-exactly at random offsets (counts ${COUNTS.join(", ")})`, () => {
      for (const count of COUNTS) {
        const srcOffset = Math.floor(Math.random() * 40);
        const dstOffset = Math.floor(Math.random() * 40);
        const src = new Uint8Array(randomBytes(srcOffset + size * count + 17));
        const srcCopy = src.slice();
        const dst = new Uint8Array(dstOffset + 32 * count + 23).fill(0xa5);
        batch(kernel, size)(src, srcOffset, count, dst, dstOffset);
        const expected = referenceDigests(src, srcOffset, count, size);
        const actual = dst.subarray(dstOffset, dstOffset + 32 * count);
        expect(firstMismatch(actual, expected), `count ${count}`).toBe("equal");
        // Nothing outside the output range is written, and the input is not modified.
        expect(dst.subarray(0, dstOffset).every((b) => b === 0xa5)).toBe(true);
        expect(dst.subarray(dstOffset + 32 * count).every((b) => b === 0xa5)).toBe(true);
        expect(hex(src)).toBe(hex(srcCopy));
      }
    });

    it(`matches @noble/hashes on ${size}-byte messages in a Buffer view with a non-zero byteOffset`, () => {
      const count = 37;
      // Small Buffers come from Node's shared pool, so their byteOffset is usually not 0; force it with subarray.
      const backing = randomBytes(size * count + 64);
      const src = backing.subarray(13, 13 + size * count);
      const out = Buffer.alloc(32 * count + 5).subarray(5);
      batch(kernel, size)(src, 0, count, out, 0);
      for (let i = 0; i < count; i++) {
        const expected = nobleSha256(src.subarray(size * i, size * (i + 1)));
        expect(hex(out.subarray(32 * i, 32 * i + 32)), `message ${i}`).toBe(hex(expected));
      }
    });

    it(`hashes all-zero ${size}-byte messages`, () => {
      const zeroDigest =
        size === 32
          ? "66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925"
          : "f5a5fd42d16a20302798ef6ed309979b43003d2320d9f0e8ea9831a92759fb4b";
      for (const count of [1, 4, 9]) {
        const dst = new Uint8Array(32 * count).fill(0xff);
        batch(kernel, size)(new Uint8Array(size * count), 0, count, dst, 0);
        for (let i = 0; i < count; i++)
          expect(hex(dst.subarray(32 * i, 32 * i + 32))).toBe(zeroDigest);
      }
    });
  }

  it("hashes 64-byte messages in place (dst === src, same offset)", () => {
    for (const count of COUNTS) {
      const offset = 3 + Math.floor(Math.random() * 29);
      const buf = new Uint8Array(randomBytes(offset + 64 * count + 11));
      const original = buf.slice();
      kernel.hash64Batch(buf, offset, count, buf, offset);
      const expected = referenceDigests(original, offset, count, 64);
      const actual = buf.subarray(offset, offset + 32 * count);
      expect(firstMismatch(actual, expected), `count ${count}`).toBe("equal");
      // Only the digest range is written: before it and the rest of the message area are as they were.
      expect(hex(buf.subarray(0, offset))).toBe(hex(original.subarray(0, offset)));
      expect(hex(buf.subarray(offset + 32 * count))).toBe(
        hex(original.subarray(offset + 32 * count)),
      );
    }
  });

  it("hashes 32-byte messages in place", () => {
    for (const count of [1, 5, 63, 1000]) {
      const buf = new Uint8Array(randomBytes(7 + 32 * count));
      const original = buf.slice();
      kernel.hash32Batch(buf, 7, count, buf, 7);
      const expected = referenceDigests(original, 7, count, 32);
      expect(firstMismatch(buf.subarray(7), expected)).toBe("equal");
    }
  });

  it("hashes the 64-byte stem || 0x00 || root shape", () => {
    const count = 300;
    const msgs = new Uint8Array(64 * count);
    for (let i = 0; i < count; i++) {
      msgs.set(randomBytes(31), 64 * i); // 31-byte stem
      msgs[64 * i + 31] = 0x00;
      // Some roots are all zero (empty subtree), the others random.
      if (i % 3 !== 0) msgs.set(randomBytes(32), 64 * i + 32);
    }
    const dst = new Uint8Array(32 * count);
    kernel.hash64Batch(msgs, 0, count, dst, 0);
    for (let i = 0; i < count; i++) {
      const m = msgs.subarray(64 * i, 64 * i + 64);
      expect(hex(dst.subarray(32 * i, 32 * i + 32))).toBe(hex(nobleSha256(m)));
    }
  });

  it("agrees with @noble/hashes on arbitrary inputs (property)", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(32, 64),
        fc.integer({ min: 0, max: 19 }),
        fc.integer({ min: 0, max: 9 }),
        fc.integer({ min: 0, max: 9 }),
        fc.uint8Array({ minLength: 64 * 19 + 9, maxLength: 64 * 19 + 9 }),
        (size, count, srcOffset, dstOffset, bytes) => {
          const src = bytes.subarray(0, srcOffset + size * count);
          const dst = new Uint8Array(dstOffset + 32 * count);
          batch(kernel, size as 32 | 64)(src, srcOffset, count, dst, dstOffset);
          for (let i = 0; i < count; i++) {
            const m = src.subarray(srcOffset + size * i, srcOffset + size * (i + 1));
            const got = dst.subarray(dstOffset + 32 * i, dstOffset + 32 * (i + 1));
            if (hex(got) !== hex(nobleSha256(m))) return false;
          }
          return true;
        },
      ),
      { numRuns: 300 },
    );
  });

  it("rejects out-of-range arguments before writing anything", () => {
    const src64 = new Uint8Array(64 * 4);
    const src32 = new Uint8Array(32 * 4);
    const dst = new Uint8Array(32 * 4).fill(7);
    const bad: [number, number, number][] = [
      [1, 4, 0], // source overruns by one byte
      [0, 5, 0], // too many messages
      [0, 4, 1], // destination overruns
      [-1, 1, 0],
      [0, -1, 0],
      [0, 1.5, 0],
      [0.5, 1, 0],
      [0, 1, Number.NaN],
    ];
    for (const [so, n, dq] of bad) {
      expect(() => kernel.hash64Batch(src64, so, n, dst, dq)).toThrow(HashError);
      expect(() => kernel.hash32Batch(src32, so, n, dst, dq)).toThrow(HashError);
    }
    expect(dst.every((b) => b === 7)).toBe(true);
    // The limits themselves are accepted.
    kernel.hash64Batch(src64, 0, 4, dst, 0);
    kernel.hash32Batch(src32, 0, 4, dst, 0);
    expect(hex(dst.subarray(0, 32))).toBe(hex(cryptoSha256(new Uint8Array(32))));
  });
});

describe("wasm kernel in both V8 tiers", () => {
  // Liftoff runs the first calls and TurboFan takes over later; make each tier compile a kernel and check both.
  it.each([
    ["--liftoff-only", "--no-liftoff-only"],
    ["--no-liftoff", "--liftoff"],
  ])("is bit-exact with %s", (flag, restore) => {
    v8.setFlagsFromString(flag);
    let kernel: Sha256BatchKernel | undefined;
    try {
      kernel = createWasmSha256Kernel();
      expect(kernel).toBeDefined();
      for (const size of SIZES) {
        const count = 257;
        const src = new Uint8Array(randomBytes(size * count));
        const dst = new Uint8Array(32 * count);
        batch(kernel!, size)(src, 0, count, dst, 0);
        expect(firstMismatch(dst, referenceDigests(src, 0, count, size))).toBe("equal");
      }
    } finally {
      v8.setFlagsFromString(restore);
    }
  });
});
