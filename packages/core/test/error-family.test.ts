import * as codec from "@bintrie/codec";
import { describe, expect, it } from "vitest";
import { BuilderError } from "../src/builder/index.js";
import { GenesisError } from "../src/genesis/genesis-alloc.js";
import {
  BinaryTree,
  BintrieError,
  HashError,
  KeyDerivationError,
  MemoryStore,
  openTree,
  ROOT_RECORD_KEY,
  StoreError,
  TreeError,
} from "../src/index.js";
import { ProofError } from "../src/proof/index.js";

/** Runs `fn` (sync or async) and returns what it threw or rejected with. */
async function caught(fn: () => unknown): Promise<unknown> {
  try {
    await fn();
  } catch (error) {
    return error;
  }
  throw new Error("expected a throw");
}

/** Asserts the error is of the family, with the subclass, name and code expected. */
function expectFamily(
  error: unknown,
  subclass: abstract new (...args: never[]) => Error,
  code: string,
) {
  expect(error).toBeInstanceOf(BintrieError);
  expect(error).toBeInstanceOf(subclass);
  const typed = error as BintrieError;
  expect(typed.code).toBe(code);
  expect(typed.name).toBe(subclass.name);
  expect(typed.message.length).toBeGreaterThan(0);
}

describe("one error family", () => {
  it("core re-exports codec's BintrieError (one class, not a copy)", () => {
    expect(BintrieError).toBe(codec.BintrieError);
    expect(new codec.CodecError("INVALID_LENGTH", "x")).toBeInstanceOf(BintrieError);
  });

  it("every domain class extends it and keeps its own name", () => {
    for (const Domain of [
      codec.CodecError,
      TreeError,
      StoreError,
      ProofError,
      BuilderError,
      HashError,
      KeyDerivationError,
      GenesisError,
    ]) {
      const error = new (Domain as new (code: string, message: string) => BintrieError)("X", "m");
      expect(error).toBeInstanceOf(BintrieError);
      expect(error).toBeInstanceOf(Error);
      expect(error.name).toBe(Domain.name);
      expect(error.code).toBe("X");
    }
  });

  it("keeps a cause", () => {
    const cause = new Error("disk");
    expect(new StoreError("STORE_IO", "m", { cause }).cause).toBe(cause);
  });

  it("a codec decoder given garbage", async () => {
    expectFamily(
      await caught(() => codec.decodeNode(Uint8Array.of(9))),
      codec.CodecError,
      "INVALID_NODE_TYPE",
    );
  });

  it("BinaryTree.put with a short key", async () => {
    const tree = new BinaryTree();
    const error = await caught(() => tree.put(new Uint8Array(31), new Uint8Array(32)));
    expectFamily(error, TreeError, "INVALID_KEY");
  });

  it("new BinaryTree({ groupDepth: 9 })", async () => {
    expectFamily(
      await caught(() => new BinaryTree({ groupDepth: 9 })),
      TreeError,
      "INVALID_OPTION",
    );
  });

  it("commit({ groupDepth: 3 }) on a depth-5 tree", async () => {
    const tree = new BinaryTree({ groupDepth: 5 });
    tree.put(new Uint8Array(32), new Uint8Array(32).fill(1));
    const error = await caught(() => tree.commit({ groupDepth: 3 }));
    expectFamily(error, TreeError, "INVALID_OPTION");
    expect((error as Error).message).toContain("groupDepth 3");
    // The tree's own depth still commits.
    expect(tree.commit({ groupDepth: 5 }).groupDepth).toBe(5);
  });

  it("openTree on a store whose root record is garbage", async () => {
    const store = new MemoryStore();
    await store.batch([{ type: "put", key: ROOT_RECORD_KEY, value: Uint8Array.of(1, 2, 3) }]);
    expectFamily(await caught(() => openTree(store)), StoreError, "INVALID_ROOT_RECORD");
  });

  it("MemoryStore.batch with a key that is not bytes", async () => {
    const store = new MemoryStore();
    const error = await caught(() =>
      store.batch([{ type: "put", key: "k" as unknown as Uint8Array, value: new Uint8Array(1) }]),
    );
    expectFamily(error, StoreError, "INVALID_ARGUMENT");
    expect((error as Error).message).toContain("operation 0 key");
  });

  it("MemoryStore.batch with an unknown operation type", async () => {
    const store = new MemoryStore();
    const op = { type: "merge", key: new Uint8Array(1) } as never;
    const error = await caught(() => store.batch([op]));
    expectFamily(error, StoreError, "INVALID_ARGUMENT");
  });
});
