import { createHash } from "node:crypto";
import { blake3 } from "@noble/hashes/blake3.js";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { HashError } from "../src/hash/errors.js";
import { getHasher } from "../src/hash/get-hasher.js";
import type { Hasher, HashFunctionName } from "../src/hash/hasher.js";
import { EMPTY_HASH, hashInternal, hashLeafValue, hashStem } from "../src/hash/node-hash.js";
import { expectTypedError } from "./helpers/expect-error.js";
import { bytesToHex, hexToBytes, loadReferenceVectors, referenceRoot } from "./helpers/vectors.js";

/** The sparse form of hashStem (present values only), as the tests below call it. */
function hashStemSparse(
  hasher: Hasher,
  stem: Uint8Array,
  subindices: ArrayLike<number>,
  values: Uint8Array,
  count: number,
  out?: Uint8Array,
): Uint8Array {
  return hashStem(hasher, stem, { subindices, values, count }, out);
}

const vectors = loadReferenceVectors();
const HASHES: readonly HashFunctionName[] = ["sha256", "blake3"];

const rawHash: Record<HashFunctionName, (message: Uint8Array) => Uint8Array> = {
  sha256: (m) => new Uint8Array(createHash("sha256").update(m).digest()),
  blake3: (m) => blake3(m),
};

const concat = (...parts: Uint8Array[]): Uint8Array => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
};

/** Spec §2 written out naively over the raw hash function, independent of the package's fold. */
function naiveStemHash(
  name: HashFunctionName,
  stem: Uint8Array,
  values: (Uint8Array | undefined)[],
): Uint8Array {
  const h = rawHash[name];
  const zero = new Uint8Array(32);
  let level = Array.from({ length: 256 }, (_, i) =>
    values[i] === undefined ? zero : h(values[i]!),
  );
  while (level.length > 1) {
    const next: Uint8Array[] = [];
    for (let i = 0; i < level.length; i += 2) {
      const l = level[i]!;
      const r = level[i + 1]!;
      next.push(l.every((b) => b === 0) && r.every((b) => b === 0) ? zero : h(concat(l, r)));
    }
    level = next;
  }
  return h(concat(stem, new Uint8Array([0]), level[0]!));
}

/** Random stems: 31 bytes, subindices as a set, values including all-zero ones. */
const stemContents = fc.record({
  stem: fc.uint8Array({ minLength: 31, maxLength: 31 }),
  entries: fc.uniqueArray(
    fc.tuple(
      fc.integer({ min: 0, max: 255 }),
      fc.oneof(fc.uint8Array({ minLength: 32, maxLength: 32 }), fc.constant(new Uint8Array(32))),
    ),
    { selector: ([subindex]) => subindex, maxLength: 256 },
  ),
});

function toDense(entries: [number, Uint8Array][]): (Uint8Array | undefined)[] {
  const values: (Uint8Array | undefined)[] = new Array(256).fill(undefined);
  for (const [subindex, value] of entries) values[subindex] = value;
  return values;
}

function toSparse(entries: [number, Uint8Array][]): { subindices: number[]; packed: Uint8Array } {
  const sorted = [...entries].sort((a, b) => a[0] - b[0]);
  return { subindices: sorted.map(([s]) => s), packed: concat(...sorted.map(([, v]) => v)) };
}

describe.each(HASHES)("%s node hash rules", (name) => {
  const hasher = getHasher(name);
  const h = rawHash[name];

  it("leaf = H(value), also for a zero value; out buffer is used", () => {
    const value = hexToBytes(`0x${"01".repeat(32)}`);
    expect(hashLeafValue(hasher, value)).toEqual(h(value));
    const out = new Uint8Array(32);
    expect(hashLeafValue(hasher, new Uint8Array(32), out)).toBe(out);
    expect(out).toEqual(h(new Uint8Array(32)));
    expect(out.some((b) => b !== 0)).toBe(true);
  });

  it("internal = H(left || right) with no zero short-circuit", () => {
    const left = hexToBytes(`0x${"12".repeat(32)}`);
    const right = hexToBytes(`0x${"fe".repeat(32)}`);
    expect(hashInternal(hasher, left, right)).toEqual(h(concat(left, right)));
    expect(hashInternal(hasher, EMPTY_HASH, right)).toEqual(h(concat(new Uint8Array(32), right)));
    expect(hashInternal(hasher, EMPTY_HASH, EMPTY_HASH)).toEqual(h(new Uint8Array(64)));
    // Output may alias an input.
    const aliased = left.slice();
    hashInternal(hasher, aliased, right, aliased);
    expect(aliased).toEqual(h(concat(left, right)));
  });

  it("a stem without values hashes to H(stem || 0x00 || 0^32), not zero", () => {
    const stem = hexToBytes(`0x${"ab".repeat(31)}`);
    const expected = h(concat(stem, new Uint8Array(33)));
    expect(hashStem(hasher, stem, [])).toEqual(expected);
    expect(hashStem(hasher, stem, new Array(256).fill(null))).toEqual(expected);
    expect(hashStemSparse(hasher, stem, [], new Uint8Array(0), 0)).toEqual(expected);
  });

  it("hashStem == hashStemSparse == naive spec fold on random stems (property)", () => {
    fc.assert(
      fc.property(stemContents, ({ stem, entries }) => {
        const dense = hashStem(hasher, stem, toDense(entries));
        const { subindices, packed } = toSparse(entries);
        const sparse = hashStemSparse(hasher, stem, subindices, packed, subindices.length);
        expect(bytesToHex(sparse)).toBe(bytesToHex(dense));
        expect(bytesToHex(dense)).toBe(bytesToHex(naiveStemHash(name, stem, toDense(entries))));
      }),
      { numRuns: name === "sha256" ? 300 : 100 },
    );
  });

  it("hashStemSparse reads only `count` entries and honours typed-array subindices", () => {
    const stem = new Uint8Array(31).fill(7);
    const a = new Uint8Array(32).fill(1);
    const b = new Uint8Array(32).fill(2);
    const expected = hashStem(
      hasher,
      stem,
      toDense([
        [0, a],
        [255, b],
      ]),
    );
    const subindices = Uint8Array.of(0, 255, 3);
    const packed = concat(a, b, new Uint8Array(32).fill(9));
    expect(hashStemSparse(hasher, stem, subindices, packed, 2)).toEqual(expected);
    const out = new Uint8Array(32);
    expect(hashStemSparse(hasher, stem, subindices, packed, 2, out)).toBe(out);
    expect(out).toEqual(expected);
  });
});

describe("tree vectors (root from the node-hash rules)", () => {
  const singleStem = vectors.tree_vectors.filter((v) => {
    const stems = new Set(v.ops.map((op) => op.key.slice(0, 64)));
    return stems.size === 1;
  });

  it("contains the expected cases", () => {
    expect(vectors.tree_vectors.length).toBe(15);
    expect(singleStem.map((v) => v.name)).toEqual([
      "single_zero_key",
      "single_key_nonzero_subindex",
      "single_key_zero_value",
      "two_keys_same_stem",
      "one_stem_four_values",
      "one_stem_all_256_values",
      "overwrite",
    ]);
  });

  describe.each(HASHES)("%s", (name) => {
    const hasher = getHasher(name);

    it.each(singleStem.map((v) => [v.name, v] as const))(
      "single stem %s: root = stem hash (dense and sparse)",
      (_n, v) => {
        const latest = new Map<number, Uint8Array>();
        for (const op of v.ops) latest.set(hexToBytes(op.key)[31]!, hexToBytes(op.value));
        const stem = hexToBytes(v.ops[0]!.key).subarray(0, 31);
        const entries = [...latest.entries()];
        const { subindices, packed } = toSparse(entries);
        expect(bytesToHex(hashStem(hasher, stem, toDense(entries)))).toBe(v.expected_root[name]);
        expect(
          bytesToHex(hashStemSparse(hasher, stem, subindices, packed, subindices.length)),
        ).toBe(v.expected_root[name]);
      },
    );

    it.each(vectors.tree_vectors.map((v) => [v.name, v] as const))("%s root", (_n, v) => {
      const leaves = new Map<string, Uint8Array>();
      for (const op of v.ops) leaves.set(op.key, hexToBytes(op.value));
      expect(bytesToHex(referenceRoot(hasher, leaves))).toBe(v.expected_root[name]);
    });
  });

  it("geth TestSingleEntry: key 0^32 = 0x01*32 gives root aab1060e…", () => {
    const single = vectors.tree_vectors.find((v) => v.name === "single_zero_key")!;
    expect(single.expected_root.sha256).toBe(
      "0xaab1060e04cb4f5dc6f697ae93156a95714debbf77d54238766adc5709282b6f",
    );
    const root = hashStem(getHasher("sha256"), new Uint8Array(31), [new Uint8Array(32).fill(1)]);
    expect(bytesToHex(root)).toBe(single.expected_root.sha256);
  });
});

describe("random_1000 and clustered_1000 roots", () => {
  const sha = rawHash.sha256;
  const be64 = (i: number): Uint8Array => {
    const out = new Uint8Array(8);
    new DataView(out.buffer).setBigUint64(0, BigInt(i));
    return out;
  };
  const randomKeys = Array.from({ length: 1000 }, (_, i) => {
    const key = sha(be64(i));
    return { key: bytesToHex(key), value: sha(key) };
  });

  it("derives the listed first keys", () => {
    for (const first of vectors.random_1000.first_keys) {
      expect(randomKeys[first.i]!.key).toBe(first.key);
      expect(bytesToHex(randomKeys[first.i]!.value)).toBe(first.value);
    }
  });

  describe.each(HASHES)("%s", (name) => {
    it.each(vectors.random_1000.checkpoints.map((c) => [c.inserted, c] as const))(
      "random_1000 root after %i inserts",
      (inserted, checkpoint) => {
        const leaves = new Map(randomKeys.slice(0, inserted).map((k) => [k.key, k.value] as const));
        expect(bytesToHex(referenceRoot(getHasher(name), leaves))).toBe(
          checkpoint.expected_root[name],
        );
      },
    );

    it("clustered_1000 root (100 stems x 10 values)", () => {
      const leaves = new Map<string, Uint8Array>();
      const text = new TextEncoder();
      for (let i = 0; i < 1000; i++) {
        const stem = sha(concat(text.encode("stem"), be64(Math.floor(i / 10)))).subarray(0, 31);
        const key = concat(stem, new Uint8Array([(i % 10) * 25]));
        leaves.set(bytesToHex(key), sha(concat(text.encode("val"), be64(i))));
      }
      expect(bytesToHex(referenceRoot(getHasher(name), leaves))).toBe(
        vectors.clustered_1000.expected_root[name],
      );
    });
  });
});

describe("input validation", () => {
  const sha = getHasher("sha256");
  const stem = new Uint8Array(31);
  const value = new Uint8Array(32);
  const expectHashError = (fn: () => unknown, code: string, fragment: string): void =>
    expectTypedError(fn, HashError, code, fragment);

  it("rejects wrong lengths, naming the input", () => {
    expectHashError(
      () => hashLeafValue(sha, new Uint8Array(31)),
      "INVALID_LENGTH",
      "leaf value must be 32 bytes, got 31",
    );
    expectHashError(
      () => hashInternal(sha, value, new Uint8Array(33)),
      "INVALID_LENGTH",
      "right child hash",
    );
    expectHashError(
      () => hashInternal(sha, value, value, new Uint8Array(31)),
      "INVALID_LENGTH",
      "output buffer",
    );
    expectHashError(
      () => hashStem(sha, new Uint8Array(32), []),
      "INVALID_LENGTH",
      "stem must be 31 bytes, got 32",
    );
    expectHashError(
      () => hashStem(sha, stem, [undefined, new Uint8Array(16)]),
      "INVALID_LENGTH",
      "subindex 1",
    );
    expectHashError(
      () => hashStem(sha, stem, new Array(257).fill(null)),
      "INVALID_LENGTH",
      "257 values",
    );
    expectHashError(
      () => hashStemSparse(sha, stem, [1, 2], value, 2),
      "INVALID_LENGTH",
      "need 64 bytes, got 32",
    );
  });

  it("rejects unsorted, duplicate or out-of-range subindices", () => {
    const two = new Uint8Array(64);
    expectHashError(
      () => hashStemSparse(sha, stem, [5, 3], two, 2),
      "INVALID_SUBINDICES",
      "subindex 3 at position 1",
    );
    expectHashError(
      () => hashStemSparse(sha, stem, [4, 4], two, 2),
      "INVALID_SUBINDICES",
      "subindex 4 at position 1",
    );
    expectHashError(
      () => hashStemSparse(sha, stem, [256], value, 1),
      "INVALID_SUBINDICES",
      "subindex 256",
    );
    expectHashError(
      () => hashStemSparse(sha, stem, [1.5], value, 1),
      "INVALID_SUBINDICES",
      "subindex 1.5",
    );
    expectHashError(
      () => hashStemSparse(sha, stem, [1], value, 2),
      "INVALID_SUBINDICES",
      "count 2",
    );
    expectHashError(
      () => hashStemSparse(sha, stem, new Array(300).fill(0), new Uint8Array(300 * 32), 257),
      "INVALID_SUBINDICES",
      "count 257",
    );
  });
});
