// The builders, parallelRoot and the provers refuse what they cannot use with a typed error naming
// it, before anything is written: records the order points past, a stem hash pool of another hash
// function, stores, options, sinks and trees of the wrong shape (a review found each of these
// building a wrong tree or failing with a raw TypeError). The workers load the built worker
// script: this test imports core's dist.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BuilderError, buildTree, buildTreeIntoStore } from "../dist/builder/index.js";
import { BinaryTree, MemoryStore, ROOT_RECORD_KEY, TreeError } from "../dist/index.js";
import {
  openPartitionWorkers,
  openStemHashWorkers,
  type PartitionWorkers,
  parallelRoot,
  type StemHashWorkers,
} from "../dist/node/index.js";
import { ProofError, prove, proveSync } from "../dist/proof/index.js";

let sha256Pool: StemHashWorkers;
let blake3Pool: StemHashWorkers;
let partitions: PartitionWorkers;
beforeAll(async () => {
  sha256Pool = await openStemHashWorkers({ workers: 1 });
  blake3Pool = await openStemHashWorkers({ workers: 1, scheme: "blake3-be" });
  partitions = await openPartitionWorkers({ workers: 1 });
});
afterAll(async () => {
  await Promise.all([sha256Pool.close(), blake3Pool.close(), partitions.close()]);
});

/** Two records: 0x11… → 0xaa…, 0x22… → 0xbb…. */
function twoRecords(): Uint8Array {
  const records = new Uint8Array(128);
  records.fill(0x11, 0, 32).fill(0xaa, 32, 64).fill(0x22, 64, 96).fill(0xbb, 96, 128);
  return records;
}

async function refused(
  run: () => unknown,
): Promise<{ name: string; code: string; message: string }> {
  const error = await Promise.resolve()
    .then(run)
    .then(
      () => undefined,
      (e: unknown) => e,
    );
  expect(error, "the call should have failed").toBeInstanceOf(Error);
  return error as { name: string; code: string; message: string };
}

describe("packed entries hashed by a stem hash pool", () => {
  for (const [name, source] of [
    ["an order index past the records", { records: twoRecords(), order: Uint32Array.of(7, 1) }],
    ["an index past them in the middle", { records: twoRecords(), order: Uint32Array.of(0, 5) }],
    [
      "records 10 bytes short",
      { records: twoRecords().subarray(0, 118), order: Uint32Array.of(0, 1) },
    ],
  ] as const) {
    it(`${name}: INVALID_INPUT, as without the pool, and no root record`, async () => {
      const store = new MemoryStore();
      const error = await refused(() =>
        buildTreeIntoStore(store, source, { stemHashPool: sha256Pool }),
      );
      expect(error).toBeInstanceOf(BuilderError);
      expect(error.code).toBe("INVALID_INPUT");
      expect(error.message).toMatch(/order\[\d\] = \d points past the \d records/);
      expect(await store.get(ROOT_RECORD_KEY)).toBeUndefined();
    });
  }

  it("a pool hashing with BLAKE3 under a SHA-256 build (and the reverse) is refused before writing", async () => {
    const source = { records: twoRecords(), order: Uint32Array.of(0, 1) };
    const store = new MemoryStore();
    const error = await refused(() =>
      buildTreeIntoStore(store, source, { stemHashPool: blake3Pool }),
    );
    expect(error.code).toBe("INVALID_OPTION");
    expect(error.message).toContain("stemHashPool hashes with blake3, this build with sha256");
    const reverse = await refused(() =>
      buildTreeIntoStore(store, source, { stemHashPool: sha256Pool, scheme: "blake3-be" }),
    );
    expect(reverse.code).toBe("INVALID_OPTION");
    expect(store.size).toBe(0);
    // The matching pool builds the tree a BinaryTree of the same entries has.
    const built = await buildTreeIntoStore(store, source, {
      stemHashPool: blake3Pool,
      scheme: "blake3-be",
    });
    const tree = new BinaryTree({ scheme: "blake3-be" });
    tree.put(twoRecords().subarray(0, 32), twoRecords().subarray(32, 64));
    tree.put(twoRecords().subarray(64, 96), twoRecords().subarray(96, 128));
    expect(built.root).toEqual(tree.hash());
  });
});

describe("arguments of the wrong shape are typed errors naming them", () => {
  const key = new Uint8Array(32).fill(1);
  const cases: [string, () => unknown, string, string, RegExp][] = [
    [
      "buildTreeIntoStore(null, [])",
      () => buildTreeIntoStore(null as never, []),
      "BuilderError",
      "INVALID_OPTION",
      /store must be a KVStore.*got null/,
    ],
    [
      "buildTreeIntoStore(store, [], null)",
      () => buildTreeIntoStore(new MemoryStore(), [], null as never),
      "BuilderError",
      "INVALID_OPTION",
      /options must be an object, got null/,
    ],
    [
      "a stem hash pool without hash()",
      () => buildTreeIntoStore(new MemoryStore(), [], { stemHashPool: {} as never }),
      "BuilderError",
      "INVALID_OPTION",
      /stemHashPool must be a StemHashPool/,
    ],
    [
      "a partition pool without build()",
      () => buildTreeIntoStore(new MemoryStore(), [], { partitionPool: 5 as never }),
      "BuilderError",
      "INVALID_OPTION",
      /partitionPool must be a PartitionPool.*got 5/,
    ],
    [
      "stemBatchSize 0 with a partition pool",
      () =>
        buildTreeIntoStore(
          new MemoryStore(),
          { records: twoRecords(), order: Uint32Array.of(0, 1) },
          { partitionPool: partitions, stemBatchSize: 0 },
        ),
      "BuilderError",
      "INVALID_OPTION",
      /stemBatchSize must be an integer 1\.\.65536, got 0/,
    ],
    [
      "buildTree([], null)",
      () => buildTree([], null as never),
      "BuilderError",
      "INVALID_OPTION",
      /sink must be a NodeSink.*got null/,
    ],
    [
      "buildTree([], {})",
      () => buildTree([], {} as never),
      "BuilderError",
      "INVALID_OPTION",
      /sink must be a NodeSink/,
    ],
    [
      "buildTree([], sink, null)",
      () => buildTree([], { write: () => {} }, null as never),
      "BuilderError",
      "INVALID_OPTION",
      /options must be an object, got null/,
    ],
    [
      "parallelRoot(keys, values, null)",
      () => parallelRoot(key, key, null as never),
      "TreeError",
      "INVALID_OPTION",
      /options must be an object, got null/,
    ],
    [
      "prove(null, [key])",
      () => prove(null as never, [key]),
      "ProofError",
      "INVALID_TREE",
      /prove: tree must be a BinaryTree, got null/,
    ],
    [
      "proveSync({}, [key])",
      () => proveSync({} as never, [key]),
      "ProofError",
      "INVALID_TREE",
      /proveSync: tree must be a BinaryTree/,
    ],
  ];
  for (const [name, run, errorName, code, message] of cases) {
    it(name, async () => {
      const error = await refused(run);
      expect(error.name).toBe(errorName);
      expect(error.code).toBe(code);
      expect(error.message).toMatch(message);
    });
  }

  it("the error classes are the ones exported", async () => {
    expect(await refused(() => prove(null as never, [key]))).toBeInstanceOf(ProofError);
    expect(await refused(() => parallelRoot(key, key, null as never))).toBeInstanceOf(TreeError);
  });
});
