import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { BinaryTree } from "../src/index.js";
import { ProofError, type ProofErrorCode, verifyProof } from "../src/proof/index.js";
import { proveSync } from "../src/proof/prove.js";
import { adversarialKeys, prng } from "./helpers/tree-fixtures.js";

/** Runs verify and returns the ProofError code; fails the test on success or any other throw. */
function rejection(run: () => unknown): ProofErrorCode {
  let result: unknown;
  try {
    result = run();
  } catch (error) {
    if (error instanceof ProofError) return error.code;
    throw new Error(`expected a ProofError, got ${String(error)}`, { cause: error });
  }
  throw new Error(`expected a rejection, got ${JSON.stringify(result)}`);
}

interface Case {
  name: string;
  tree: BinaryTree;
  keys: Uint8Array[];
  proof: Uint8Array;
  root: Uint8Array;
}

function makeCase(name: string, tree: BinaryTree, keys: Uint8Array[]): Case {
  const proof = proveSync(tree, keys);
  const root = tree.hash();
  // The untouched proof verifies: every rejection below is caused by the tampering.
  expect(verifyProof(root, keys, proof)).toEqual(keys.map((k) => tree.get(k)));
  return { name, tree, keys, proof, root };
}

function cases(): Case[] {
  const out: Case[] = [];
  const zero = new Uint8Array(32);
  const ones = new Uint8Array(32).fill(1);

  const single = new BinaryTree();
  single.put(zero, ones);
  out.push(makeCase("present key, one-stem tree", single, [zero]));
  const other = new Uint8Array(32);
  other[0] = 0x80;
  out.push(makeCase("absent key at another stem", single, [other]));

  // Two stems sharing 20 bits: a chain of internal nodes with empty siblings. A key leaving
  // the chain at bit 5 ends at an empty node.
  const chain = new BinaryTree();
  const a = new Uint8Array(32).fill(0x11);
  const b = a.slice();
  b[2]! ^= 0x08; // bit 20
  chain.put(a, ones);
  chain.put(b, ones);
  const offChain = a.slice();
  offChain[0]! ^= 0x04; // bit 5
  out.push(makeCase("absent key at an empty branch", chain, [offChain]));
  out.push(makeCase("same stem, absent slot", chain, [withSub(a, 7)]));

  // A random tree with multi-value stems and chains; a proof mixing every kind of answer.
  const rand = prng(2024);
  const tree = new BinaryTree();
  const present: Uint8Array[] = [];
  for (const stem of adversarialKeys(77, 150, 40)) {
    const n = 1 + (rand(1)[0]! % 5);
    for (let i = 0; i < n; i++) {
      const key = withSub(stem, rand(1)[0]!);
      tree.put(key, rand(32));
      present.push(key);
    }
  }
  const mixed = [
    ...present.filter((_, i) => i % 80 === 0),
    withSub(present[3]!, (present[3]![31]! + 1) & 0xff),
    rand(32),
    rand(32),
  ];
  out.push(
    makeCase("mixed proof (present, absent slot, absent stems) in a 150-stem tree", tree, mixed),
  );
  return out;
}

function withSub(key: Uint8Array, sub: number): Uint8Array {
  const out = key.slice();
  out[31] = sub;
  return out;
}

const ALL = cases();

describe("tampering with a proof is always a typed rejection", () => {
  for (const c of ALL) {
    it(`${c.name}: every single-byte change (${c.proof.length} bytes)`, () => {
      const exhaustive = c.proof.length <= 160;
      const rand = prng(c.proof.length);
      let checked = 0;
      for (let i = 0; i < c.proof.length; i++) {
        const replacements: number[] = [];
        if (exhaustive) {
          for (let v = 0; v < 256; v++) if (v !== c.proof[i]) replacements.push(v);
        } else {
          // Larger proofs: one random bit flip, all bits flipped, one random byte.
          replacements.push(
            c.proof[i]! ^ (1 << (rand(1)[0]! & 7)),
            c.proof[i]! ^ 0xff,
            rand(1)[0]!,
          );
        }
        for (const v of replacements) {
          if (v === c.proof[i]) continue;
          const tampered = c.proof.slice();
          tampered[i] = v;
          const code = rejection(() => verifyProof(c.root, c.keys, tampered));
          if (i === 0) expect(code).toBe("UNSUPPORTED_VERSION");
          else if (i === 1) expect(["MALFORMED", "HASH_FUNCTION_MISMATCH"]).toContain(code);
          else if (i < 10) expect(code).toBe("KEY_SET_MISMATCH");
          checked++;
        }
      }
      expect(checked).toBeGreaterThan(c.proof.length * 2);
    }, 60_000);

    it(`${c.name}: every truncation and extension`, () => {
      for (let n = 0; n < c.proof.length; n++) {
        rejection(() => verifyProof(c.root, c.keys, c.proof.subarray(0, n)));
      }
      for (const extra of [1, 2, 31, 32, 33, 100]) {
        for (const fill of [0x00, 0xff]) {
          const longer = new Uint8Array(c.proof.length + extra).fill(fill);
          longer.set(c.proof);
          expect(rejection(() => verifyProof(c.root, c.keys, longer))).toBe("TRAILING_DATA");
        }
      }
    });

    it(`${c.name}: a wrong root, other keys, another hash function`, () => {
      for (let bit = 0; bit < 256; bit++) {
        const root = c.root.slice();
        root[bit >>> 3]! ^= 0x80 >>> (bit & 7);
        expect(rejection(() => verifyProof(root, c.keys, c.proof))).toBe("ROOT_MISMATCH");
      }
      const otherKeySets = [
        [...c.keys, new Uint8Array(32).fill(0x42)],
        c.keys.map((k, i) => (i === 0 ? withSub(k, (k[31]! + 1) & 0xff) : k)),
        c.keys.map((k, i) => {
          if (i !== c.keys.length - 1) return k;
          const flipped = k.slice();
          flipped[30]! ^= 1;
          return flipped;
        }),
      ];
      if (c.keys.length > 1) otherKeySets.push(c.keys.slice(1));
      for (const keys of otherKeySets) {
        expect(rejection(() => verifyProof(c.root, keys, c.proof))).toBe("KEY_SET_MISMATCH");
      }
      expect(rejection(() => verifyProof(c.root, c.keys, c.proof, "blake3-be"))).toBe(
        "HASH_FUNCTION_MISMATCH",
      );
    });
  }

  it("a tampered claimed value: every byte of every returned value", () => {
    let values = 0;
    for (const c of ALL) {
      for (const key of c.keys) {
        const value = c.tree.get(key);
        if (value === undefined) continue;
        const at = indexOf(c.proof, value);
        expect(at).toBeGreaterThan(0);
        for (let b = 0; b < 32; b++) {
          const tampered = c.proof.slice();
          tampered[at + b]! ^= 0x01;
          expect(rejection(() => verifyProof(c.root, c.keys, tampered))).toBe("ROOT_MISMATCH");
        }
        values++;
      }
    }
    expect(values).toBeGreaterThan(5);
  });

  it("random multi-byte mutations and splices (fast-check)", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...ALL),
        fc.array(fc.tuple(fc.nat(), fc.integer({ min: 1, max: 255 })), {
          minLength: 1,
          maxLength: 8,
        }),
        fc.option(fc.tuple(fc.nat(), fc.integer({ min: -8, max: 8 }))),
        (c, edits, splice) => {
          let tampered: Uint8Array = c.proof.slice();
          for (const [pos, xor] of edits) tampered[pos % tampered.length]! ^= xor;
          if (splice !== null) {
            const [pos, delta] = splice;
            const at = pos % tampered.length;
            tampered =
              delta >= 0
                ? concat(tampered.subarray(0, at), new Uint8Array(delta), tampered.subarray(at))
                : concat(tampered.subarray(0, at), tampered.subarray(at - delta));
          }
          if (equal(tampered, c.proof)) return;
          rejection(() => verifyProof(c.root, c.keys, tampered));
        },
      ),
      { numRuns: 3000 },
    );
  });

  it("arbitrary bytes after a valid header never throw anything but ProofError (fast-check)", () => {
    const c = ALL[ALL.length - 1]!;
    const header = c.proof.subarray(0, 10);
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 300 }),
        fc.uint8Array({ maxLength: 600 }),
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        (shapeLength, body, root) => {
          const length =
            shapeLength < 128 ? [shapeLength] : [(shapeLength & 0x7f) | 0x80, shapeLength >>> 7];
          const proof = concat(header, new Uint8Array(length), body);
          rejection(() => verifyProof(root, c.keys, proof));
        },
      ),
      { numRuns: 3000 },
    );
  });

  it("arbitrary proofs, keys and roots never throw anything but ProofError (fast-check)", () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 200 }),
        fc.array(fc.uint8Array({ minLength: 32, maxLength: 32 }), { minLength: 1, maxLength: 4 }),
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        (proof, keys, root) => {
          rejection(() => verifyProof(root, keys, proof));
        },
      ),
      { numRuns: 2000 },
    );
  });
});

describe("invalid arguments are typed errors", () => {
  const c = ALL[0]!;
  const cast = <T>(x: unknown) => x as T;
  it.each([
    ["a 31-byte root", () => verifyProof(new Uint8Array(31), c.keys, c.proof), "INVALID_ROOT"],
    ["a string root", () => verifyProof(cast("0x00"), c.keys, c.proof), "INVALID_ROOT"],
    ["no keys", () => verifyProof(c.root, [], c.proof), "NO_KEYS"],
    ["keys not an array", () => verifyProof(c.root, cast("k"), c.proof), "INVALID_KEY"],
    ["a 33-byte key", () => verifyProof(c.root, [new Uint8Array(33)], c.proof), "INVALID_KEY"],
    ["a null key", () => verifyProof(c.root, cast([null]), c.proof), "INVALID_KEY"],
    ["a proof that is an array", () => verifyProof(c.root, c.keys, cast([1, 1])), "MALFORMED"],
    ["an empty proof", () => verifyProof(c.root, c.keys, new Uint8Array(0)), "TRUNCATED"],
    [
      "an unknown scheme",
      () => verifyProof(c.root, c.keys, c.proof, cast("md5")),
      "INVALID_OPTION",
    ],
    [
      "an unknown hash",
      () => verifyProof(c.root, c.keys, c.proof, { hash: cast("md5") }),
      "INVALID_OPTION",
    ],
    [
      "scheme and hash that disagree",
      () => verifyProof(c.root, c.keys, c.proof, { scheme: "sha256-be", hash: "blake3" }),
      "INVALID_OPTION",
    ],
    [
      "a hasher that is not one",
      () => verifyProof(c.root, c.keys, c.proof, { hasher: cast({ name: "sha256" }) }),
      "INVALID_OPTION",
    ],
    ["null options", () => verifyProof(c.root, c.keys, c.proof, cast(null)), "INVALID_OPTION"],
    ["prove with no keys", () => proveSync(c.tree, []), "NO_KEYS"],
    ["prove with a short key", () => proveSync(c.tree, [new Uint8Array(31)]), "INVALID_KEY"],
  ] as const)("%s", (_, run, code) => {
    expect(rejection(run)).toBe(code);
  });
});

function indexOf(haystack: Uint8Array, needle: Uint8Array): number {
  outer: for (let i = 0; i + needle.length <= haystack.length; i++) {
    for (let j = 0; j < needle.length; j++) if (haystack[i + j] !== needle[j]) continue outer;
    return i;
  }
  return -1;
}

function equal(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
