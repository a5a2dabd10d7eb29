import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  applyGenesisAlloc,
  BinaryTree,
  type GenesisAlloc,
  MemoryStore,
  openTree,
} from "@bintrie/core";
import { openLevelStore } from "@bintrie/store-level";
import { describe, expect, it } from "vitest";
import { buildMptBase } from "../src/build-mpt-base.js";
import { keccak256 } from "../src/bytes.js";
import { preimagesFromAlloc } from "../src/preimage-source.js";
import type { ConversionProgress } from "../src/transition-state.js";
import { TransitionState } from "../src/transition-state.js";
import { hex, quantity, word } from "./helpers/bytes.js";

/** A synthetic state: `accounts` contracts with code and `slots` storage slots each. */
function syntheticAlloc(accounts: number, slots: number): GenesisAlloc {
  const alloc: Record<
    string,
    { balance: string; nonce: string; code: string; storage: Record<string, string> }
  > = {};
  for (let i = 0; i < accounts; i++) {
    const address = hex(keccak256(word(BigInt(i))).subarray(0, 20));
    const storage: Record<string, string> = {};
    for (let s = 0; s < slots; s++)
      storage[`0x${hex(word(BigInt(s * 977 + i)))}`] = quantity(BigInt(s + 1));
    alloc[`0x${address}`] = {
      balance: quantity(BigInt(i) * 10n ** 18n),
      nonce: quantity(BigInt(i % 5)),
      code: i % 3 === 0 ? `0x${"60016000".repeat(20)}` : "0x",
      storage,
    };
  }
  return alloc;
}

function freshRoot(alloc: GenesisAlloc): string {
  const tree = new BinaryTree();
  applyGenesisAlloc(tree, alloc);
  return hex(tree.hash());
}

describe("resumable conversion", () => {
  const alloc = syntheticAlloc(40, 12);

  it("persists the cursor with the overlay; a reopened transition resumes where it stopped", async () => {
    const store = new MemoryStore();
    const { root } = await buildMptBase(store, alloc);
    const preimages = preimagesFromAlloc(alloc);
    let t = await TransitionState.open(store, { baseRoot: root, preimages });
    const cursors: string[] = [];
    for (let round = 0; !t.converted; round++) {
      await t.convertStep(37);
      await t.persist();
      const c = t.cursor;
      cursors.push(c.phase === "converting" ? hex(c.account) : c.phase);
      // Reopen from the store alone: same cursor, same counters, same root.
      const reopened = await TransitionState.open(store, { preimages });
      expect(reopened.cursor).toEqual(t.cursor);
      expect(reopened.counters).toEqual(t.counters);
      expect(hex(reopened.hash())).toBe(hex(t.hash()));
      t = reopened;
      expect(round).toBeLessThan(100);
    }
    // Accounts come in hashed-key order.
    const accounts = cursors.filter((c) => c !== "done");
    expect([...accounts].sort()).toEqual(accounts);
    expect(t.counters.accounts).toBe(40);
    expect(t.counters.storageSlots).toBe(40 * 12);
    expect(hex(t.hash())).toBe(freshRoot(alloc));
  });

  it("work not persisted before a crash is redone from the last persisted cursor", async () => {
    const store = new MemoryStore();
    const { root } = await buildMptBase(store, alloc);
    const preimages = preimagesFromAlloc(alloc);
    const t = await TransitionState.open(store, { baseRoot: root, preimages });
    await t.convertStep(100);
    await t.persist();
    const persisted = t.cursor;
    await t.convertStep(150); // lost: never persisted
    const restarted = await TransitionState.open(store, { preimages });
    expect(restarted.cursor).toEqual(persisted);
    await restarted.convertAll({ leavesPerStep: 64 });
    expect(hex(restarted.hash())).toBe(freshRoot(alloc));
  });

  it("reports progress after every step: counters grow, fraction rises to 1, last is done", async () => {
    const store = new MemoryStore();
    const { root } = await buildMptBase(store, alloc);
    const t = await TransitionState.open(store, {
      baseRoot: root,
      preimages: preimagesFromAlloc(alloc),
    });
    const seen: ConversionProgress[] = [];
    const last = await t.convertAll({ leavesPerStep: 50, onProgress: (p) => seen.push(p) });
    expect(seen.length).toBeGreaterThan(5);
    for (let i = 1; i < seen.length; i++) {
      expect(seen[i]!.fraction).toBeGreaterThanOrEqual(seen[i - 1]!.fraction);
      expect(seen[i]!.counters.leavesWritten).toBeGreaterThanOrEqual(
        seen[i - 1]!.counters.leavesWritten,
      );
    }
    for (const p of seen.slice(0, -1)) {
      expect(p.done).toBe(false);
      expect(p.stepLeaves).toBeGreaterThanOrEqual(50);
    }
    expect(last).toEqual(seen[seen.length - 1]);
    expect(last.done).toBe(true);
    expect(last.fraction).toBe(1);
    // 40 accounts × 2 header leaves + 14 coded accounts × 3 chunks + 480 slots.
    expect(last.counters.leavesWritten).toBe(40 * 2 + 14 * 3 + 480);
    expect(last.counters.codeChunks).toBe(14 * 3);
  });

  it("a memory-bounded overlay (maxNodes) evicts and reloads during conversion and ends at the same root", async () => {
    const store = new MemoryStore();
    const { root } = await buildMptBase(store, alloc);
    const preimages = preimagesFromAlloc(alloc);
    const t = await TransitionState.open(store, { baseRoot: root, preimages, maxNodes: 32 });
    await t.putStorage(
      Uint8Array.from(Buffer.from(Object.keys(alloc)[5]!.slice(2), "hex")),
      7n,
      Uint8Array.of(1),
    );
    await t.convertAll({ leavesPerStep: 40 });
    expect(t.overlay.stats().stem).toBeLessThan(100);
    const expected = structuredClone(alloc) as Record<string, { storage: Record<string, string> }>;
    expected[Object.keys(alloc)[5]!]!.storage[`0x${hex(word(7n))}`] = "0x01";
    expect(hex(t.hash())).toBe(freshRoot(expected as GenesisAlloc));
    // Converting again is a no-op that needs no base.
    expect((await t.convertStep()).stepLeaves).toBe(0);
  });

  it("one LevelDB holds the MPT base, the overlay and the cursor; conversion resumes after close", async () => {
    const dir = mkdtempSync(join(tmpdir(), "bintrie-transition-"));
    try {
      let store = await openLevelStore(dir);
      const { root } = await buildMptBase(store, alloc);
      const preimages = preimagesFromAlloc(alloc);
      let t = await TransitionState.open(store, { baseRoot: root, preimages });
      await t.putStorage(
        Uint8Array.from(Buffer.from(Object.keys(alloc)[0]!.slice(2), "hex")),
        word(3n),
        Uint8Array.of(0x55),
      );
      await t.convertStep(200);
      await t.persist();
      const cursor = t.cursor;
      await store.close();
      store = await openLevelStore(dir);
      t = await TransitionState.open(store, { preimages });
      expect(t.cursor).toEqual(cursor);
      await t.convertAll({ leavesPerStep: 100 });
      const expected = structuredClone(alloc) as Record<
        string,
        { storage: Record<string, string> }
      >;
      expected[Object.keys(alloc)[0]!]!.storage[`0x${hex(word(3n))}`] = "0x55";
      expect(hex(t.hash())).toBe(freshRoot(expected as GenesisAlloc));
      await store.close();
      store = await openLevelStore(dir);
      const tree = await openTree(store);
      expect(hex(tree.hash())).toBe(hex(t.hash()));
      await store.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
