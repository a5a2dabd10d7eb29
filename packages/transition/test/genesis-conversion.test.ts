import { createHash } from "node:crypto";
import {
  applyGenesisAlloc,
  BinaryTree,
  codeHash,
  type GenesisAlloc,
  MemoryStore,
} from "@bintrie/core";
import { describe, expect, it } from "vitest";
import { buildMptBase } from "../src/build-mpt-base.js";
import { parseAlloc } from "../src/genesis-input.js";
import { preimagesFromAlloc } from "../src/preimage-source.js";
import { TransitionState } from "../src/transition-state.js";
import { hex } from "./helpers/bytes.js";
import {
  blockchainTestAllocs,
  gethBinaryGenesis,
  gethRandomGenesis,
  networkGenesis,
  type PublishedAlloc,
} from "./helpers/fixtures.js";

function freshBinaryRoot(alloc: GenesisAlloc): string {
  const tree = new BinaryTree();
  applyGenesisAlloc(tree, alloc);
  return hex(tree.hash());
}

/** Every account, slot and code of the alloc reads back as the alloc says. */
async function expectAllocReads(
  t: TransitionState,
  alloc: GenesisAlloc,
  sample = 1,
): Promise<number> {
  let reads = 0;
  const accounts = parseAlloc(alloc);
  for (let i = 0; i < accounts.length; i += sample) {
    const a = accounts[i]!;
    const account = await t.getAccount(a.address);
    expect(account, `account ${hex(a.address)}`).toBeDefined();
    expect(account!.nonce).toBe(a.nonce);
    expect(account!.balance).toBe(a.balance);
    expect(account!.codeSize).toBe(a.code.length);
    expect(hex(account!.codeHash)).toBe(hex(codeHash(a.code)));
    expect(hex(await t.getCode(a.address))).toBe(hex(a.code));
    for (const [slot, value] of a.storage) {
      expect(hex(await t.getStorage(a.address, slot)), `${hex(a.address)}[${hex(slot)}]`).toBe(
        hex(value),
      );
      reads++;
    }
    reads += 2;
  }
  return reads;
}

/**
 * MPT base from the alloc → root must equal the published one; reads through the transition
 * equal the alloc before and after conversion; the converted root equals a direct binary build.
 */
async function checkAlloc(
  source: PublishedAlloc,
  leavesPerStep: number,
  sample = 1,
): Promise<void> {
  const store = new MemoryStore();
  const { root } = await buildMptBase(store, source.alloc);
  expect(`0x${hex(root)}`, `${source.name}: MPT root`).toBe(source.mptRoot);
  const t = await TransitionState.open(store, {
    baseRoot: root,
    preimages: preimagesFromAlloc(source.alloc),
  });
  await expectAllocReads(t, source.alloc, sample);
  const progress = await t.convertAll({ leavesPerStep });
  expect(progress.done).toBe(true);
  expect(hex(t.hash()), `${source.name}: converted root`).toBe(freshBinaryRoot(source.alloc));
  const reopened = await TransitionState.open(store);
  expect(reopened.converted).toBe(true);
  expect(hex(reopened.hash())).toBe(hex(t.hash()));
  await expectAllocReads(reopened, source.alloc, sample);
}

describe("real genesis allocs: MPT base root, conversion, binary root", () => {
  const allocs = blockchainTestAllocs();

  it("the blockchain fixtures give many distinct pre states", () => {
    expect(allocs.length).toBeGreaterThanOrEqual(30);
  });

  const steps = [1, 7, 64, 10_000];
  allocs.forEach((source, i) => {
    it(`${source.name} (step ${steps[i % steps.length]})`, async () => {
      await checkAlloc(source, steps[i % steps.length]!);
    });
  });

  for (const chainId of [11155111, 17000, 560048] as const) {
    const source = networkGenesis(chainId);
    it(`${source.name} genesis (@ethereumjs/genesis, published root)`, async () => {
      await checkAlloc(source, 500);
    }, 60_000);
  }

  it("mainnet genesis: 8893 accounts, published root 0xd7f8…0544", async () => {
    const source = networkGenesis(1);
    expect(Object.keys(source.alloc)).toHaveLength(8893);
    // Every 7th account is read back (all of them in the smaller allocs above).
    await checkAlloc(source, 6_000, 7);
  }, 120_000);

  it("a random alloc: converted at group depths 1..8, the store holds geth's genesis nodes", async () => {
    // Code past 128 chunks, header, main and hashed slots, zero values, extreme nonce and
    // balance: the nodes after a conversion in steps of 5 leaves are those geth commits.
    const { alloc, groupDepths } = gethRandomGenesis();
    for (const [g, expected] of Object.entries(groupDepths)) {
      const store = new MemoryStore();
      const { root } = await buildMptBase(store, alloc);
      const t = await TransitionState.open(store, {
        baseRoot: root,
        preimages: preimagesFromAlloc(alloc),
        groupDepth: Number(g),
      });
      await t.convertAll({ leavesPerStep: 5 });
      const lines: string[] = [];
      // Overlay nodes are "vA" + path: in key order, so in path order.
      const range = { gte: Uint8Array.of(0x76, 0x41), lt: Uint8Array.of(0x76, 0x42) };
      for await (const [key, blob] of store.entries(range)) {
        lines.push(`0x${hex(key.subarray(2))}=0x${hex(blob)}\n`);
      }
      const nodesDigest = `0x${createHash("sha256").update(lines.join("")).digest("hex")}`;
      expect({ root: `0x${hex(t.hash())}`, nodes: lines.length, nodesDigest }, `g=${g}`).toEqual(
        expected,
      );
    }
  });

  it("TestBinaryGenesisCommit: MPT → binary conversion reaches go-ethereum's binary root", async () => {
    const { alloc, binaryRoot } = gethBinaryGenesis();
    for (const leavesPerStep of [1, 2, 3, 100]) {
      const store = new MemoryStore();
      const { root } = await buildMptBase(store, alloc);
      const t = await TransitionState.open(store, {
        baseRoot: root,
        preimages: preimagesFromAlloc(alloc),
      });
      await t.convertAll({ leavesPerStep });
      expect(`0x${hex(t.hash())}`).toBe(binaryRoot);
      expect(t.counters).toEqual({
        accounts: 1,
        storageSlots: 1,
        codeChunks: 0,
        leavesWritten: 3,
        leavesKept: 0,
      });
    }
  });
});
