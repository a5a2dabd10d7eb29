import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type StemEntry, StreamingBuilder } from "../src/builder/index.js";
import { BinaryTree, type NodeWrite } from "../src/index.js";
import {
  adversarialStems,
  builderOutput,
  compareStems,
  firstDifference,
  randomStems,
  referenceCommit,
  sortedByPath,
  type ValueShape,
} from "./helpers/builder-fixtures.js";
import { bytes, hex, readTestdata } from "./helpers/shared.js";

const GROUP_DEPTHS = [0, 1, 2, 3, 4, 5, 6, 7, 8];
const SIZES = [1, 2, 4, 8, 32, 128, 1000, 20000];

/** Value shapes per size: every format detail on small trees, cheap hashing on the big ones. */
function shapeFor(n: number): ValueShape {
  if (n <= 128) return "mixed";
  return n <= 1000 ? "few" : "sparse";
}

/** Builder output == fresh tree commit: same records, same order, same root. */
function expectSameAsCommit(stems: readonly StemEntry[], g: number, stemBatchSize?: number) {
  const expected = referenceCommit(stems, g);
  const actual = builderOutput(stems, g, stemBatchSize);
  expect(hex(actual.root)).toBe(hex(expected.root));
  // The comparison (sorted by path) …
  expect(
    firstDifference(sortedByPath(actual.writes), sortedByPath(expected.writes)),
  ).toBeUndefined();
  // … and the stronger one: the commit's own post-order, record for record.
  expect(firstDifference(actual.writes, expected.writes)).toBeUndefined();
  // Each path exactly once.
  const paths = sortedByPath(actual.writes).map((w) => w.path);
  let repeated = 0;
  for (let i = 1; i < paths.length; i++)
    if (compareStems(paths[i - 1]!, paths[i]!) >= 0) repeated++;
  expect(repeated).toBe(0);
  return actual.writes.length;
}

describe("groundtruth: builder records == BinaryTree commit, byte for byte", () => {
  for (const n of SIZES) {
    describe(`n=${n}`, () => {
      const shape = shapeFor(n);
      const random = randomStems(0x1000 + n, n, shape);
      // Deep chains cost ~200 internal nodes each; keep their share modest on big inputs.
      const adversarial = adversarialStems(0x2000 + n, n, shape, n > 1000 ? 1 / 64 : 1 / 8);
      it("inputs have the requested size and order", () => {
        for (const stems of [random, adversarial]) {
          expect(stems.length).toBe(n);
          for (let i = 1; i < n; i++) {
            expect(compareStems(stems[i - 1]!.stem, stems[i]!.stem)).toBeLessThan(0);
          }
        }
      });
      for (const g of GROUP_DEPTHS) {
        it(`g=${g}: random and adversarial stems`, () => {
          expect(expectSameAsCommit(random, g)).toBeGreaterThanOrEqual(n);
          expect(expectSameAsCommit(adversarial, g)).toBeGreaterThanOrEqual(n);
        }, 30_000);
      }
    });
  }

  it("adversarial inputs put stems at every depth offset inside a group and down to depth 248", () => {
    const stems = adversarialStems(0x2000 + 1000, 1000, "few", 1 / 4);
    const depths = new Set<number>();
    const tree = referenceCommit(stems, 0);
    for (const w of tree.writes)
      if (w.blob[0] === 1) depths.add(w.path.length === 0 ? 0 : w.path.at(-1)!);
    for (let r = 0; r < 8; r++) expect([...depths].some((d) => d % 8 === r)).toBe(true);
    expect(Math.max(...depths)).toBeGreaterThan(200);
  });

  it("batch boundaries do not matter (stem batches of 1, 2, 3, 17, 1024)", () => {
    const stems = adversarialStems(77, 300, "mixed", 1 / 4);
    for (const g of [0, 1, 5, 8]) {
      const expected = referenceCommit(stems, g);
      for (const batch of [1, 2, 3, 17, 1024]) {
        const actual = builderOutput(stems, g, batch);
        expect(hex(actual.root)).toBe(hex(expected.root));
        expect(firstDifference(actual.writes, expected.writes)).toBeUndefined();
      }
    }
  }, 30_000);

  it("long one-child chains across a full batch (the log is resolved mid-batch)", () => {
    // 300 pairs of stems differing only in the last bit: ~240 chain nodes per pair, more nodes
    // in one 1024-stem batch than the log holds (65536) before it resolves.
    const stems: StemEntry[] = [];
    for (let i = 0; i < 300; i++) {
      const a = new Uint8Array(31);
      new DataView(a.buffer).setUint32(0, Math.imul(i, 2654435761) >>> 0);
      a[30] = 0xfe;
      const b = a.slice();
      b[30] = 0xff;
      stems.push({ stem: a, values: [new Uint8Array(32).fill(i & 0xff)] }, { stem: b, values: [] });
    }
    stems.sort((x, y) => compareStems(x.stem, y.stem));
    for (const g of [0, 5]) expect(expectSameAsCommit(stems, g)).toBeGreaterThan(600);
  }, 30_000);
});

interface NodeSetCase {
  name: string;
  entries: { key: string; value: string }[];
  root: string;
  nodesets: Record<string, { path: string; hash: string; blob: string }[]>;
}

describe("geth-nodesets.json: built from sorted entries, exactly the vector node sets", () => {
  const { cases } = readTestdata<{ cases: NodeSetCase[] }>("geth/geth-nodesets.json");
  it("has the state-actor StreamingGroundtruth cases", () => {
    const names = cases.map((c) => c.name).filter((n) => n.startsWith("StreamingGroundtruth"));
    expect(names).toEqual([
      "StreamingGroundtruth2",
      "StreamingGroundtruth4",
      "StreamingGroundtruth8",
      "StreamingGroundtruth32",
      "StreamingGroundtruth128",
    ]);
  });
  for (const c of cases) {
    for (const [g, expected] of Object.entries(c.nodesets)) {
      it(`${c.name} g=${g} (${expected.length} nodes)`, () => {
        // Later entries win, as with tree.put; then key order.
        const byKey = new Map<string, string>();
        for (const e of c.entries) byKey.set(e.key.toLowerCase(), e.value);
        const keys = [...byKey.keys()].sort();
        const writes: NodeWrite[] = [];
        const builder = new StreamingBuilder({
          groupDepth: Number(g),
          onNode: (node) => writes.push(node),
        });
        for (const k of keys) builder.addEntry(bytes(k), bytes(byKey.get(k)!));
        expect(hex(builder.finish())).toBe(c.root);
        expect(
          writes.map((w) => ({ path: hex(w.path), hash: hex(w.hash), blob: hex(w.blob) })),
        ).toEqual(expected);
      });
    }
  }
});

describe("property: builder == tree for any stem set, group depth and batch size", () => {
  const stemSet = fc
    .record({
      first: fc.uint8Array({ minLength: 31, maxLength: 31 }),
      more: fc.array(
        fc.record({
          from: fc.nat(),
          bit: fc.oneof(fc.integer({ min: 0, max: 16 }), fc.integer({ min: 0, max: 247 })),
          tail: fc.uint8Array({ minLength: 31, maxLength: 31 }),
          values: fc.array(
            fc.tuple(
              fc.integer({ min: 0, max: 255 }),
              fc.uint8Array({ minLength: 32, maxLength: 32 }),
            ),
            { maxLength: 4 },
          ),
        }),
        { maxLength: 60 },
      ),
    })
    .map(({ first, more }) => {
      // Each stem shares its first `bit` bits with an earlier one and differs at bit `bit`.
      const stems = [first];
      const values: (Uint8Array | undefined)[][] = [[]];
      for (const m of more) {
        const base = stems[m.from % stems.length]!;
        const stem = m.tail.slice();
        const byte = m.bit >>> 3;
        const mask = 0x80 >>> (m.bit & 7);
        for (let j = 0; j < byte; j++) stem[j] = base[j]!;
        const keep = (0xff00 >>> (m.bit & 7)) & 0xff;
        stem[byte] = (base[byte]! & keep) | (~base[byte]! & mask) | (stem[byte]! & (mask - 1));
        if (stems.some((s) => compareStems(s, stem) === 0)) continue;
        const slots: (Uint8Array | undefined)[] = [];
        for (const [sub, v] of m.values) slots[sub] = v;
        stems.push(stem);
        values.push(slots);
      }
      return stems
        .map((stem, i) => ({ stem, values: values[i]! }))
        .sort((a, b) => compareStems(a.stem, b.stem));
    });

  it("random stem sets with shared prefixes", () => {
    fc.assert(
      fc.property(
        stemSet,
        fc.integer({ min: 0, max: 8 }),
        fc.integer({ min: 1, max: 9 }),
        (stems, g, batch) => {
          const expected = referenceCommit(stems, g);
          const actual = builderOutput(stems, g, batch);
          return (
            hex(actual.root) === hex(expected.root) &&
            firstDifference(actual.writes, expected.writes) === undefined
          );
        },
      ),
      { numRuns: 200 },
    );
  });

  it("the root equals BinaryTree.hash() and does not depend on the group depth", () => {
    fc.assert(
      fc.property(stemSet, (stems) => {
        const tree = new BinaryTree();
        for (const { stem, values } of stems) tree.putStem(stem, values);
        const root = hex(tree.hash());
        return GROUP_DEPTHS.every((g) => hex(builderOutput(stems, g).root) === root);
      }),
      { numRuns: 50 },
    );
  });
});
