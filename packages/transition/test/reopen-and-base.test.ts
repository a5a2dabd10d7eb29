import {
  applyGenesisAlloc,
  BinaryTree,
  codeHash,
  EMPTY_CODE_HASH,
  type GenesisAlloc,
  MemoryStore,
} from "@bintrie/core";
import { describe, expect, it } from "vitest";
import { buildMptBase } from "../src/build-mpt-base.js";
import { MptBase } from "../src/mpt-base.js";
import { walkMptLeaves } from "../src/mpt-walk.js";
import { preimagesFromAlloc } from "../src/preimage-source.js";
import { TransitionError } from "../src/transition-error.js";
import { decodeTransitionRecord, encodeTransitionRecord } from "../src/transition-record.js";
import { TransitionState } from "../src/transition-state.js";
import { hex, quantity, word } from "./helpers/bytes.js";
import { FaultyStore } from "./helpers/faulty-store.js";
import { openOverAlloc } from "./helpers/open-over-alloc.js";

const addr = (n: number) => `0x${n.toString(16).padStart(40, "0")}`;
const A = addr(0xaa);
const E = addr(0xee); // no storage in the base
const CODE = `0x${"60".repeat(100)}`;
const ALLOC: GenesisAlloc = {
  [A]: { balance: "0x5", code: CODE, storage: { [quantity(1n)]: "0x11", [quantity(2n)]: "0x22" } },
  [E]: { balance: "0x7" },
};

function freshRoot(alloc: GenesisAlloc): string {
  const tree = new BinaryTree();
  applyGenesisAlloc(tree, alloc);
  return hex(tree.hash());
}

async function code(error: Promise<unknown> | (() => unknown)): Promise<string | undefined> {
  try {
    await (typeof error === "function" ? error() : error);
  } catch (e) {
    expect(e).toBeInstanceOf(TransitionError);
    return (e as TransitionError).code;
  }
  return undefined;
}

describe("the store layout is part of the transition record", () => {
  it("reopening with another layout is RECORD_MISMATCH; without one, the stored layout is used", async () => {
    const store = new MemoryStore();
    const layout = {
      mptNodePrefix: Uint8Array.of(0x4d),
      codePrefix: Uint8Array.of(0x43),
      sidePrefix: Uint8Array.of(0x58), // "X"
    };
    const { root } = await buildMptBase(store, ALLOC, layout);
    const preimages = preimagesFromAlloc(ALLOC);
    const t = await TransitionState.open(store, {
      baseRoot: root,
      preimages,
      deletionMode: "remove",
      layout,
    });
    await t.deleteAccount(A);
    await t.persist();
    expect(await code(TransitionState.open(store, { preimages }).then(() => undefined))).toBe(
      undefined,
    );
    const other = { ...layout, sidePrefix: Uint8Array.of(0x54) };
    expect(await code(TransitionState.open(store, { preimages, layout: other }))).toBe(
      "RECORD_MISMATCH",
    );
    const again = await TransitionState.open(store, { preimages });
    expect(await again.getAccount(A)).toBeUndefined(); // its wipe mark is still found
    expect(hex(await again.getStorage(A, 1n))).toBe(hex(word(0n)));
  });

  it("a version-1 record (without layout) still decodes", () => {
    const v2 = encodeTransitionRecord({
      baseRoot: new Uint8Array(32).fill(3),
      deletionMode: "remove",
      cursor: { phase: "pending" },
      counters: { accounts: 1, storageSlots: 2, codeChunks: 3, leavesWritten: 4, leavesKept: 5 },
      markedAccounts: 6,
    });
    const v1 = v2.slice(0, 152);
    v1[4] = 1;
    const record = decodeTransitionRecord(v1);
    expect(record.layout).toBeUndefined();
    expect(record.markedAccounts).toBe(6);
    expect(record.baseStorageIndexed).toBe(true); // nothing was converted without the index
  });
});

describe("a store without entries()", () => {
  it("'remove'-mode deletes and shorter code convert to the fresh build", async () => {
    const store = new FaultyStore({ ordered: false });
    const { root } = await buildMptBase(store, ALLOC);
    const t = await TransitionState.open(store, {
      baseRoot: root,
      preimages: preimagesFromAlloc(ALLOC),
      deletionMode: "remove",
    });
    await t.deleteStorage(A, 1n);
    await t.putCode(A, "0x6001");
    await t.putAccount(A, {
      nonce: 0n,
      balance: 5n,
      codeHash: codeHash(Uint8Array.of(0x60, 0x01)),
      codeSize: 2,
    });
    expect(await code(t.deleteAccount(E))).toBe("STORE_NOT_ORDERED");
    const done = await t.convertAll({ leavesPerStep: 2 });
    expect(done.done).toBe(true);
    const fresh = new BinaryTree();
    applyGenesisAlloc(fresh, {
      [A]: { balance: "0x5", code: "0x6001", storage: { [quantity(2n)]: "0x22" } },
      [E]: { balance: "0x7" },
    });
    expect(hex(t.hash())).toBe(hex(fresh.hash()));
  });
});

describe("after conversion the base can be deleted", () => {
  it("deleting accounts without base storage needs no base; with base storage it does", async () => {
    const store = new MemoryStore();
    const { preimages, t: t0 } = await openOverAlloc(store, ALLOC);
    await t0.convertAll({ leavesPerStep: 2 });
    const mpt: { type: "del"; key: Uint8Array }[] = [];
    for await (const [key] of store.entries({ gte: Uint8Array.of(0x4d), lt: Uint8Array.of(0x4e) }))
      mpt.push({ type: "del", key });
    expect(mpt.length).toBeGreaterThan(0);
    await store.batch(mpt);
    const t = await TransitionState.open(store, { preimages });
    const NEW = addr(0xcc);
    await t.putAccount(NEW, { nonce: 1n, balance: 1n, codeHash: EMPTY_CODE_HASH, codeSize: 0 });
    await t.putStorage(NEW, 5n, "0x05");
    await t.deleteAccount(NEW);
    await t.deleteAccount(E);
    expect(await t.getAccount(E)).toBeUndefined();
    expect(hex(await t.getStorage(NEW, 5n))).toBe(hex(word(0n)));
    expect(await code(t.deleteAccount(A))).toBe("MISSING_BASE_DATA");
    expect(hex(t.hash())).toBe(freshRoot({ [A]: ALLOC[A]! }));
  });
});

describe("MPT walks refuse a start key that is not 32 bytes", () => {
  it("MptBase.accounts, MptBase.storage and walkMptLeaves", async () => {
    const store = new MemoryStore();
    const { root } = await buildMptBase(store, ALLOC);
    const base = await MptBase.open(store, root);
    for (const length of [0, 1, 31, 33]) {
      const start = new Uint8Array(length).fill(0x80);
      expect(await code(() => base.accounts(start))).toBe("INVALID_ARGUMENT");
      expect(await code(() => base.storage(root, start))).toBe("INVALID_ARGUMENT");
      const read = (hashes: readonly Uint8Array[]) => store.getMany(hashes);
      expect(await code(() => walkMptLeaves(read, root, start))).toBe("INVALID_ARGUMENT");
    }
    const all: string[] = [];
    for await (const leaf of base.accounts()) all.push(hex(leaf.hashedKey));
    const start = new Uint8Array(32).fill(0x80);
    const from: string[] = [];
    for await (const leaf of base.accounts(start)) from.push(hex(leaf.hashedKey));
    expect(from).toEqual(all.filter((k) => k >= hex(start)).sort());
  });
});
