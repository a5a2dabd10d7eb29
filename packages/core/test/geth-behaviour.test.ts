import { describe, expect, it } from "vitest";
import { BinaryTree, EMPTY_CODE_HASH, MemoryStore, openTree } from "../src/index.js";
import { bytes, hex } from "./helpers/shared.js";
import { storedNodes } from "./helpers/tree-fixtures.js";

const M64 = (1n << 64n) - 1n;

function be64(x: bigint): Uint8Array {
  const b = new Uint8Array(8);
  new DataView(b.buffer).setBigUint64(0, x & M64);
  return b;
}

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

/** geth's key(i) of TestCommitSkipCleanSubtrees / TestRoundTripPersistence. */
function gethKey(i: number): Uint8Array {
  const n = BigInt(i + 1);
  return concat(
    be64(n * 0x9e3779b97f4a7c15n),
    be64(n * 0xc2b2ae3d27d4eb4fn),
    be64(n * 0x165667b19e3779f9n),
    be64(n * 0x85ebca77c2b2ae63n),
  );
}

describe("go-ethereum behavioural tests (spec §6.1 / §6.2)", () => {
  it("TestCommitSkipCleanSubtrees (g=1, 200 keys)", () => {
    const tree = new BinaryTree({ groupDepth: 1 });
    for (let i = 0; i < 200; i++)
      tree.put(gethKey(i), concat(new Uint8Array(24), be64(BigInt(i + 1))));
    const first = tree.commit();
    expect(hex(first.root)).toBe(
      "0x1fe7f0bc92271be9535e61d15a3d5666ddf99068a89ae5f5d8e518e8e9a3158d",
    );
    expect(first.writes.length).toBe(412);
    expect(tree.commit().writes.length).toBe(0);
    const v = new Uint8Array(32);
    v[0] = 0xff;
    tree.put(gethKey(100), v);
    const third = tree.commit();
    expect(hex(third.root)).toBe(
      "0x5b866df5b8f7cdb6c88804877656b78ab15c16ce5b61f3de16b4c27ab3d99c3c",
    );
    expect(third.writes.length).toBeGreaterThanOrEqual(1);
    expect(third.writes.length).toBeLessThanOrEqual(32);
    expect(third.writes.length).toBeLessThan(first.writes.length);
  });

  it("a no-op write (same value) marks nothing: the next commit is empty", () => {
    const tree = new BinaryTree({ groupDepth: 5 });
    for (let i = 0; i < 50; i++) tree.put(gethKey(i), gethKey(i + 1000));
    tree.commit();
    tree.put(gethKey(7), gethKey(1007));
    expect(tree.commit().writes).toEqual([]);
  });

  const blobCounts: Record<number, [number, number]> = {
    1: [102, 68],
    2: [73, 133],
    3: [61, 262],
    5: [70, 1010],
    8: [51, 1653],
  };
  for (const [g, [count, rootBlobSize]] of Object.entries(blobCounts)) {
    it(`TestRoundTripPersistence g=${g}: ${count} blobs, root blob ${rootBlobSize} bytes, reload equal`, async () => {
      const store = new MemoryStore();
      const tree = new BinaryTree({ groupDepth: Number(g), store });
      const keys = Array.from({ length: 50 }, (_, i) => gethKey(i));
      for (const [i, k] of keys.entries())
        tree.put(k, concat(be64(BigInt(i + 1)), new Uint8Array(24)));
      const set = tree.commit();
      expect(hex(set.root)).toBe(
        "0xb4c8dd30f75ecea7f74d365e0171d8a46cb840a28b1478ac86f4033d31343e45",
      );
      expect(set.writes.length).toBe(count);
      expect(set.writes.at(-1)!.blob.length).toBe(rootBlobSize);
      await store.batch(tree.nodeSetOperations(set));
      const reloaded = await openTree(store);
      expect(hex(reloaded.hash())).toBe(hex(set.root));
      const values = await reloaded.getMany(keys);
      for (const [i, v] of values.entries()) {
        expect(hex(v!)).toBe(hex(concat(be64(BigInt(i + 1)), new Uint8Array(24))));
      }
    });
  }

  for (const g of [1, 2, 3, 5]) {
    it(`TestNoOrphanBlobAfterStemPromotion g=${g}: every stored blob is reachable`, async () => {
      const key = (i: number) =>
        concat(
          be64(BigInt(i + 1) * 0x9e3779b97f4a7c15n),
          be64(BigInt(i + 1) * 0xc2b2ae3d27d4eb4fn),
          new Uint8Array(16),
        );
      const value = (i: number) => concat(be64(BigInt(i + 1)), new Uint8Array(24));
      const store = new MemoryStore();
      const tree = new BinaryTree({ groupDepth: g, store });
      for (let i = 0; i < 12; i++) tree.put(key(i), value(i));
      expect(hex(await tree.persist())).toBe(
        "0x9656b64e9c8d91b657359f679689098ce2a28188bc2a3648205933fe8f99151f",
      );
      for (let i = 12; i < 24; i++) tree.put(key(i), value(i));
      expect(hex(await tree.persist())).toBe(
        "0xaba3cab12800958845af8ad16d92103350654b883aa782b73d8da4efb08e5ff1",
      );
      const fresh = new BinaryTree({ groupDepth: g });
      for (let i = 0; i < 24; i++) fresh.put(key(i), value(i));
      const expected = new Map(fresh.commit().writes.map((w) => [hex(w.path), hex(w.blob)]));
      expect(await storedNodes(store)).toEqual(expected);
    });
  }

  for (let g = 1; g <= 8; g++) {
    it(`TestRootHashMatchesReadBackHash g=${g}: every divergence bit inside the first group`, async () => {
      for (let b = 0; b < g; b++) {
        const one = new Uint8Array(32);
        const two = new Uint8Array(32);
        two[b >>> 3] = 0x80 >>> (b & 7);
        const store = new MemoryStore();
        const tree = new BinaryTree({ groupDepth: g, store });
        tree.put(one, new Uint8Array(32).fill(1));
        tree.put(two, new Uint8Array(32).fill(2));
        const root = await tree.persist();
        const reread = await openTree(store); // verifies the root blob's hash on load
        expect(hex(reread.hash())).toBe(hex(root));
      }
    });
  }

  it("TestMultiStemMixedDepths (g=5) round-trips", async () => {
    const keys = [new Uint8Array(32)];
    for (let bit = 0; bit < 4; bit++) {
      const k = new Uint8Array(32);
      k[0] = 0x80 >>> bit;
      keys.push(k);
    }
    const store = new MemoryStore();
    const tree = new BinaryTree({ groupDepth: 5, store });
    const values = [1, 2, 3, 4, 0xff].map((b) => new Uint8Array(32).fill(b));
    for (const [i, k] of keys.entries()) tree.put(k, values[i]!);
    const root = await tree.persist();
    expect(hex(root)).toBe("0x01a83cb1a42f2af8ec2179867bb48f17481f7a742980d000cb47b0ce3db3c29f");
    const reread = await openTree(store);
    expect((await reread.getMany(keys)).map((v) => hex(v!))).toEqual(values.map(hex));
  });

  it("TestInsertDuplicateKey and TestLargeNumberOfEntries", () => {
    const tree = new BinaryTree();
    tree.put(new Uint8Array(32).fill(1), new Uint8Array(32).fill(1));
    tree.put(new Uint8Array(32).fill(1), new Uint8Array(32).fill(2));
    expect(hex(tree.get(new Uint8Array(32).fill(1))!)).toBe(hex(new Uint8Array(32).fill(2)));
    const big = new BinaryTree();
    for (let i = 0; i < 256; i++) {
      const k = new Uint8Array(32);
      k[0] = i;
      big.put(k, new Uint8Array(32).fill(0xff));
    }
    expect(hex(big.hash())).toBe(
      "0x9e897823c5e16f36d200257e5c054114388db3872c147c35b469c4341153afbd",
    );
  });
});

describe("accounts (geth semantics)", () => {
  const addr = bytes("0x1234567890abcdef1234567890abcdef12345678");
  const other = bytes("0xabcdef1234567890abcdef1234567890abcdef12");

  it("TestStorageRoundTrip: header and main slots, delete writes zero", () => {
    const tree = new BinaryTree();
    tree.putAccount(addr, { nonce: 1n, balance: 1000n, codeHash: EMPTY_CODE_HASH, codeSize: 0 });
    const slots = [bytes(`0x${"00".repeat(31)}ff`), bytes(`0x01${"00".repeat(30)}01`)];
    for (const s of slots) {
      tree.putStorage(addr, s, bytes("0xdeadbeef"));
      expect(hex(tree.getStorage(addr, s)!)).toBe(`0x${"00".repeat(28)}deadbeef`);
      tree.deleteStorage(addr, s);
      expect(hex(tree.getStorage(addr, s)!)).toBe(`0x${"00".repeat(32)}`);
    }
    expect(tree.getAccount(addr)).toEqual({
      nonce: 1n,
      balance: 1000n,
      codeHash: EMPTY_CODE_HASH,
      codeSize: 0,
    });
  });

  it("TestDeleteAccount: header zeroed, account absent, storage survives, root deterministic", () => {
    const build = () => {
      const tree = new BinaryTree();
      tree.putAccount(addr, {
        nonce: 1n,
        balance: 5n,
        codeHash: bytes(`0x${"11".repeat(32)}`),
        codeSize: 0,
      });
      tree.putStorage(addr, 0x80n, bytes("0x01"));
      tree.putStorage(addr, 5n, bytes("0xdeadbeef"));
      tree.deleteAccount(addr);
      return tree;
    };
    const tree = build();
    expect(tree.getAccount(addr)).toBeUndefined();
    expect(hex(tree.getStorage(addr, 0x80n)!)).toBe(`0x${"00".repeat(31)}01`);
    expect(hex(tree.getStorage(addr, 5n)!)).toBe(`0x${"00".repeat(28)}deadbeef`);
    expect(hex(tree.hash())).not.toBe(`0x${"00".repeat(32)}`);
    expect(hex(build().hash())).toBe(hex(tree.hash()));
  });

  it("non-membership: absent accounts and slots read undefined", () => {
    const tree = new BinaryTree();
    tree.putAccount(bytes(`0x${"11".repeat(20)}`), {
      nonce: 0n,
      balance: 1n,
      codeHash: EMPTY_CODE_HASH,
      codeSize: 0,
    });
    for (const a of ["22", "99", "55"]) {
      expect(tree.getAccount(bytes(`0x${a.repeat(20)}`))).toBeUndefined();
      expect(tree.getStorage(bytes(`0x${a.repeat(20)}`), 1n)).toBeUndefined();
      expect(tree.getStorage(bytes(`0x${a.repeat(20)}`), 0xffn)).toBeUndefined();
    }
  });

  it("code round-trips through chunks across several stems", () => {
    const tree = new BinaryTree();
    const code = new Uint8Array(31 * 400 + 5);
    for (let i = 0; i < code.length; i++) code[i] = (i * 7 + 3) & 0xff;
    tree.putAccount(other, {
      nonce: 0n,
      balance: 0n,
      codeHash: EMPTY_CODE_HASH,
      codeSize: code.length,
    });
    tree.putCode(other, code);
    expect(hex(tree.getCode(other))).toBe(hex(code));
    expect(tree.getCode(addr).length).toBe(0);
  });
});
