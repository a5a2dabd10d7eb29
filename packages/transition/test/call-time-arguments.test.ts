import { applyGenesisAlloc, BinaryTree, EMPTY_CODE_HASH, type GenesisAlloc } from "@bintrie/core";
import { describe, expect, it } from "vitest";
import { buildMptBase } from "../src/build-mpt-base.js";
import { preimagesFromAlloc } from "../src/preimage-source.js";
import { TransitionState } from "../src/transition-state.js";
import { fromHex, hex, quantity, word } from "./helpers/bytes.js";
import { FaultyStore } from "./helpers/faulty-store.js";
import { openOverAlloc } from "./helpers/open-over-alloc.js";

const addr = (n: number) => `0x${n.toString(16).padStart(40, "0")}`;

describe("arguments are checked and copied at call time", () => {
  it("reusing a buffer or an object after the call changes nothing the call does", async () => {
    const alloc: GenesisAlloc = { [addr(1)]: { balance: "0x1" } };
    const store = new FaultyStore();
    const { root } = await buildMptBase(store, alloc);
    const t = await TransitionState.open(store, {
      baseRoot: root,
      preimages: preimagesFromAlloc(alloc),
    });
    const a = fromHex(addr(0xaa).slice(2));
    const value = new Uint8Array(32);
    value[31] = 1;
    const p1 = t.putStorage(a, 1n, value);
    value[31] = 2;
    const p2 = t.putStorage(a, 2n, value);
    const slot = word(3n);
    const p3 = t.putStorage(a, slot, "0x03");
    slot[31] = 4;
    const account = { nonce: 1n, balance: 10n, codeHash: EMPTY_CODE_HASH.slice(), codeSize: 0 };
    const p4 = t.putAccount(a, account);
    account.balance = 999n;
    account.codeHash[0] = 0xff;
    const other = fromHex(addr(0xbb).slice(2));
    const p5 = t.putStorage(other, 7n, "0x07");
    other[19] = 0xcc;
    const code = Uint8Array.of(0x60, 0x01);
    const p6 = t.putCode(a, code);
    code[1] = 0x02;
    await Promise.all([p1, p2, p3, p4, p5, p6]);
    // The model: exactly what was passed at each call.
    expect(hex(await t.getStorage(a, 1n))).toBe(hex(word(1n)));
    expect(hex(await t.getStorage(a, 2n))).toBe(hex(word(2n)));
    expect(hex(await t.getStorage(a, 3n))).toBe(hex(word(3n)));
    expect(hex(await t.getStorage(a, 4n))).toBe(hex(word(0n)));
    expect(await t.getAccount(a)).toEqual({
      nonce: 1n,
      balance: 10n,
      codeHash: EMPTY_CODE_HASH,
      codeSize: 0,
    });
    expect(hex(await t.getStorage(addr(0xbb), 7n))).toBe(hex(word(7n)));
    expect(hex(await t.getStorage(addr(0xcc), 7n))).toBe(hex(word(0n)));
    const fresh = new BinaryTree();
    fresh.putStorage(a, 1n, word(1n));
    fresh.putStorage(a, 2n, word(2n));
    fresh.putStorage(a, 3n, word(3n));
    fresh.putAccount(a, { nonce: 1n, balance: 10n, codeHash: EMPTY_CODE_HASH, codeSize: 0 });
    fresh.putStorage(addr(0xbb), 7n, word(7n));
    fresh.putCode(a, Uint8Array.of(0x60, 0x01));
    await t.convertAll();
    const base = new BinaryTree();
    applyGenesisAlloc(base, alloc);
    // Overlay writes plus the converted base account, built independently.
    fresh.putAccount(addr(1), base.getAccount(addr(1))!);
    expect(hex(t.hash())).toBe(hex(fresh.hash()));
  });
});

describe("operations in flight", () => {
  const alloc: Record<string, GenesisAlloc[string]> = {};
  for (let i = 1; i <= 8; i++) {
    const storage: Record<string, string> = {};
    // Main-storage slots (>= 64): their leaves are outside the account's stem.
    for (let j = 1; j <= 3; j++)
      storage[quantity(BigInt(0x1000 + j))] = quantity(BigInt(i * 16 + j));
    alloc[addr(0x1000 + i)] = { balance: quantity(BigInt(i)), storage };
  }
  const victim = addr(0x1001);

  it("setPreimageSource during a running step takes effect after it: the step's progress stays", async () => {
    const store = new FaultyStore();
    const { t } = await openOverAlloc(store, alloc);
    let swapped = false;
    store.onRead = () => {
      if (!swapped) {
        swapped = true;
        t.setPreimageSource(preimagesFromAlloc(alloc)); // mid-step
      }
    };
    const progress = await t.convertStep(1_000_000);
    store.onRead = undefined;
    expect(swapped).toBe(true);
    expect(progress.done).toBe(true);
    expect(t.converted).toBe(true);
    await t.deleteAccount(victim);
    for (const s of [0x1001n, 0x1002n, 0x1003n]) {
      expect(hex(await t.getStorage(victim, s))).toBe(hex(word(0n)));
    }
    const rest = Object.fromEntries(Object.entries(alloc).filter(([a]) => a !== victim));
    const fresh = new BinaryTree();
    applyGenesisAlloc(fresh, rest);
    expect(hex(t.hash())).toBe(hex(fresh.hash()));
  });

  it("hash() while deleteAccount waits on the store is the root before or after it", async () => {
    // Enough accounts that the overlay's paths span several stored node groups.
    const big: Record<string, GenesisAlloc[string]> = { ...alloc };
    for (let i = 0; i < 800; i++) big[addr(0x100000 + i)] = { balance: "0x1" };
    const store = new FaultyStore();
    const { root } = await buildMptBase(store, big);
    const preimages = preimagesFromAlloc(big);
    const t0 = await TransitionState.open(store, { baseRoot: root, preimages }); // 'zero' mode
    await t0.convertAll();
    await t0.putStorage(victim, 9n, "0x99");
    await t0.persist();
    const t = await TransitionState.open(store, { preimages }); // loads lazily: many reads
    // References built with core alone: go-ethereum's delete zeroes the header and every slot.
    const before = new BinaryTree();
    applyGenesisAlloc(before, big);
    before.putStorage(victim, 9n, word(0x99n));
    const after = new BinaryTree();
    applyGenesisAlloc(after, big);
    after.putStorage(victim, 9n, word(0x99n));
    after.deleteAccount(victim);
    for (const s of [0x1001n, 0x1002n, 0x1003n, 9n]) after.deleteStorage(victim, s);
    const seen = new Set<string>();
    store.onRead = () => seen.add(hex(t.hash()));
    await t.deleteAccount(victim);
    store.onRead = undefined;
    expect(seen.size).toBeGreaterThan(0);
    for (const h of seen) expect([hex(before.hash()), hex(after.hash())]).toContain(h);
    expect(hex(t.hash())).toBe(hex(after.hash()));
  });
});
