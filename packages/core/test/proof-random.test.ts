import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { BinaryTree, type KeyScheme } from "../src/index.js";
import { ProofError, verifyProof } from "../src/proof/index.js";
import { proveSync } from "../src/proof/prove.js";
import { hex } from "./helpers/shared.js";
import { adversarialKeys, prng } from "./helpers/tree-fixtures.js";

interface Built {
  tree: BinaryTree;
  present: Uint8Array[];
  rand: (n: number) => Uint8Array;
}

/** Stems that share long prefixes (chains, stems at every depth) with 1..max values each. */
function buildTree(
  seed: number,
  stems: number,
  maxValues: number,
  divergeBits: number,
  scheme: KeyScheme,
): Built {
  const rand = prng(seed);
  const tree = new BinaryTree({ scheme });
  const present: Uint8Array[] = [];
  for (const stemKey of adversarialKeys(seed, stems, divergeBits)) {
    const count = 1 + (rand(1)[0]! % maxValues);
    for (let v = 0; v < count; v++) {
      const key = stemKey.slice();
      key[31] = rand(1)[0]!;
      tree.put(key, rand(32));
      present.push(key);
    }
  }
  return { tree, present, rand };
}

/** Absent keys that walk deep into the tree: same stem other slot, near stems, random keys. */
function queryKeys(built: Built, presentCount: number, absentCount: number): Uint8Array[] {
  const { present, rand } = built;
  const pick = () => present[((rand(1)[0]! << 8) | rand(1)[0]!) % present.length]!;
  const keys: Uint8Array[] = [];
  for (let i = 0; i < presentCount && present.length > 0; i++) keys.push(pick());
  for (let i = 0; i < absentCount; i++) {
    const r = rand(2);
    let key: Uint8Array;
    if (present.length === 0 || r[0]! % 3 === 0) {
      key = rand(32);
    } else if (r[0]! % 3 === 1) {
      key = pick().slice();
      key[31] = r[1]!;
    } else {
      key = pick().slice();
      const bit = r[1]! % 248;
      key[bit >>> 3]! ^= 0x80 >>> (bit & 7);
    }
    keys.push(key);
  }
  if (keys.length === 0) keys.push(rand(32));
  return keys;
}

/** Answers seen across all runs, so a generator that stops producing a case fails loudly. */
const seen = { present: 0, absent: 0, refused: 0 };

function expectAnswers(tree: BinaryTree, keys: Uint8Array[], values: (Uint8Array | undefined)[]) {
  for (const v of values) {
    if (v === undefined) seen.absent++;
    else seen.present++;
  }
  expect(values.map((v) => (v === undefined ? "absent" : hex(v)))).toEqual(
    keys.map((k) => {
      const v = tree.get(k);
      return v === undefined ? "absent" : hex(v);
    }),
  );
}

const spec = fc.record({
  seed: fc.integer({ min: 1, max: 0x7fffffff }),
  stems: fc.integer({ min: 0, max: 120 }),
  maxValues: fc.integer({ min: 1, max: 12 }),
  divergeBits: fc.constantFrom(8, 24, 64, 248),
  scheme: fc.constantFrom<KeyScheme>("sha256-be", "blake3-be"),
  presentQueries: fc.integer({ min: 0, max: 30 }),
  absentQueries: fc.integer({ min: 0, max: 30 }),
});

describe("proofs of random trees", () => {
  it("every queried key, present or absent, verifies to exactly what the tree holds", () => {
    fc.assert(
      fc.property(spec, (s) => {
        const built = buildTree(s.seed, s.stems, s.maxValues, s.divergeBits, s.scheme);
        const keys = queryKeys(built, s.presentQueries, s.absentQueries);
        const proof = proveSync(built.tree, keys);
        expectAnswers(built.tree, keys, verifyProof(built.tree.hash(), keys, proof, s.scheme));
        // Each key alone verifies too.
        for (const key of keys.slice(0, 5)) {
          const single = proveSync(built.tree, [key]);
          expectAnswers(built.tree, [key], verifyProof(built.tree.hash(), [key], single, s.scheme));
        }
      }),
      { numRuns: 150 },
    );
    expect(seen.present).toBeGreaterThan(500);
    expect(seen.absent).toBeGreaterThan(500);
  });

  it("a proof depends on the key set only: order and duplicates give the same bytes", () => {
    fc.assert(
      fc.property(spec, fc.integer(), (s, shuffleSeed) => {
        const built = buildTree(s.seed, s.stems, s.maxValues, s.divergeBits, s.scheme);
        const keys = queryKeys(built, s.presentQueries, s.absentQueries);
        const rand = prng(shuffleSeed);
        const shuffled = [...keys, ...keys.slice(0, 3)]
          .map((k) => ({ k, r: rand(4) }))
          .sort((a, b) => a.r[0]! - b.r[0]! || a.r[1]! - b.r[1]!)
          .map((e) => e.k);
        const proof = proveSync(built.tree, keys);
        expect(hex(proveSync(built.tree, shuffled))).toBe(hex(proof));
        expectAnswers(
          built.tree,
          shuffled,
          verifyProof(built.tree.hash(), shuffled, proof, { scheme: s.scheme }),
        );
      }),
      { numRuns: 50 },
    );
  });

  it("'remove' mode: after deletions, removed and remaining keys all verify", () => {
    let removedTotal = 0;
    fc.assert(
      fc.property(spec, fc.integer({ min: 0, max: 100 }), (s, removePercent) => {
        const rand = prng(s.seed);
        const tree = new BinaryTree({ scheme: s.scheme, deletionMode: "remove" });
        const keys: Uint8Array[] = [];
        for (const stemKey of adversarialKeys(s.seed, s.stems, s.divergeBits)) {
          const count = 1 + (rand(1)[0]! % s.maxValues);
          for (let v = 0; v < count; v++) {
            const key = stemKey.slice();
            key[31] = rand(1)[0]!;
            tree.put(key, rand(32));
            keys.push(key);
          }
        }
        const removed = keys.filter(() => rand(1)[0]! % 100 < removePercent);
        for (const key of removed) tree.delete(key);
        removedTotal += removed.length;
        const query = [...removed.slice(0, 20), ...keys.slice(0, 20), rand(32)];
        const proof = proveSync(tree, query);
        const values = verifyProof(tree.hash(), query, proof, s.scheme);
        expectAnswers(tree, query, values);
        for (let i = 0; i < Math.min(removed.length, 20); i++) expect(values[i]).toBeUndefined();
      }),
      { numRuns: 100 },
    );
    expect(removedTotal).toBeGreaterThan(100);
  });

  it("stems without values: absence through them is refused as UNPROVABLE, everything else verifies", () => {
    fc.assert(
      fc.property(spec, (s) => {
        const built = buildTree(s.seed, s.stems, s.maxValues, s.divergeBits, s.scheme);
        const { tree, rand } = built;
        // geth creates a stem even when UpdateStem gets no values.
        const bare = adversarialKeys(s.seed ^ 0x5a5a, 6, s.divergeBits);
        for (const key of bare) tree.putStem(key.subarray(0, 31), []);
        const keys = [...queryKeys(built, s.presentQueries, s.absentQueries), ...bare];
        for (const key of bare) {
          const near = key.slice();
          near[30]! ^= 1 + (rand(1)[0]! & 0x7f);
          keys.push(near);
        }
        let refused = 0;
        for (const key of keys) {
          try {
            const proof = proveSync(tree, [key]);
            expectAnswers(tree, [key], verifyProof(tree.hash(), [key], proof, s.scheme));
          } catch (error) {
            expect(error).toBeInstanceOf(ProofError);
            expect((error as ProofError).code).toBe("UNPROVABLE");
            expect(tree.get(key)).toBeUndefined();
            refused++;
            seen.refused++;
          }
        }
        // The bare stems' own keys are matched stems: always provable (absent).
        for (const key of bare) {
          const proof = proveSync(tree, [key]);
          expect(verifyProof(tree.hash(), [key], proof, s.scheme)).toEqual([undefined]);
        }
        expect(refused).toBeLessThan(keys.length);
      }),
      { numRuns: 60 },
    );
    expect(seen.refused).toBeGreaterThan(0);
  });
});

describe("proof size", () => {
  it("1,000 keys of a 10k-key tree: shared path parts are written once (about 123 bytes/key)", () => {
    const rand = prng(10_000);
    const tree = new BinaryTree();
    const keys: Uint8Array[] = [];
    for (let i = 0; i < 10_000; i++) {
      const key = rand(32);
      keys.push(key);
      tree.put(key, rand(32));
    }
    const query = keys.filter((_, i) => i % 10 === 0);
    const proof = proveSync(tree, query);
    const singles = query.reduce((n, key) => n + proveSync(tree, [key]).length, 0);
    // Each present key costs at least its 32-byte value; a lone proof ~13 hashes more.
    expect(proof.length / query.length).toBeGreaterThan(32);
    expect(proof.length / query.length).toBeLessThan(140);
    expect(proof.length).toBeLessThan(singles * 0.4);
    expect(verifyProof(tree.hash(), query, proof).every((v) => v !== undefined)).toBe(true);
  });
});
