import {
  applyGenesisAlloc,
  BinaryTree,
  type DeletionMode,
  EMPTY_CODE_HASH,
  type GenesisAlloc,
} from "@bintrie/core";
import { describe, expect, it } from "vitest";
import { buildMptBase } from "../src/build-mpt-base.js";
import { preimagesFromAlloc } from "../src/preimage-source.js";
import { TransitionState } from "../src/transition-state.js";
import { hex, quantity, word } from "./helpers/bytes.js";
import { FaultyStore } from "./helpers/faulty-store.js";
import { openOverAlloc } from "./helpers/open-over-alloc.js";

// A failure at any store read inside an operation leaves the state exactly as before it (reads
// equal the model before the call), and a retry then gives the model after it. In 'remove' mode
// the converted root is checked against a fresh applyGenesisAlloc build of the final state.

const addr = (n: number) => `0x${n.toString(16).padStart(40, "0")}`;
const A = addr(0xaa);
const B = addr(0xbb);
const FILLERS = Array.from({ length: 60 }, (_, i) => addr(0x10000 + i));
const CODE = `0x${"60".repeat(70)}`;
const BASE: GenesisAlloc = {
  [A]: { balance: "0x5", code: CODE, storage: { [quantity(1n)]: "0x11", [quantity(2n)]: "0x22" } },
  [B]: { balance: "0x1", storage: { [quantity(1n)]: "0x01" } },
};

interface Model {
  balance: bigint | undefined;
  slots: Record<string, bigint>; // slot → value (absent = zero)
  codeLength: number;
}

async function observe(t: TransitionState): Promise<Model> {
  const account = await t.getAccount(A);
  const slots: Record<string, bigint> = {};
  for (const s of [1n, 2n, 9n]) {
    const v = BigInt(`0x${hex(await t.getStorage(A, s))}`);
    if (v !== 0n) slots[String(s)] = v;
  }
  return { balance: account?.balance, slots, codeLength: (await t.getCode(A)).length };
}

/** The store after: B deleted, A's slot 1 := 0x77 and slot 9 := 0x99, fillers written. */
async function prepared(mode: DeletionMode, convertFirst: boolean) {
  const store = new FaultyStore();
  const { root } = await buildMptBase(store, BASE);
  const preimages = preimagesFromAlloc(BASE);
  const t0 = await TransitionState.open(store, { baseRoot: root, preimages, deletionMode: mode });
  if (convertFirst) await t0.convertAll({ leavesPerStep: 3 });
  await t0.deleteAccount(B); // a mark exists, so mark lookups read the store
  await t0.putStorage(A, 1n, "0x77");
  await t0.putStorage(A, 9n, "0x99");
  for (const f of FILLERS) {
    await t0.putAccount(f, { nonce: 0n, balance: 1n, codeHash: EMPTY_CODE_HASH, codeSize: 0 });
    await t0.putStorage(f, 1n, "0x01");
  }
  await t0.persist();
  return { store, preimages };
}

const BEFORE: Model = { balance: 5n, slots: { 1: 0x77n, 2: 0x22n, 9: 0x99n }, codeLength: 70 };

function finalAlloc(a: GenesisAlloc[string] | undefined): GenesisAlloc {
  const out: Record<string, GenesisAlloc[string]> = {};
  if (a !== undefined) out[A] = a;
  for (const f of FILLERS) out[f] = { balance: "0x1", storage: { [quantity(1n)]: "0x01" } };
  return out;
}

const CASES = [
  {
    name: "deleteAccount",
    op: (t: TransitionState) => t.deleteAccount(A),
    modes: ["zero", "remove"] as DeletionMode[],
    after: { balance: undefined, slots: {}, codeLength: 0 } as Model,
    final: finalAlloc(undefined),
  },
  {
    name: "deleteStorage of a slot the overlay wrote over a base value",
    op: (t: TransitionState) => t.deleteStorage(A, 1n),
    // Only 'remove' mode reads anything here (the account mark, for the tombstone); in 'zero'
    // mode the slot's path is loaded already, so no read can fail.
    modes: ["remove"] as DeletionMode[],
    after: { ...BEFORE, slots: { 2: 0x22n, 9: 0x99n } } as Model,
    final: finalAlloc({
      balance: "0x5",
      code: CODE,
      storage: { [quantity(2n)]: "0x22", [quantity(9n)]: "0x99" },
    }),
  },
];

describe("a failed store read leaves the state as before; a retry completes", () => {
  for (const c of CASES) {
    for (const mode of c.modes) {
      it(`${c.name} (${mode} mode; before and after conversion)`, async () => {
        let faults = 0;
        for (const convertFirst of [false, true]) {
          for (let k = 1; ; k++) {
            const { store, preimages } = await prepared(mode, convertFirst);
            const t = await TransitionState.open(store, { preimages }); // overlay loads lazily
            expect(await observe(t)).toEqual(BEFORE);
            store.arm(k);
            const outcome = await c.op(t).then(
              () => "resolved",
              (error: Error) => error.message,
            );
            const hit = store.failed;
            store.arm(0);
            if (!hit) {
              expect(outcome).toBe("resolved");
              expect(await observe(t)).toEqual(c.after);
              break;
            }
            faults++;
            expect(outcome).toMatch(/injected read fault/);
            expect(await observe(t)).toEqual(BEFORE);
            await c.op(t); // the retry
            expect(await observe(t)).toEqual(c.after);
            await t.persist();
            const again = await TransitionState.open(store, { preimages });
            expect(await observe(again)).toEqual(c.after);
            if (mode === "remove") {
              await again.convertAll({ leavesPerStep: 4 });
              const fresh = new BinaryTree();
              applyGenesisAlloc(fresh, c.final);
              expect(hex(again.hash())).toBe(hex(fresh.hash()));
            }
          }
        }
        expect(faults).toBeGreaterThan(0);
      });
    }
  }
});

/** A 'remove'-mode transition over BASE in a fault-injecting store. */
async function openedOverBase() {
  const store = new FaultyStore();
  const { preimages, t } = await openOverAlloc(store, BASE);
  return { store, preimages, t };
}

describe("the final clean-up of marks and tombstones", () => {
  it("is retried after it failed: conversion is not done until it ran", async () => {
    const { store, t } = await openedOverBase();
    await t.deleteAccount(B);
    await t.deleteStorage(A, 1n);
    await t.persist();
    // Fail every listing once, at whichever read it comes: sweep the fault over the last step.
    let sawFailure = false;
    for (let k = 1; !t.converted; k++) {
      store.arm(k);
      await t.convertAll({ leavesPerStep: 100 }).catch(() => undefined);
      if (store.failed) sawFailure = true;
      store.arm(0);
    }
    expect(sawFailure).toBe(true);
    await t.persist();
    const left: string[] = [];
    for await (const [key] of store.inner.entries({
      gte: Uint8Array.of(0x54),
      lt: Uint8Array.of(0x55),
    })) {
      if (key[1] === 0x61 || key[1] === 0x7a) left.push(hex(key));
    }
    expect(left).toEqual([]); // no account mark ("Ta") or leaf tombstone ("Tz") stays
    const fresh = new BinaryTree();
    applyGenesisAlloc(fresh, {
      [A]: { balance: "0x5", code: CODE, storage: { [quantity(2n)]: "0x22" } },
    });
    expect(hex(t.hash())).toBe(hex(fresh.hash()));
    expect(hex(await t.getStorage(A, 1n))).toBe(hex(word(0n)));
  });
});

describe("commitOperations", () => {
  async function opened() {
    const opened = await openedOverBase();
    await opened.t.persist();
    return opened;
  }

  it("a batch the caller never wrote is written by the next persist: the store is complete", async () => {
    const { store, preimages, t } = await opened();
    await t.putStorage(A, 2n, "0x99");
    await t.deleteStorage(A, 1n); // a leaf tombstone (side table)
    await t.commitOperations(); // the caller's batch fails: nothing written
    await t.putStorage(A, 9n, "0x09");
    await t.persist();
    const again = await TransitionState.open(store, { preimages });
    expect(hex(await again.getStorage(A, 1n))).toBe(hex(word(0n)));
    expect(hex(await again.getStorage(A, 2n))).toBe(hex(word(0x99n)));
    expect(hex(await again.getStorage(A, 9n))).toBe(hex(word(9n)));
    await again.convertAll();
    const fresh = new BinaryTree();
    applyGenesisAlloc(fresh, {
      [A]: {
        balance: "0x5",
        code: CODE,
        storage: { [quantity(2n)]: "0x99", [quantity(9n)]: "0x09" },
      },
      [B]: { balance: "0x1", storage: { [quantity(1n)]: "0x01" } },
    });
    expect(hex(again.hash())).toBe(hex(fresh.hash()));
  });

  it("each later commitOperations returns the unconfirmed batches too; commitWritten drops them", async () => {
    const { store, preimages, t } = await opened();
    await t.putStorage(A, 2n, "0x99");
    const first = await t.commitOperations(); // lost
    await t.putStorage(A, 9n, "0x09");
    const second = await t.commitOperations();
    expect(second.operations.length).toBeGreaterThan(0);
    await store.batch(second.operations); // the caller writes only the second batch
    t.commitWritten(second.root);
    const again = await TransitionState.open(store, { preimages });
    expect(hex(await again.getStorage(A, 2n))).toBe(hex(word(0x99n)));
    expect(hex(await again.getStorage(A, 9n))).toBe(hex(word(9n)));
    expect(first.root).not.toEqual(second.root);
    const third = await t.commitOperations();
    // Confirmed: nothing of the earlier batches is handed out again (only the root record).
    expect(third.operations.length).toBe(1);
  });
});

describe("putCode of shorter code in 'remove' mode", () => {
  // The old code's last chunks go and the new chunks land in one overlay call: a failed read,
  // also with a memory bound that evicts between the overlay's calls, leaves neither done. The
  // new code fills the account stem's 128 chunks exactly, so the removals touch only the next
  // stems and a bounded overlay may evict the untouched account stem between them and the puts.
  const LONG = `0x${"5b".repeat(31 * 180)}`;
  const EXACT = `0x${"5b".repeat(31 * 128)}`;
  async function withLongCode() {
    const { store, preimages } = await prepared("remove", false);
    const t = await TransitionState.open(store, { preimages });
    await t.putCode(A, LONG);
    await t.persist();
    return { store, preimages };
  }
  for (const maxNodes of [undefined, 8]) {
    it(`a failed read leaves the old chunks; a retry reaches the fault-free root (maxNodes ${maxNodes ?? "none"})`, async () => {
      const bound = maxNodes === undefined ? {} : { maxNodes };
      const reference = await withLongCode();
      const clean = await TransitionState.open(reference.store, {
        preimages: reference.preimages,
        ...bound,
      });
      await clean.putCode(A, EXACT);
      const expected = hex(clean.hash());
      let faults = 0;
      for (let k = 1; ; k++) {
        const { store, preimages } = await withLongCode();
        const t = await TransitionState.open(store, { preimages, ...bound });
        const before = hex(t.hash());
        store.arm(k);
        const failed = await t.putCode(A, EXACT).then(
          () => false,
          () => true,
        );
        const hit = store.failed;
        store.arm(0);
        if (!hit) {
          expect(failed).toBe(false);
          expect(hex(t.hash())).toBe(expected);
          break;
        }
        faults++;
        expect(failed).toBe(true);
        expect(hex(t.hash()), `read ${k} failed`).toBe(before);
        await t.putCode(A, EXACT);
        expect(hex(t.hash())).toBe(expected);
      }
      expect(faults).toBeGreaterThan(1);
    });
  }
});
