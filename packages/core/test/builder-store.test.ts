import { NODE_KEY_PREFIX } from "@bintrie/codec";
import { describe, expect, it } from "vitest";
import { BuilderError, buildTreeIntoStore, type StemEntry } from "../src/builder/index.js";
import { BinaryTree, MemoryStore, openTree, ROOT_RECORD_KEY } from "../src/index.js";
import { decodeRootRecord } from "../src/store/index.js";
import { adversarialStems, randomStems } from "./helpers/builder-fixtures.js";
import { RecordingStore } from "./helpers/recording-store.js";
import { bytes, hex } from "./helpers/shared.js";
import { freshNodes, prng, storedNodes } from "./helpers/tree-fixtures.js";

const GROUP_DEPTHS = [0, 1, 2, 3, 4, 5, 6, 7, 8];

/** key hex → value of every present value of the stems. */
function contentOf(stems: readonly StemEntry[]): Map<string, Uint8Array> {
  const content = new Map<string, Uint8Array>();
  for (const { stem, values } of stems) {
    values.forEach((v, sub) => {
      if (!v) return;
      const key = new Uint8Array(32);
      key.set(stem);
      key[31] = sub;
      content.set(hex(key), v);
    });
  }
  return content;
}

const isNodeKey = (key: Uint8Array, prefix = NODE_KEY_PREFIX) =>
  key.length >= prefix.length && prefix.every((b, i) => key[i] === b);

describe("buildTreeIntoStore: the store opens like any committed tree", () => {
  for (const g of GROUP_DEPTHS) {
    it(`g=${g}: openTree reads every value; updates + persist == a fresh full commit`, async () => {
      const stems = adversarialStems(500 + g, 250, "few", 1 / 8);
      const content = contentOf(stems);
      const store = new MemoryStore();
      const result = await buildTreeIntoStore(store, stems, {
        groupDepth: g,
        maxBatchBytes: 4096,
      });
      expect(result.batches).toBeGreaterThan(3);
      // The store holds exactly the node set of a fresh commit of the same content.
      expect(await storedNodes(store)).toEqual(freshNodes(content, bytes, g));

      const tree = await openTree(store);
      expect(tree.groupDepth).toBe(g);
      expect(hex(tree.hash())).toBe(hex(result.root));
      const keys = [...content.keys()];
      const values = await tree.getMany(keys.map(bytes));
      expect(values.map((v) => (v === undefined ? "absent" : hex(v)))).toEqual(
        [...content.values()].map(hex),
      );

      // Further updates (new stems that split built ones, rewrites of built values) + commit.
      const rand = prng(g + 1);
      const more = adversarialStems(900 + g, 80, "one", 1 / 4);
      const changes = [
        ...[...contentOf(more)].map(([k, v]) => ({ key: bytes(k), value: v })),
        ...keys.filter((_, i) => i % 7 === 0).map((k) => ({ key: bytes(k), value: rand(32) })),
      ];
      await tree.putMany(changes);
      for (const { key, value } of changes) content.set(hex(key), value);
      const root = await tree.persist();
      const fresh = new BinaryTree({ groupDepth: g });
      for (const [k, v] of content) fresh.put(bytes(k), v);
      expect(hex(root)).toBe(hex(fresh.hash()));
      expect(await storedNodes(store)).toEqual(freshNodes(content, bytes, g));
    });
  }

  it("bounded batches; the root node and the root record land together in the last one", async () => {
    const stems = randomStems(3, 2000, "one");
    const store = new RecordingStore();
    const maxBatchBytes = 8192;
    const result = await buildTreeIntoStore(store, stems, { maxBatchBytes, stemBatchSize: 100 });
    expect(store.batches.length).toBe(result.batches);
    expect(result.batches).toBeGreaterThan(20);
    const rootNodeKey = hex(NODE_KEY_PREFIX);
    for (const [i, batch] of store.batches.entries()) {
      const size = batch.reduce(
        (n, op) => n + op.key.length + (op.type === "put" ? op.value.length : 0),
        0,
      );
      const keys = batch.map((op) => hex(op.key));
      const last = i === store.batches.length - 1;
      expect(keys.includes(hex(ROOT_RECORD_KEY))).toBe(last);
      expect(keys.includes(rootNodeKey)).toBe(last);
      if (!last) expect(size).toBeLessThanOrEqual(maxBatchBytes);
    }
    const lastBatch = store.batches.at(-1)!;
    const record = lastBatch.find((op) => hex(op.key) === hex(ROOT_RECORD_KEY))!;
    expect(record.type === "put" && decodeRootRecord(record.value)).toMatchObject({
      groupDepth: 5,
      scheme: "sha256-be",
      root: result.root,
    });
    expect(result.nodes).toBe(store.batches.flat().filter((op) => isNodeKey(op.key)).length);
  });

  it("empty input writes just the root record of the empty tree", async () => {
    const store = new MemoryStore();
    const result = await buildTreeIntoStore(store, []);
    expect(result).toMatchObject({ stems: 0, nodes: 0, batches: 1 });
    expect(store.size).toBe(1);
    const tree = await openTree(store);
    expect(hex(tree.hash())).toBe(hex(new Uint8Array(32)));
  });

  it("key scheme and custom key layout travel to the root record and openTree", async () => {
    const stems = randomStems(4, 100, "few");
    const store = new MemoryStore();
    const keyPrefix = Uint8Array.of(0x62, 0x31); // "b1"
    const rootRecordKey = Uint8Array.from("other:root", (c) => c.charCodeAt(0));
    const result = await buildTreeIntoStore(store, stems, {
      scheme: "blake3-be",
      groupDepth: 2,
      keyPrefix,
      rootRecordKey,
    });
    const tree = await openTree(store, { keyPrefix, rootRecordKey });
    expect(tree.scheme).toBe("blake3-be");
    expect(tree.groupDepth).toBe(2);
    expect(hex(tree.hash())).toBe(hex(result.root));
    const content = contentOf(stems);
    const values = await tree.getMany([...content.keys()].map(bytes));
    expect(values.map((v) => hex(v!))).toEqual([...content.values()].map(hex));
  });
});

describe("buildTreeIntoStore safety: never writes over a committed tree", () => {
  it("refuses a store holding a root record, before writing anything", async () => {
    const store = new MemoryStore();
    const tree = new BinaryTree({ store });
    tree.put(new Uint8Array(32), new Uint8Array(32).fill(1));
    await tree.persist();
    const before = await storedNodes(store);
    const sizeBefore = store.size;
    const error = await buildTreeIntoStore(store, randomStems(5, 50)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BuilderError);
    expect((error as BuilderError).code).toBe("STORE_NOT_EMPTY");
    expect((error as BuilderError).message).toContain(hex(ROOT_RECORD_KEY));
    expect(store.size).toBe(sizeBefore);
    expect(await storedNodes(store)).toEqual(before);
  });

  it("refuses a store holding a root node without a root record", async () => {
    const store = new MemoryStore();
    await store.batch([{ type: "put", key: NODE_KEY_PREFIX, value: Uint8Array.of(2, 1, 0) }]);
    await expect(buildTreeIntoStore(store, randomStems(5, 50))).rejects.toMatchObject({
      code: "STORE_NOT_EMPTY",
    });
  });

  it("builds next to a live tree under a fresh prefix and root record key", async () => {
    const store = new MemoryStore();
    const live = new BinaryTree({ store });
    live.put(new Uint8Array(32), new Uint8Array(32).fill(1));
    const liveRoot = await live.persist();
    const keyPrefix = Uint8Array.of(0x76, 0x42);
    const rootRecordKey = Uint8Array.from("staged:root", (c) => c.charCodeAt(0));
    const stems = randomStems(6, 200);
    const result = await buildTreeIntoStore(store, stems, { keyPrefix, rootRecordKey });
    expect(hex((await openTree(store)).hash())).toBe(hex(liveRoot));
    expect(hex((await openTree(store, { keyPrefix, rootRecordKey })).hash())).toBe(
      hex(result.root),
    );
  });

  it("an interrupted build leaves no committed tree; running it again gives the full tree", async () => {
    const stems = adversarialStems(7, 400, "few", 1 / 4);
    const content = contentOf(stems);
    const store = new RecordingStore();
    store.failAt = 3;
    await expect(buildTreeIntoStore(store, stems, { maxBatchBytes: 4096 })).rejects.toThrow(
      "simulated crash",
    );
    expect(store.batches).toHaveLength(3);
    // Nothing visible: no root record, no root node, so openTree sees an empty store …
    expect(await store.get(ROOT_RECORD_KEY)).toBeUndefined();
    expect(await store.get(NODE_KEY_PREFIX)).toBeUndefined();
    expect(hex((await openTree(store)).hash())).toBe(hex(new Uint8Array(32)));
    // … and the build may simply run again.
    store.failAt = -1;
    const result = await buildTreeIntoStore(store, stems, { maxBatchBytes: 4096 });
    expect(await storedNodes(store.inner)).toEqual(freshNodes(content, bytes, 5));
    expect(hex((await openTree(store)).hash())).toBe(hex(result.root));
  });

  it("rejects a bad batch bound", async () => {
    await expect(
      buildTreeIntoStore(new MemoryStore(), [], { maxBatchBytes: 0 }),
    ).rejects.toMatchObject({ code: "INVALID_OPTION" });
  });
});
