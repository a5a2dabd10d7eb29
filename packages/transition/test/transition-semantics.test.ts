import { BinaryTree, codeHash, EMPTY_CODE_HASH, MemoryStore } from "@bintrie/core";
import { describe, expect, it } from "vitest";
import { keccak256 } from "../src/bytes.js";
import { MptBase } from "../src/mpt-base.js";
import { TransitionState } from "../src/transition-state.js";
import { hex, word } from "./helpers/bytes.js";
import { A, B, C, CODE_A, CountingStore, openScenario } from "./helpers/scenario.js";

const ZERO = hex(new Uint8Array(32));

describe("reads: overlay first, then the base", () => {
  it("reads base accounts, storage and code through an empty overlay", async () => {
    const { t } = await openScenario();
    expect(await t.getAccount(A)).toEqual({
      nonce: 1n,
      balance: 100n,
      codeSize: 70,
      codeHash: codeHash(CODE_A),
    });
    expect(hex(await t.getCode(A))).toBe(hex(CODE_A));
    expect(hex(await t.getStorage(A, 64n))).toBe(hex(word(2n)));
    expect(hex(await t.getStorage(B, word(1n)))).toBe(hex(word(9n)));
    expect(await t.getAccount(C)).toBeUndefined();
    expect(hex(await t.getStorage(C, 1n))).toBe(ZERO);
    expect((await t.getCode(C)).length).toBe(0);
    // The overlay is still empty: the root is the empty binary root.
    expect(hex(t.hash())).toBe(ZERO);
  });

  it("writes land in the overlay only; the base and its MPT nodes are untouched", async () => {
    const { t, store, baseRoot } = await openScenario();
    await t.putAccount(B, { nonce: 3n, balance: 6n, codeSize: 0, codeHash: EMPTY_CODE_HASH });
    await t.putStorage(B, 1n, Uint8Array.of(7));
    await t.persist();
    expect((await t.getAccount(B))?.balance).toBe(6n);
    expect(hex(await t.getStorage(B, 1n))).toBe(hex(word(7n)));
    const base = await MptBase.open(store, baseRoot);
    const b = await base.getAccount(B);
    expect(b?.balance).toBe(5n);
    expect(hex((await base.getStorage(b!, word(1n)))!)).toBe(hex(word(9n)));
    // A header written alone keeps the base code visible (code chunks fall back per key).
    await t.putAccount(A, { nonce: 2n, balance: 1n, codeSize: 70, codeHash: codeHash(CODE_A) });
    expect(hex(await t.getCode(A))).toBe(hex(CODE_A));
  });
});

describe("deletes without go-ethereum's resurrection bug", () => {
  for (const mode of ["zero", "remove"] as const) {
    it(`'${mode}': an account deleted in the overlay is absent, and its base storage and code stay hidden`, async () => {
      const { t, store, baseRoot, preimages } = await openScenario({ mode });
      await t.deleteAccount(A);
      const check = async (s: TransitionState) => {
        expect(await s.getAccount(A)).toBeUndefined();
        expect((await s.getCode(A)).length).toBe(0);
        for (const slot of [0n, 64n, 300n]) expect(hex(await s.getStorage(A, slot))).toBe(ZERO);
      };
      await check(t);
      // geth's TransitionTrie: overlay account (nil for a deleted one) ?? base account.
      const naive =
        t.overlay.getAccount(A) ?? (await (await MptBase.open(store, baseRoot)).getAccount(A));
      expect(naive?.balance, "the overlay-then-base fallback resurrects A").toBe(100n);
      await t.persist();
      const reopened = await TransitionState.open(store, { preimages });
      await check(reopened);
      await reopened.convertAll({ leavesPerStep: 3 });
      await check(reopened);
    });

    it(`'${mode}': deleting a slot that exists only in the base hides it, before and after conversion`, async () => {
      const { t } = await openScenario({ mode });
      await t.deleteStorage(B, 1n);
      const key = t.overlay.keys.storageSlotKey(B, 1n);
      await t.overlay.load([key]);
      // 'zero' hides with a present zero leaf (geth's DeleteStorage); 'remove' with a tombstone.
      expect(t.overlay.get(key) === undefined ? "absent" : hex(t.overlay.get(key)!)).toBe(
        mode === "zero" ? ZERO : "absent",
      );
      expect(hex(await t.getStorage(B, 1n))).toBe(ZERO);
      await t.convertAll({ leavesPerStep: 1 });
      expect(hex(await t.getStorage(B, 1n))).toBe(ZERO);
      expect(t.overlay.get(key) === undefined ? "absent" : "present").toBe(
        mode === "zero" ? "present" : "absent",
      );
    });

    it(`'${mode}': a slot written as zero hides the base value`, async () => {
      const { t } = await openScenario({ mode });
      await t.putStorage(A, 64n, new Uint8Array(32));
      await t.putStorage(A, 300n, new Uint8Array(0));
      expect(hex(await t.getStorage(A, 64n))).toBe(ZERO);
      expect(hex(await t.getStorage(A, 300n))).toBe(ZERO);
      expect(hex(await t.getStorage(A, 0n))).toBe(hex(word(1n)));
      await t.convertAll();
      expect(hex(await t.getStorage(A, 64n))).toBe(ZERO);
      expect(hex(await t.getStorage(A, 300n))).toBe(ZERO);
      expect(hex(await t.getStorage(A, 0n))).toBe(hex(word(1n)));
    });

    it(`'${mode}': a deleted then recreated account starts empty; only its new writes show`, async () => {
      const { t } = await openScenario({ mode });
      await t.putStorage(A, 5n, Uint8Array.of(4)); // overlay-only slot, written before the delete
      await t.deleteAccount(A);
      await t.putAccount(A, { nonce: 0n, balance: 1n, codeSize: 0, codeHash: EMPTY_CODE_HASH });
      await t.putStorage(A, 0n, Uint8Array.of(7));
      const check = async () => {
        expect((await t.getAccount(A))?.balance).toBe(1n);
        expect((await t.getCode(A)).length).toBe(0);
        expect(hex(await t.getStorage(A, 0n))).toBe(hex(word(7n)));
        for (const slot of [5n, 64n, 300n]) expect(hex(await t.getStorage(A, slot))).toBe(ZERO);
      };
      await check();
      await t.convertAll({ leavesPerStep: 2 });
      await check();
    });

    it(`'${mode}': deleting an account whose storage is half converted hides the rest too`, async () => {
      const { t } = await openScenario({ mode });
      const hashedA = keccak256(A);
      // Step one leaf at a time until A's header is in and its storage partly converted.
      for (let i = 0; i < 50; i++) {
        await t.convertStep(1);
        const c = t.cursor;
        if (c.phase === "converting" && hex(c.account) === hex(hashedA) && c.lastSlot !== undefined)
          break;
      }
      const c = t.cursor;
      expect(c.phase === "converting" && !c.storageDone && hex(c.account) === hex(hashedA)).toBe(
        true,
      );
      await t.deleteAccount(A);
      for (const slot of [0n, 64n, 300n]) expect(hex(await t.getStorage(A, slot))).toBe(ZERO);
      await t.convertAll({ leavesPerStep: 1 });
      expect(await t.getAccount(A)).toBeUndefined();
      for (const slot of [0n, 64n, 300n]) expect(hex(await t.getStorage(A, slot))).toBe(ZERO);
      expect((await t.getAccount(B))?.balance).toBe(5n);
    });
  }

  it("'remove': deleting everything leaves the root of a fresh build without it", async () => {
    const { t } = await openScenario({ mode: "remove" });
    await t.deleteAccount(A);
    await t.deleteStorage(B, 1n);
    await t.convertAll({ leavesPerStep: 4 });
    const fresh = new BinaryTree();
    fresh.putAccount(B, { nonce: 0n, balance: 5n, codeSize: 0, codeHash: EMPTY_CODE_HASH });
    expect(hex(t.hash())).toBe(hex(fresh.hash()));
  });
});

describe("after conversion", () => {
  it("reads never touch the base (no MPT node or code reads)", async () => {
    const store = new CountingStore();
    const { t } = await openScenario({ store });
    await t.putStorage(B, 2n, Uint8Array.of(1));
    await t.convertAll();
    store.reads.length = 0;
    for (const address of [A, B, C]) {
      await t.getAccount(address);
      await t.getCode(address);
      for (const slot of [0n, 1n, 2n, 64n, 300n]) await t.getStorage(address, slot);
    }
    expect(hex(await t.getCode(A))).toBe(hex(CODE_A));
    expect(store.readsWithPrefix("M"), "MPT node reads").toBe(0);
    expect(store.readsWithPrefix("C"), "code reads").toBe(0);
    // Before conversion the same reads do reach the base, so the counter is live.
    const fresh = await openScenario({ store: new CountingStore() });
    await fresh.t.getStorage(A, 300n);
    expect((fresh.store as CountingStore).readsWithPrefix("M")).toBeGreaterThan(0);
  });

  it("a converted transition reopens without its base (base nodes deleted)", async () => {
    const { t, store } = await openScenario();
    await t.convertAll();
    const keys: Uint8Array[] = [];
    for await (const [key] of store.entries!()) if (key[0] === "M".charCodeAt(0)) keys.push(key);
    expect(keys.length).toBeGreaterThan(0);
    await store.batch(keys.map((key) => ({ type: "del", key })));
    const reopened = await TransitionState.open(store);
    expect(reopened.converted).toBe(true);
    expect((await reopened.getAccount(A))?.nonce).toBe(1n);
    expect(hex(await reopened.getStorage(A, 300n))).toBe(hex(word(3n)));
    expect(hex(reopened.hash())).toBe(hex(t.hash()));
  });

  it("the converted tree opens as a plain binary tree with core's openTree", async () => {
    const { t, store } = await openScenario();
    await t.convertAll();
    const { openTree } = await import("@bintrie/core");
    const tree = await openTree(store);
    expect(hex(tree.hash())).toBe(hex(t.hash()));
    await tree.load([tree.keys.storageSlotKey(A, 300n)]);
    expect(hex(tree.getStorage(A, 300n)!)).toBe(hex(word(3n)));
  });

  it("side tables are dropped once conversion is done (no stale marks or tombstones)", async () => {
    const store = new MemoryStore();
    const { t } = await openScenario({ store, mode: "remove" });
    await t.deleteAccount(A);
    await t.deleteStorage(B, 1n);
    await t.persist();
    const sideKeys = async () => {
      const out: string[] = [];
      for await (const [key] of store.entries()) {
        if (key[0] === "T".charCodeAt(0) && (key[1] === 0x61 || key[1] === 0x7a))
          out.push(hex(key));
      }
      return out;
    };
    expect((await sideKeys()).length).toBeGreaterThan(0);
    await t.convertAll();
    expect(await sideKeys()).toEqual([]);
  });
});
