import { encodePathKey, NODE_KEY_PREFIX } from "@bintrie/codec";
import { describe, expect, it } from "vitest";
import { BuilderError, buildTreeIntoStore } from "../src/builder/index.js";
import {
  BinaryTree,
  BintrieError,
  EMPTY_CODE_HASH,
  EMPTY_MPT_ROOT,
  getHasher,
  isEmptyRoot,
  MemoryStore,
  openTree,
  StoreError,
  TreeError,
} from "../src/index.js";
import { validateBatchOperations } from "../src/store/index.js";

// Ill-typed arguments of the tree's public methods: a typed error naming the argument, never a
// raw TypeError or RangeError, and never a silent wrong result (found by a review of the API).

const key = (b: number) => new Uint8Array(32).fill(b);
const ADDRESS = "0x00000000000000000000000000000000000000aa";

async function caught(fn: () => unknown): Promise<BintrieError> {
  try {
    await fn();
  } catch (error) {
    expect(error).toBeInstanceOf(BintrieError);
    return error as BintrieError;
  }
  throw new Error("expected a throw");
}

async function committedStore(): Promise<{ store: MemoryStore; root: Uint8Array }> {
  const store = new MemoryStore();
  const tree = new BinaryTree({ store });
  tree.put(key(1), key(2));
  tree.put(key(3), key(4));
  const root = await tree.persist();
  return { store, root };
}

describe("openTree", () => {
  it.each([
    ["31 zero bytes", new Uint8Array(31)],
    ["no bytes", new Uint8Array(0)],
    ["a number", 5],
    ["an object", {}],
    ["33 bytes", new Uint8Array(33)],
  ])("refuses a root of %s instead of opening an empty tree", async (_, root) => {
    const { store } = await committedStore();
    const error = await caught(() => openTree(store, { root: root as Uint8Array }));
    expect(error).toBeInstanceOf(TreeError);
    expect(error.code).toBe("INVALID_OPTION");
    expect(error.message).toContain("root must be 32 bytes");
  });

  it("still opens the empty tree at 32 zero bytes and at the MPT empty root", async () => {
    const { store } = await committedStore();
    for (const root of [new Uint8Array(32), EMPTY_MPT_ROOT]) {
      expect((await openTree(store, { root })).hash()).toEqual(new Uint8Array(32));
    }
  });

  it.each([null, undefined, 5, {}, { get: () => undefined }])("refuses store %s", async (store) => {
    const error = await caught(() => openTree(store as unknown as MemoryStore));
    expect(error).toBeInstanceOf(TreeError);
    expect(error.code).toBe("INVALID_OPTION");
    expect(error.message).toMatch(/^openTree: store must be a KVStore/);
  });
});

describe("isEmptyRoot", () => {
  it("is true only for a 32-byte empty root", () => {
    expect(isEmptyRoot(new Uint8Array(32))).toBe(true);
    expect(isEmptyRoot(EMPTY_MPT_ROOT)).toBe(true);
    expect(isEmptyRoot(new Uint8Array(5))).toBe(false);
    expect(isEmptyRoot(new Uint8Array(0))).toBe(false);
    expect(isEmptyRoot(7 as unknown as Uint8Array)).toBe(false);
    expect(isEmptyRoot(null as unknown as Uint8Array)).toBe(false);
  });
});

describe("getCode", () => {
  it("reports the missing chunk of a code size past 2^31 bytes, without allocating it", async () => {
    const tree = new BinaryTree();
    const codeSize = 31 * 2 ** 26;
    tree.putAccount(ADDRESS, { nonce: 0n, balance: 0n, codeSize, codeHash: EMPTY_CODE_HASH });
    const error = await caught(() => tree.getCode(ADDRESS));
    expect(error).toBeInstanceOf(TreeError);
    expect(error.code).toBe("CORRUPT_NODE");
    expect(error.message).toContain(`code chunk 0 of ${2 ** 26} is missing`);
  });
});

describe("the hasher option", () => {
  it.each([
    ["a name alone", { name: "sha256" }],
    ["an unknown name", { ...getHasher("sha256"), name: "md5" }],
    ["no hash32Batch", { ...getHasher("sha256"), hash32Batch: undefined }],
  ])("refuses %s", async (_, hasher) => {
    const error = await caught(() => new BinaryTree({ hasher: hasher as never }));
    expect(error.code).toBe("INVALID_OPTION");
    expect(error.message).toContain("hasher must be a Hasher");
  });
});

describe("putStem", () => {
  it.each([5, null, "ab", {}])("refuses values %s", async (values) => {
    const tree = new BinaryTree();
    const error = await caught(() => tree.putStem(new Uint8Array(31), values as never));
    expect(error).toBeInstanceOf(TreeError);
    expect(error.code).toBe("INVALID_VALUE");
    expect(error.message).toMatch(/^putStem: values must be an array/);
    expect(tree.hash()).toEqual(new Uint8Array(32));
  });
});

describe("persist options", () => {
  it.each(["abc", 5, [1, 2]])("refuses extra %s", async (extra) => {
    const tree = new BinaryTree({ store: new MemoryStore() });
    tree.put(key(1), key(2));
    const error = await caught(() => tree.persist({ extra: extra as never }));
    expect(error.code).toBe("INVALID_OPTION");
    expect(error.message).toMatch(/^persist: extra must be a Uint8Array/);
  });

  it("numbers a bad operation as the caller's list does", async () => {
    const tree = new BinaryTree({ store: new MemoryStore() });
    tree.put(key(1), key(2));
    const good = { type: "put", key: Uint8Array.of(1), value: Uint8Array.of(2) } as const;
    const bad = { type: "put", key: "x", value: Uint8Array.of(1) };
    for (const [operations, index] of [
      [[bad], 0],
      [[good, bad], 1],
    ] as const) {
      const error = await caught(() => tree.persist({ operations: operations as never }));
      expect(error).toBeInstanceOf(StoreError);
      expect(error.code).toBe("INVALID_ARGUMENT");
      expect(error.message).toMatch(
        new RegExp(`^persist: operations: operation ${index} key must be a Uint8Array`),
      );
    }
    for (const operations of [5, [null]]) {
      const error = await caught(() => tree.persist({ operations: operations as never }));
      expect(error.code).toBe("INVALID_ARGUMENT");
      expect(error.message).toMatch(/^persist: operations: /);
    }
    // Nothing was written: the tree is still dirty, and a valid persist then works.
    expect(await tree.persist({ operations: [good] })).toEqual(tree.hash());
  });
});

describe("validateBatchOperations", () => {
  it("refuses a null operation with its index", async () => {
    const error = await caught(() => validateBatchOperations([null as never]));
    expect(error.code).toBe("INVALID_ARGUMENT");
    expect(error.message).toBe("batch: operation 0 must be { type, key, value? }, got null");
  });
});

describe("list arguments", () => {
  it.each([
    ["getMany", (t: BinaryTree) => t.getMany(null as never)],
    ["deleteMany", (t: BinaryTree) => t.deleteMany(5 as never)],
    ["putMany", (t: BinaryTree) => t.putMany(null as never)],
    ["putMany", (t: BinaryTree) => t.putMany([null] as never)],
    ["load", (t: BinaryTree) => t.load(null as never)],
  ])("%s refuses a bad list with a TreeError", async (operation, call) => {
    const tree = new BinaryTree({ store: new MemoryStore() });
    const error = await caught(() => call(tree));
    expect(error).toBeInstanceOf(TreeError);
    expect(error.code).toBe("INVALID_KEY");
    expect(error.message.startsWith(`${operation}: `)).toBe(true);
  });
});

describe("nodeSetOperations", () => {
  it.each([
    ["null", null],
    ["a set without a root", { groupDepth: 8, writes: [], deletes: [] }],
    ["a set with a bad write", { root: key(0), groupDepth: 8, writes: [null], deletes: [] }],
    ["a set with a bad delete", { root: key(0), groupDepth: 8, writes: [], deletes: ["x"] }],
  ])("refuses %s", async (_, set) => {
    const tree = new BinaryTree();
    const error = await caught(() => tree.nodeSetOperations(set as never));
    expect(error.code).toBe("INVALID_OPTION");
    expect(error.message).toMatch(/^nodeSetOperations: expected /);
  });

  it("refuses a non-byte extra, and takes a commit's set as before", async () => {
    const tree = new BinaryTree();
    tree.put(key(1), key(2));
    const set = tree.commit();
    const error = await caught(() => tree.nodeSetOperations(set, { extra: "ab" as never }));
    expect(error.code).toBe("INVALID_OPTION");
    expect(tree.nodeSetOperations(set).length).toBe(set.writes.length + set.deletes.length + 1);
  });
});

describe("a root record key that is a node's store key", () => {
  // NODE_KEY_PREFIX ‖ the root's (empty) path key, and ‖ the path key of depth 1, bit 1.
  const rootNodeKey = NODE_KEY_PREFIX.slice();
  const depthOneKey = Uint8Array.of(...NODE_KEY_PREFIX, ...encodePathKey(Uint8Array.of(0x80), 1));

  it.each([
    ["the root node's", rootNodeKey],
    ["a depth-1 node's", depthOneKey],
  ])("is refused where it is %s key", async (_, rootRecordKey) => {
    for (const make of [
      () => new BinaryTree({ rootRecordKey }),
      () => openTree(new MemoryStore(), { rootRecordKey }),
    ]) {
      const error = await caught(make);
      expect(error).toBeInstanceOf(TreeError);
      expect(error.code).toBe("INVALID_OPTION");
      expect(error.message).toContain("is the store key of a node under keyPrefix 0x7641");
    }
    const error = await caught(() =>
      buildTreeIntoStore(new MemoryStore(), [{ key: key(1), value: key(2) }], { rootRecordKey }),
    );
    expect(error).toBeInstanceOf(BuilderError);
    expect(error.code).toBe("INVALID_OPTION");
  });

  it("is accepted where it only shares the prefix, and with another prefix", async () => {
    const store = new MemoryStore();
    const rootRecordKey = Uint8Array.of(...NODE_KEY_PREFIX, 0xff);
    const tree = new BinaryTree({ store, rootRecordKey });
    tree.put(key(1), key(2));
    const root = await tree.persist();
    expect((await openTree(store, { rootRecordKey })).hash()).toEqual(root);
    expect(
      () => new BinaryTree({ keyPrefix: Uint8Array.of(1), rootRecordKey: rootNodeKey }),
    ).not.toThrow();
  });
});
