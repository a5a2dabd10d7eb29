import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  BuilderError,
  type BuildInput,
  buildTree,
  StemBlobHasher,
  type StemEntry,
  StreamingBuilder,
} from "../src/builder/index.js";
import { hashStem } from "../src/hash/index.js";
import { BinaryTree, getHasher, type NodeWrite } from "../src/index.js";
import {
  adversarialStems,
  builderOutput,
  compareStems,
  firstDifference,
  randomStems,
  referenceCommit,
} from "./helpers/builder-fixtures.js";
import { hex } from "./helpers/shared.js";
import { prng } from "./helpers/tree-fixtures.js";

function collect(options: { groupDepth?: number; stemBatchSize?: number } = {}) {
  const writes: NodeWrite[] = [];
  const builder = new StreamingBuilder({ ...options, onNode: (n) => writes.push(n) });
  return { builder, writes };
}

function thrown(f: () => unknown): BuilderError {
  try {
    f();
  } catch (error) {
    expect(error).toBeInstanceOf(BuilderError);
    return error as BuilderError;
  }
  throw new Error("expected a BuilderError");
}

function stemOf(byte0: number, last = 0): Uint8Array {
  const s = new Uint8Array(31);
  s[0] = byte0;
  s[30] = last;
  return s;
}

function keyOf(stem: Uint8Array, sub: number): Uint8Array {
  const k = new Uint8Array(32);
  k.set(stem);
  k[31] = sub;
  return k;
}

const V = (b: number) => new Uint8Array(32).fill(b);

function stemBlob(
  stem: Uint8Array,
  values: readonly (Uint8Array | null | undefined)[],
): Uint8Array {
  const present = values.flatMap((v, sub) => (v ? [[sub, v] as const] : []));
  const blob = new Uint8Array(64 + 32 * present.length);
  blob[0] = 1;
  blob.set(stem, 1);
  present.forEach(([sub, v], j) => {
    blob[32 + (sub >> 3)]! |= 0x80 >> (sub & 7);
    blob.set(v, 64 + 32 * j);
  });
  return blob;
}

/** Sorted entries: several keys per stem, stems with shared prefixes. */
function entriesOf(stems: readonly StemEntry[]): { key: Uint8Array; value: Uint8Array }[] {
  const out: { key: Uint8Array; value: Uint8Array }[] = [];
  for (const { stem, values } of stems) {
    values.forEach((v, sub) => {
      if (v) out.push({ key: keyOf(stem, sub), value: v });
    });
  }
  return out;
}

describe("entries: consecutive keys of a stem form one stem", () => {
  for (const g of [0, 3, 5, 8]) {
    it(`g=${g}: addEntry over sorted keys == tree.put commit`, () => {
      const stems = adversarialStems(40 + g, 400, "few", 1 / 4);
      const { builder, writes } = collect({ groupDepth: g, stemBatchSize: 5 });
      const tree = new BinaryTree({ groupDepth: g });
      for (const { key, value } of entriesOf(stems)) {
        builder.addEntry(key, value);
        tree.put(key, value);
      }
      const root = builder.finish();
      const expected = tree.commit();
      expect(hex(root)).toBe(hex(expected.root));
      expect(firstDifference(writes, expected.writes)).toBeUndefined();
      expect(builder.stemCount).toBe(stems.length);
      expect(builder.nodeCount).toBe(writes.length);
    });
  }

  it("addEntry and addStem mix freely", () => {
    const stems = randomStems(9, 300, "mixed");
    const { builder, writes } = collect({ groupDepth: 4 });
    stems.forEach(({ stem, values }, i) => {
      const present = values.some((v) => v);
      if (i % 2 === 0 && present) {
        for (const e of entriesOf([{ stem, values }])) builder.addEntry(e.key, e.value);
      } else {
        builder.addStem(stem, values);
      }
    });
    const root = builder.finish();
    const expected = referenceCommit(stems, 4);
    expect(hex(root)).toBe(hex(expected.root));
    expect(firstDifference(writes, expected.writes)).toBeUndefined();
  });

  it("addHashedStem takes stems hashed elsewhere (StemBlobHasher, e.g. in workers)", () => {
    const stems = randomStems(10, 2500, "mixed");
    const blobs = stems.map(({ stem, values }) => stemBlob(stem, values));
    const hashes = new StemBlobHasher().hash(blobs);
    // The batch hasher agrees with the one-stem reference hash.
    const hasher = getHasher("sha256");
    stems.forEach(({ stem, values }, i) => {
      expect(hex(hashes.subarray(i * 32, i * 32 + 32))).toBe(hex(hashStem(hasher, stem, values)));
    });
    const { builder, writes } = collect({ groupDepth: 5, stemBatchSize: 16 });
    stems.forEach(({ stem, values }, i) => {
      if (i % 3 === 0) builder.addStem(stem, values);
      else builder.addHashedStem(blobs[i]!, hashes.slice(i * 32, i * 32 + 32));
    });
    const root = builder.finish();
    const expected = referenceCommit(stems, 5);
    expect(hex(root)).toBe(hex(expected.root));
    expect(firstDifference(writes, expected.writes)).toBeUndefined();
  });

  it("blake3 schemes build the blake3 tree", () => {
    const stems = randomStems(11, 100, "few");
    const writes: NodeWrite[] = [];
    const builder = new StreamingBuilder({
      scheme: "blake3-be",
      groupDepth: 3,
      onNode: (n) => writes.push(n),
    });
    for (const { stem, values } of stems) builder.addStem(stem, values);
    const tree = new BinaryTree({ scheme: "blake3-be", groupDepth: 3 });
    for (const { stem, values } of stems) tree.putStem(stem, values);
    const expected = tree.commit();
    expect(hex(builder.finish())).toBe(hex(expected.root));
    expect(firstDifference(writes, expected.writes)).toBeUndefined();
  });

  it("empty input: zero root and no records; one stem: the stem is the root at path ()", () => {
    const empty = collect();
    expect(hex(empty.builder.finish())).toBe(hex(new Uint8Array(32)));
    expect(empty.writes).toEqual([]);
    const one = collect();
    one.builder.addEntry(keyOf(stemOf(7), 3), V(1));
    const root = one.builder.finish();
    expect(one.writes).toHaveLength(1);
    expect(one.writes[0]!.path).toEqual(new Uint8Array(0));
    expect(hex(one.writes[0]!.hash)).toBe(hex(root));
  });
});

describe("emission: as soon as complete, children before parents, each path once", () => {
  it("a stem is emitted once its right neighbour arrives; group roots only when complete", () => {
    const { builder, writes } = collect({ groupDepth: 8, stemBatchSize: 1 });
    builder.addStem(stemOf(0x00), [V(1)]);
    expect(writes).toHaveLength(0); // its depth depends on the next stem
    builder.addStem(stemOf(0x01), [V(2)]); // shares 7 bits: both stems sit at depth 8
    builder.addStem(stemOf(0x80), [V(3)]); // diverges at bit 0
    // Both left stems are complete, the root group (depth 0) is not.
    expect(writes.map((w) => hex(w.path))).toEqual(["0x0008", "0x0108"]);
    builder.finish();
    expect(writes.map((w) => hex(w.path))).toEqual(["0x0008", "0x0108", "0x8001", "0x"]);
  });

  it("property: no record is followed by a record of its own subtree", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 2 ** 30 }),
        fc.integer({ min: 1, max: 80 }),
        fc.integer({ min: 0, max: 8 }),
        fc.integer({ min: 1, max: 8 }),
        (seed, n, g, batch) => {
          const { writes } = builderOutput(adversarialStems(seed, n, "one", 1 / 3), g, batch);
          const bits = (p: Uint8Array) => {
            if (p.length === 0) return "";
            let s = "";
            for (let i = 0; i < p.at(-1)!; i++) s += (p[i >> 3]! >> (7 - (i & 7))) & 1;
            return s;
          };
          const paths = writes.map((w) => bits(w.path));
          for (let i = 0; i < paths.length; i++) {
            for (let j = i + 1; j < paths.length; j++) {
              if (paths[j]!.startsWith(paths[i]!)) return false;
            }
          }
          return new Set(paths).size === paths.length;
        },
      ),
      { numRuns: 100 },
    );
  });
});

describe("input errors name the offending input", () => {
  it("stems out of order or repeated", () => {
    const { builder } = collect();
    builder.addStem(stemOf(5), [V(1)]);
    let e = thrown(() => builder.addStem(stemOf(4), [V(1)]));
    expect(e.code).toBe("STEM_OUT_OF_ORDER");
    expect(e.message).toContain(hex(stemOf(4)));
    expect(e.message).toContain(hex(stemOf(5)));
    e = thrown(() => builder.addStem(stemOf(5), []));
    expect(e.code).toBe("DUPLICATE_STEM");
    expect(e.message).toContain(hex(stemOf(5)));
    // A key of a stem given earlier as a whole stem is a duplicate stem too.
    e = thrown(() => builder.addEntry(keyOf(stemOf(5), 9), V(1)));
    expect(e.code).toBe("DUPLICATE_STEM");
    e = thrown(() => builder.addEntry(keyOf(stemOf(3), 9), V(1)));
    expect(e.code).toBe("STEM_OUT_OF_ORDER");
  });

  it("keys out of order or repeated", () => {
    const { builder } = collect();
    builder.addEntry(keyOf(stemOf(5), 10), V(1));
    let e = thrown(() => builder.addEntry(keyOf(stemOf(5), 10), V(2)));
    expect(e.code).toBe("DUPLICATE_KEY");
    expect(e.message).toContain(hex(keyOf(stemOf(5), 10)));
    e = thrown(() => builder.addEntry(keyOf(stemOf(5), 9), V(2)));
    expect(e.code).toBe("KEY_OUT_OF_ORDER");
    expect(e.message).toContain(hex(keyOf(stemOf(5), 9)));
    expect(e.message).toContain(hex(keyOf(stemOf(5), 10)));
    e = thrown(() => builder.addEntry(keyOf(stemOf(4), 200), V(2)));
    expect(e.code).toBe("KEY_OUT_OF_ORDER");
    // The open entry stem cannot be given again as a whole stem.
    e = thrown(() => builder.addStem(stemOf(5), [V(3)]));
    expect(e.code).toBe("DUPLICATE_STEM");
    e = thrown(() => builder.addStem(stemOf(4), [V(3)]));
    expect(e.code).toBe("STEM_OUT_OF_ORDER");
  });

  it("rejected input leaves the builder usable and the tree unchanged", () => {
    const stems = randomStems(12, 50, "few");
    const { builder, writes } = collect({ stemBatchSize: 4 });
    for (const [i, { stem, values }] of stems.entries()) {
      builder.addStem(stem, values);
      if (i > 0) expect(() => builder.addStem(stems[i - 1]!.stem, values)).toThrow(BuilderError);
    }
    const expected = referenceCommit(stems, 5);
    expect(hex(builder.finish())).toBe(hex(expected.root));
    expect(firstDifference(writes, expected.writes)).toBeUndefined();
  });

  it("bad lengths and shapes", () => {
    const { builder } = collect();
    expect(thrown(() => builder.addEntry(new Uint8Array(31), V(1))).code).toBe("INVALID_KEY");
    expect(thrown(() => builder.addEntry(keyOf(stemOf(1), 0), new Uint8Array(31))).code).toBe(
      "INVALID_VALUE",
    );
    expect(thrown(() => builder.addStem(new Uint8Array(32), [])).code).toBe("INVALID_STEM");
    expect(thrown(() => builder.addStem(stemOf(1), [new Uint8Array(33)])).code).toBe(
      "INVALID_VALUE",
    );
    expect(thrown(() => builder.addStem(stemOf(1), new Array(257).fill(V(1)))).code).toBe(
      "INVALID_VALUE",
    );
    expect(thrown(() => builder.addHashedStem(new Uint8Array(63), V(1))).code).toBe("INVALID_STEM");
    const blob = new Uint8Array(64);
    blob[0] = 1;
    blob[32] = 0x80; // one value announced, none present
    expect(thrown(() => builder.addHashedStem(blob, V(1))).code).toBe("INVALID_STEM");
    blob[32] = 0;
    expect(thrown(() => builder.addHashedStem(blob, new Uint8Array(31))).code).toBe(
      "INVALID_VALUE",
    );
    expect(thrown(() => new StemBlobHasher().hash([blob, new Uint8Array(96)])).code).toBe(
      "INVALID_STEM",
    );
    expect(
      thrown(() => new StemBlobHasher({ scheme: "blake3-be", hasher: getHasher("sha256") })).code,
    ).toBe("INVALID_OPTION");
  });

  it("bad options", () => {
    const onNode = () => {};
    for (const options of [
      { groupDepth: 9, onNode },
      { groupDepth: -1, onNode },
      { groupDepth: 2.5, onNode },
      { stemBatchSize: 0, onNode },
      { stemBatchSize: 70000, onNode },
      { scheme: "sha256-be" as const, hasher: getHasher("blake3"), onNode },
    ]) {
      expect(thrown(() => new StreamingBuilder(options)).code).toBe("INVALID_OPTION");
    }
    expect(thrown(() => new StreamingBuilder({} as unknown as { onNode: () => void })).code).toBe(
      "INVALID_OPTION",
    );
  });

  it("a finished builder refuses more input", () => {
    const { builder } = collect();
    builder.addStem(stemOf(1), [V(1)]);
    builder.finish();
    expect(thrown(() => builder.addStem(stemOf(2), [])).code).toBe("BUILDER_FINISHED");
    expect(thrown(() => builder.finish()).code).toBe("BUILDER_FINISHED");
  });

  it("a failing receiver stops the builder (the error keeps the cause)", () => {
    const failure = new Error("disk full");
    const builder = new StreamingBuilder({
      stemBatchSize: 1,
      onNode: () => {
        throw failure;
      },
    });
    builder.addStem(stemOf(1), [V(1)]);
    expect(() => builder.addStem(stemOf(2), [V(1)])).toThrow(failure);
    const e = thrown(() => builder.addStem(stemOf(3), [V(1)]));
    expect(e.code).toBe("BUILDER_FINISHED");
    expect(e.cause).toBe(failure);
  });
});

describe("buildTree: any (async) iterable in, batches of records out", () => {
  const stems = adversarialStems(13, 500, "few", 1 / 4);
  const expected = referenceCommit(stems, 5);

  it("sync source, sync sink: one sink call per stem batch", async () => {
    const writes: NodeWrite[] = [];
    let calls = 0;
    const result = await buildTree(
      stems,
      {
        write(nodes) {
          calls++;
          writes.push(...nodes);
        },
      },
      { stemBatchSize: 64 },
    );
    expect(hex(result.root)).toBe(hex(expected.root));
    expect(firstDifference(writes, expected.writes)).toBeUndefined();
    expect(result).toMatchObject({ groupDepth: 5, stems: 500, nodes: writes.length });
    expect(calls).toBe(Math.ceil(500 / 64));
  });

  it("async entry source, async sink with backpressure", async () => {
    async function* source(): AsyncGenerator<BuildInput> {
      for (const e of entriesOf(stems)) {
        await Promise.resolve();
        yield e;
      }
    }
    const writes: NodeWrite[] = [];
    let inFlight = 0;
    const result = await buildTree(source(), {
      async write(nodes) {
        expect(inFlight).toBe(0);
        inFlight++;
        await new Promise((r) => setTimeout(r, 1));
        writes.push(...nodes);
        inFlight--;
      },
    });
    expect(hex(result.root)).toBe(hex(expected.root));
    expect(firstDifference(writes, expected.writes)).toBeUndefined();
  });

  it("rejects what is not input", async () => {
    const sink = { write() {} };
    await expect(buildTree(42 as never, sink)).rejects.toMatchObject({ code: "INVALID_INPUT" });
    await expect(buildTree([{ nope: 1 } as never], sink)).rejects.toMatchObject({
      code: "INVALID_INPUT",
    });
    await expect(buildTree([null as never], sink)).rejects.toMatchObject({
      code: "INVALID_INPUT",
    });
  });

  it("out-of-order input is a BuilderError, never a wrong tree", async () => {
    const rand = prng(3);
    const shuffled = [...stems].sort(() => (rand(1)[0]! & 1 ? 1 : -1));
    expect(shuffled.some((s, i) => i > 0 && compareStems(shuffled[i - 1]!.stem, s.stem) > 0)).toBe(
      true,
    );
    await expect(buildTree(shuffled, { write() {} })).rejects.toBeInstanceOf(BuilderError);
  });
});
