import { NODE_KEY_PREFIX } from "@bintrie/codec";
import { describe, expect, it } from "vitest";
import { BinaryTree, bytesToHex, type KVStore, MemoryStore, openTree } from "../src/index.js";

// A store keeps no blob the tree has left behind, even when a batch rejected after it landed,
// or when a commit() ran while a persist was in flight (cases found by a review of the stores).

const value = new Uint8Array(32).fill(7);
const keyAt = (first: number, last = 0) => {
  const k = new Uint8Array(32);
  k[0] = first;
  k[31] = last;
  return k;
};

/** The store's node keys (under the default prefix), sorted, in hex. */
async function nodeKeys(store: MemoryStore): Promise<string[]> {
  const keys: string[] = [];
  for await (const [key] of store.entries()) {
    if (key.length >= 2 && key[0] === NODE_KEY_PREFIX[0] && key[1] === NODE_KEY_PREFIX[1]) {
      keys.push(bytesToHex(key));
    }
  }
  return keys.sort();
}

/** The node keys a fresh tree of these keys stores. */
async function freshNodeKeys(keys: Uint8Array[]): Promise<string[]> {
  const store = new MemoryStore();
  const tree = new BinaryTree({ store });
  for (const k of keys) tree.put(k, value);
  await tree.persist();
  return nodeKeys(store);
}

/**
 * A store whose batches land, and then report a failure while `lose` is set; each batch takes
 * `delay` ms first.
 */
function ackLosingStore(store: MemoryStore, delay = 0): KVStore & { lose: boolean } {
  const wrapper = {
    lose: false,
    close: async () => {},
    get: (k: Uint8Array) => store.get(k),
    getMany: (k: readonly Uint8Array[]) => store.getMany(k),
    batch: async (ops: Parameters<MemoryStore["batch"]>[0]) => {
      if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
      await store.batch(ops);
      if (wrapper.lose) {
        wrapper.lose = false;
        throw new Error("the batch landed, its acknowledgement was lost");
      }
    },
  };
  return wrapper;
}

describe("orphans of batches that may have landed", () => {
  it("a rejected batch that landed: a later split deletes the path it stored", async () => {
    const store = new MemoryStore();
    const flaky = ackLosingStore(store);
    const tree = new BinaryTree({ store: flaky });
    tree.put(keyAt(0x00), value);
    await tree.persist();
    // The stem moves down to path "0"; the batch lands, then rejects.
    tree.put(keyAt(0x80), value);
    flaky.lose = true;
    await expect(tree.persist()).rejects.toThrow("acknowledgement was lost");
    // It splits deeper; the next persist succeeds.
    tree.put(keyAt(0x01), value);
    const root = await tree.persist();
    const keys = [keyAt(0x00), keyAt(0x80), keyAt(0x01)];
    expect(await nodeKeys(store)).toEqual(await freshNodeKeys(keys));
    expect((await openTree(store)).hash()).toEqual(root);
  });

  it("a rejected batch with writes while it was in flight: the same", async () => {
    const store = new MemoryStore();
    const flaky = ackLosingStore(store, 10);
    const tree = new BinaryTree({ store: flaky });
    tree.put(keyAt(0x00), value);
    await tree.persist();
    tree.put(keyAt(0x80), value);
    flaky.lose = true;
    const pending = tree.persist();
    await new Promise((resolve) => setTimeout(resolve, 1));
    tree.put(keyAt(0x01), value); // a split while the batch is in flight
    await expect(pending).rejects.toThrow("acknowledgement was lost");
    tree.put(keyAt(0x40), value);
    await tree.persist();
    const keys = [keyAt(0x00), keyAt(0x80), keyAt(0x01), keyAt(0x40)];
    expect(await nodeKeys(store)).toEqual(await freshNodeKeys(keys));
  });

  it("a commit() while a persist is in flight: the path the persist stored is deleted later", async () => {
    const store = new MemoryStore();
    const slow: KVStore = {
      close: async () => {},
      get: (k) => store.get(k),
      getMany: (k) => store.getMany(k),
      batch: async (ops) => {
        await new Promise((resolve) => setTimeout(resolve, 10));
        await store.batch(ops);
      },
    };
    const tree = new BinaryTree({ store: slow });
    tree.put(keyAt(0x00), value);
    await tree.persist();
    tree.put(keyAt(0x80), value);
    const pending = tree.persist(); // stores the first stem at path "0"
    await new Promise((resolve) => setTimeout(resolve, 1));
    tree.put(keyAt(0x01), value); // which moves on at once
    const set = tree.commit();
    await pending;
    await store.batch(tree.nodeSetOperations(set));
    // The next persist deletes the blob the in-flight one left at "0".
    tree.put(keyAt(0xc0), value);
    const root = await tree.persist();
    const keys = [keyAt(0x00), keyAt(0x80), keyAt(0x01), keyAt(0xc0)];
    expect(await nodeKeys(store)).toEqual(await freshNodeKeys(keys));
    expect((await openTree(store)).hash()).toEqual(root);
  });

  it("never deletes a live node: random splits around rejected and in-flight batches", async () => {
    for (let seed = 1; seed <= 40; seed++) {
      let s = seed;
      const random = () => {
        s = (Math.imul(s, 1103515245) + 12345) >>> 0;
        return s / 2 ** 32;
      };
      const store = new MemoryStore();
      const flaky = ackLosingStore(store, 2);
      const tree = new BinaryTree({ store: flaky, groupDepth: seed % 4 });
      const written: Uint8Array[] = [];
      for (let step = 0; step < 12; step++) {
        for (let i = 0; i < 3; i++) {
          const k = keyAt(Math.floor(random() * 256), Math.floor(random() * 4));
          tree.put(k, value);
          written.push(k);
        }
        flaky.lose = random() < 0.4;
        const pending = tree.persist().catch(() => undefined);
        await new Promise((resolve) => setTimeout(resolve, 1));
        if (random() < 0.5) {
          const k = keyAt(Math.floor(random() * 256));
          tree.put(k, value);
          written.push(k);
        }
        await pending;
      }
      flaky.lose = false;
      const root = await tree.persist();
      expect(await nodeKeys(store)).toEqual(await freshNodeKeysAt(written, seed % 4));
      expect((await openTree(store)).hash()).toEqual(root);
    }
  });
});

async function freshNodeKeysAt(keys: Uint8Array[], groupDepth: number): Promise<string[]> {
  const store = new MemoryStore();
  const tree = new BinaryTree({ store, groupDepth });
  for (const k of keys) tree.put(k, value);
  await tree.persist();
  return nodeKeys(store);
}

describe("persist operations", () => {
  it("writes the operations as they were at call time", async () => {
    const store = new MemoryStore();
    const tree = new BinaryTree({ store });
    tree.put(keyAt(1), value);
    const bytes = Uint8Array.of(0xaa, 0xbb);
    const op = { type: "put" as const, key: Uint8Array.of(1), value: bytes };
    const pending = tree.persist({ operations: [op] });
    bytes.fill(0);
    op.key = Uint8Array.of(9);
    await pending;
    expect(await store.get(Uint8Array.of(1))).toEqual(Uint8Array.of(0xaa, 0xbb));
    expect(await store.get(Uint8Array.of(9))).toBeUndefined();
  });
});
