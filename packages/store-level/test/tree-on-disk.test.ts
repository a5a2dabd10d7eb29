import { join } from "node:path";
import { decodeNode, decodePathKey, NODE_KEY_PREFIX } from "@bintrie/codec";
import { BinaryTree, openTree, TreeError } from "@bintrie/core";
import { hex } from "@bintrie/store-testkit";
import { random1000Checkpoints, sharedWorkload } from "@bintrie/store-testkit/node";
import { expectStoreError } from "@bintrie/store-testkit/vitest";
import { afterAll, describe, expect, it } from "vitest";
import { openLevelStore } from "../src/index.js";
import { tempDirs } from "./helpers/temp-dir.js";

const dirs = tempDirs("level-tree");
afterAll(() => dirs.removeAll());

const N = 1000;
const { keys, values } = sharedWorkload(N);
const expected = random1000Checkpoints().find((c) => c.inserted === N)!.expected_root;

/** The path text core's loader puts in its errors: the bits as 0/1 and their count. */
function describeStoredPath(nodeKey: Uint8Array): string {
  const { bits, length } = decodePathKey(nodeKey.subarray(NODE_KEY_PREFIX.length));
  let s = "";
  for (let d = 0; d < length; d++) s += (bits[d >>> 3]! >>> (7 - (d & 7))) & 1;
  return `${s} (${length} bits)`;
}

async function persistWorkload(location: string): Promise<Uint8Array> {
  const store = await openLevelStore(location);
  const tree = new BinaryTree({ store });
  for (let i = 0; i < N; i++) tree.put(keys[i]!, values[i]!);
  const root = await tree.persist();
  await store.close();
  return root;
}

/** A stem node below the root: its database key and blob. */
async function someStemNode(location: string): Promise<[Uint8Array, Uint8Array]> {
  const store = await openLevelStore(location);
  try {
    for await (const [key, blob] of store.entries({ gte: NODE_KEY_PREFIX })) {
      if (key.length > NODE_KEY_PREFIX.length + 2 && decodeNode(blob).kind === "stem") {
        return [key, blob];
      }
    }
  } finally {
    await store.close();
  }
  throw new Error("no stem node found");
}

describe("trees on disk", () => {
  it("reopens the shared 1,000-key workload from disk with the reference root and every value", async () => {
    const location = join(dirs.make(), "db");
    const root = await persistWorkload(location);
    expect(`0x${hex(root)}`).toBe(expected.sha256);

    const store = await openLevelStore(location);
    const tree = await openTree(store);
    expect(`0x${hex(tree.hash())}`).toBe(expected.sha256);
    const got = await tree.getMany(keys);
    expect(got.map((v) => hex(v!))).toEqual(values.map(hex));
    await store.close();
  });

  it("keeps two trees with different hash schemes in one database under two prefixes", async () => {
    const owner = await openLevelStore(join(dirs.make(), "db"));
    const schemes = [
      ["sha256-be", owner.withPrefix("geth/")],
      ["blake3-be", owner.withPrefix("eip/")],
    ] as const;
    for (const [scheme, store] of schemes) {
      const tree = new BinaryTree({ scheme, store });
      await tree.putMany(keys.map((key, i) => ({ key, value: values[i]! })));
      await tree.persist();
    }
    for (const [scheme, store] of schemes) {
      const tree = await openTree(store);
      expect(tree.scheme).toBe(scheme);
      expect(`0x${hex(tree.hash())}`).toBe(
        scheme === "sha256-be" ? expected.sha256 : expected.blake3,
      );
      expect((await tree.getMany(keys.slice(0, 50))).map((v) => hex(v!))).toEqual(
        values.slice(0, 50).map(hex),
      );
    }
    await owner.close();
  });

  it("refuses to open the stored tree with another group depth or scheme", async () => {
    const location = join(dirs.make(), "db");
    await persistWorkload(location);
    const store = await openLevelStore(location);
    await expectStoreError(openTree(store, { groupDepth: 4 }), "ROOT_RECORD_MISMATCH");
    await expectStoreError(openTree(store, { scheme: "blake3-be" }), "ROOT_RECORD_MISMATCH");
    await store.close();
  });

  it("detects a node blob altered in the database: HASH_MISMATCH naming its path", async () => {
    const location = join(dirs.make(), "db");
    await persistWorkload(location);
    const [nodeKey, blob] = await someStemNode(location);
    const altered = blob.slice();
    altered[altered.length - 1]! ^= 0x01; // a value byte: still decodes, hashes differently
    const store = await openLevelStore(location);
    await store.batch([{ type: "put", key: nodeKey, value: altered }]);
    const tree = await openTree(store);
    const error = await tree.getMany(keys).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TreeError);
    expect((error as TreeError).code).toBe("HASH_MISMATCH");
    expect((error as TreeError).message).toContain(`path ${describeStoredPath(nodeKey)}`);
    await store.close();
  });

  it("detects a node missing from the database: MISSING_NODE naming its path", async () => {
    const location = join(dirs.make(), "db");
    await persistWorkload(location);
    const [nodeKey] = await someStemNode(location);
    const store = await openLevelStore(location);
    await store.batch([{ type: "del", key: nodeKey }]);
    const tree = await openTree(store);
    const error = await tree.getMany(keys).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TreeError);
    expect((error as TreeError).code).toBe("MISSING_NODE");
    expect((error as TreeError).message).toContain(`path ${describeStoredPath(nodeKey)}`);
    await store.close();
  });
});
