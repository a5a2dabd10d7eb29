import { keccak_256 } from "@noble/hashes/sha3.js";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { chunkCount, chunkifyCode, codeFromChunks } from "../src/embedding/chunkify.js";
import { codeHash, EMPTY_CODE_HASH } from "../src/embedding/code-hash.js";
import { CodeChunkError } from "../src/embedding/errors.js";
import { expectTypedError } from "./helpers/expect-error.js";
import {
  bytesToHex,
  hexToBytes,
  loadEthereumjsVectors,
  loadGethSpec,
  loadReferenceVectors,
} from "./helpers/vectors.js";

const vectors = loadReferenceVectors();

/** The EIP-7864 Python `chunkify_code` (bytes_to_exec_data), ported literally with zero padding. */
function eipChunkify(code: Uint8Array): Uint8Array {
  const padded = new Uint8Array(Math.ceil(code.length / 31) * 31);
  padded.set(code);
  const bytesToExecData = new Array<number>(padded.length + 32).fill(0);
  let pos = 0;
  while (pos < padded.length) {
    const op = padded[pos]!;
    const pushdataBytes = op >= 0x60 && op <= 0x7f ? op - 0x60 + 1 : 0;
    pos += 1;
    for (let x = 0; x < pushdataBytes; x++) bytesToExecData[pos + x] = pushdataBytes - x;
    pos += pushdataBytes;
  }
  const out = new Uint8Array((padded.length / 31) * 32);
  for (let start = 0, chunk = 0; start < padded.length; start += 31, chunk++) {
    out[32 * chunk] = Math.min(bytesToExecData[start]!, 31);
    out.set(padded.subarray(start, start + 31), 32 * chunk + 1);
  }
  return out;
}

const joinChunks = (chunks: string[]): string =>
  `0x${chunks.map((c) => c.replace(/^0x/, "")).join("")}`;

describe("chunkify_vectors (every entry)", () => {
  it("has 14 entries", () => {
    expect(vectors.chunkify_vectors.length).toBe(14);
  });

  it.each(vectors.chunkify_vectors.map((v) => [v.name, v] as const))("%s", (_name, v) => {
    const code = hexToBytes(v.code);
    const chunks = chunkifyCode(code);
    expect(bytesToHex(chunks)).toBe(joinChunks(v.chunks));
    expect(chunkCount(code.length)).toBe(v.chunks.length);
    expect(bytesToHex(codeFromChunks(chunks, code.length))).toBe(v.code);
  });
});

describe("ethereumjs chunkify vector", () => {
  it("matches", () => {
    const { code, chunks } = loadEthereumjsVectors().key_derivation.chunkify;
    expect(bytesToHex(chunkifyCode(hexToBytes(code)))).toBe(joinChunks(chunks));
    expect(
      bytesToHex(codeFromChunks(hexToBytes(joinChunks(chunks)), hexToBytes(code).length)),
    ).toBe(code);
  });
});

describe("geth spec §6.3 EELS chunkify vectors", () => {
  const spec = loadGethSpec();
  const section = spec.slice(
    spec.indexOf("### 6.3 Cross-check vectors from EELS"),
    spec.indexOf("## 7. Benchmarks"),
  );

  /** The spec describes inputs in words ("0x60 repeated 62 times"); build them. */
  const codeFromDescription = (text: string): Uint8Array => {
    const plain = /^0x([0-9a-f]*)$/.exec(text);
    if (plain) return hexToBytes(plain[1]!);
    const repeated = /^0x([0-9a-f]{2}) repeated (\d+) times$/.exec(text);
    if (repeated) return hexToBytes(repeated[1]!.repeat(Number(repeated[2])));
    const tail = /^0x([0-9a-f]+) \+ (\d+) bytes ([0-9a-f]{2})$/.exec(text);
    if (tail) return hexToBytes(tail[1]! + tail[3]!.repeat(Number(tail[2])));
    const zeros = /^(\d+) zero bytes$/.exec(text);
    if (zeros) return new Uint8Array(Number(zeros[1]));
    throw new Error(`unknown code description ${JSON.stringify(text)}`);
  };
  const chunkFromToken = (token: string): string => {
    if (/^[0-9a-f]{64}$/.test(token)) return token;
    if (token === "00…00 (32 B)") return "00".repeat(32);
    throw new Error(`unknown chunk token ${JSON.stringify(token)}`);
  };

  const cases = [...section.matchAll(/chunkify (\w+)\s+code=(.*?)\s+chunks=\[([^\]]*)\]/g)].map(
    (m) => ({
      name: m[1]!,
      code: codeFromDescription(m[2]!.trim()),
      chunks: m[3]!
        .split(",")
        .map((t) => t.trim())
        .filter((t) => t !== "")
        .map(chunkFromToken),
    }),
  );

  it("parses the 5 cases", () => {
    expect(cases.map((c) => c.name)).toEqual([
      "empty",
      "short",
      "push_boundary",
      "push32_tail",
      "zeros62",
    ]);
  });

  it.each(cases.map((c) => [c.name, c] as const))("%s", (_name, c) => {
    expect(bytesToHex(chunkifyCode(c.code))).toBe(joinChunks(c.chunks));
  });
});

describe("chunking properties", () => {
  // PUSH-heavy code reaches the boundary rules far more often than uniform bytes.
  const pushHeavy = fc
    .array(fc.oneof(fc.integer({ min: 0x60, max: 0x7f }), fc.integer({ min: 0, max: 255 })), {
      maxLength: 400,
    })
    .map((bytes) => Uint8Array.from(bytes));
  const code = fc.oneof(fc.uint8Array({ maxLength: 400 }), pushHeavy);

  it("codeFromChunks(chunkifyCode(c)) == c", () => {
    fc.assert(
      fc.property(code, (c) => {
        const chunks = chunkifyCode(c);
        expect(chunks.length).toBe(32 * Math.ceil(c.length / 31));
        expect(codeFromChunks(chunks, c.length)).toEqual(c);
      }),
      { numRuns: 500 },
    );
  });

  it("equals the EIP's bytes_to_exec_data algorithm", () => {
    fc.assert(
      fc.property(code, (c) => {
        expect(bytesToHex(chunkifyCode(c))).toBe(bytesToHex(eipChunkify(c)));
      }),
      { numRuns: 500 },
    );
  });

  it("PUSH32 as a chunk's last byte: next chunk metadata 31, the one after 1", () => {
    const c = new Uint8Array(31 * 3);
    c[30] = 0x7f;
    const chunks = chunkifyCode(c);
    expect([chunks[0], chunks[32], chunks[64]]).toEqual([0, 31, 1]);
  });

  it("chunkCount rounds up", () => {
    expect([0, 1, 30, 31, 32, 62, 63, 5000].map(chunkCount)).toEqual([0, 1, 1, 1, 2, 2, 3, 162]);
  });
});

describe("code hash", () => {
  it("EMPTY_CODE_HASH = keccak256('') = c5d2…a470, the geth genesis CODE_HASH leaf", () => {
    const geth = vectors.state_root_vectors.vectors.find(
      (v) => v.name === "geth_TestBinaryGenesisCommit",
    )!;
    const codeHashLeaf = geth.leaves_sha256_be!.find((l) => l.key.endsWith("01"))!;
    expect(bytesToHex(EMPTY_CODE_HASH)).toBe(
      "0xc5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470",
    );
    expect(bytesToHex(EMPTY_CODE_HASH)).toBe(codeHashLeaf.value);
    expect(codeHash(new Uint8Array(0))).toEqual(EMPTY_CODE_HASH);
  });

  it("codeHash is keccak-256 (not SHA3-256)", () => {
    expect(bytesToHex(codeHash(new TextEncoder().encode("abc")))).toBe(
      "0x4e03657aea45a94fc7d47ba826c8d667c0d1e6e33a64a036ec44f58fa12d6c45",
    );
    const beacon = hexToBytes(
      vectors.chunkify_vectors.find((v) => v.name === "beacon_roots_code")!.code,
    );
    expect(codeHash(beacon)).toEqual(keccak_256(beacon));
  });
});

describe("errors name the bad input", () => {
  const expectChunkError = (fn: () => unknown, code: string, fragment: string): void =>
    expectTypedError(fn, CodeChunkError, code, fragment);

  it("invalid sizes and chunk buffers", () => {
    expectChunkError(() => chunkCount(-1), "INVALID_CODE_SIZE", "code size -1");
    expectChunkError(() => chunkCount(2.5), "INVALID_CODE_SIZE", "code size 2.5");
    expectChunkError(
      () => codeFromChunks(new Uint8Array(32), 32),
      "INVALID_CHUNKS",
      "needs 2 chunks (64 bytes), got 32",
    );
    expectChunkError(
      () => codeFromChunks(new Uint8Array(64), 31),
      "INVALID_CHUNKS",
      "needs 1 chunks",
    );
  });
});
