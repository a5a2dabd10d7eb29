// Every function that takes an options object refuses a key it does not know, naming it: a
// misspelt option (`groupdepth` for `groupDepth`) used to be ignored, so the call quietly used the
// default (a tree of another group depth, zero storage skipped instead of written, …). The worker
// openers load the built worker script: this test imports core's dist.
import { describe, expect, it } from "vitest";
import {
  BuilderError,
  buildTree,
  buildTreeIntoStore,
  StemBlobHasher,
  StreamingBuilder,
  sortEntries,
} from "../dist/builder/index.js";
import {
  applyGenesisAlloc,
  BinaryTree,
  GenesisError,
  MemoryStore,
  openTree,
  TreeError,
} from "../dist/index.js";
import { openPartitionWorkers, openStemHashWorkers, parallelRoot } from "../dist/node/index.js";
import { ProofError, verifyProof } from "../dist/proof/index.js";

type AnyClass = abstract new (...args: never[]) => Error;

async function refused(call: () => unknown, ErrorClass: AnyClass, where: string, key: string) {
  let error: unknown;
  try {
    await call();
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(ErrorClass);
  expect((error as { code: string }).code).toBe("INVALID_OPTION");
  expect((error as Error).message).toMatch(
    new RegExp(`^${where}: unknown option '${key}' in options \\(known: `),
  );
}

const KEY = new Uint8Array(32).fill(1);
const VALUE = new Uint8Array(32).fill(2);
const bad = <T>(options: object) => options as T;

describe("an unknown option key is INVALID_OPTION naming the function and the key", () => {
  it("builders", async () => {
    await refused(
      () => new StreamingBuilder(bad({ onNode: () => {}, groupdepth: 3 })),
      BuilderError,
      "StreamingBuilder",
      "groupdepth",
    );
    await refused(
      () => buildTree([{ key: KEY, value: VALUE }], { write: () => {} }, bad({ groupdepth: 3 })),
      BuilderError,
      "buildTree",
      "groupdepth",
    );
    const store = new MemoryStore();
    await refused(
      () => buildTreeIntoStore(store, [{ key: KEY, value: VALUE }], bad({ maxBatchByte: 1 })),
      BuilderError,
      "buildTreeIntoStore",
      "maxBatchByte",
    );
    expect(store.size).toBe(0);
    await refused(
      () => new StemBlobHasher(bad({ schema: "blake3-le" })),
      BuilderError,
      "StemBlobHasher",
      "schema",
    );
    await refused(
      async () => {
        for await (const _ of sortEntries([], bad({ runStorage: {}, duplicate: "last" }))) break;
      },
      BuilderError,
      "sortEntries",
      "duplicate",
    );
  });

  it("worker pools and parallelRoot", async () => {
    await refused(
      () => openStemHashWorkers(bad({ worker: 1 })),
      BuilderError,
      "openStemHashWorkers",
      "worker",
    );
    await refused(
      () => openPartitionWorkers(bad({ worker: 1 })),
      BuilderError,
      "openPartitionWorkers",
      "worker",
    );
    await refused(
      () => parallelRoot(KEY, VALUE, bad({ thread: 1 })),
      TreeError,
      "parallelRoot",
      "thread",
    );
  });

  it("verifyProof and applyGenesisAlloc (and a zeroStorage that is neither 'skip' nor 'write')", async () => {
    await refused(
      () =>
        verifyProof(new Uint8Array(32), [KEY], new Uint8Array(0), bad({ hashFunction: "blake3" })),
      ProofError,
      "verifyProof",
      "hashFunction",
    );
    const tree = new BinaryTree();
    const alloc = { "0x00000000000000000000000000000000000000aa": { balance: "0x1" } };
    await refused(
      () => applyGenesisAlloc(tree, alloc, bad({ zeroStorag: "write" })),
      GenesisError,
      "applyGenesisAlloc",
      "zeroStorag",
    );
    expect(() => applyGenesisAlloc(tree, alloc, bad({ zeroStorage: "writes" }))).toThrow(
      /^applyGenesisAlloc: zeroStorage must be 'skip' or 'write', got "writes"$/,
    );
    expect(tree.hash()).toEqual(new Uint8Array(32));
  });

  it("the tree's own options, as before", async () => {
    await refused(
      () => new BinaryTree(bad({ groupdepth: 3 })),
      TreeError,
      "BinaryTree",
      "groupdepth",
    );
    await refused(
      () => openTree(new MemoryStore(), bad({ groupdepth: 3 })),
      TreeError,
      "openTree",
      "groupdepth",
    );
  });
});
