import {
  applyGenesisAlloc,
  type BatchOperation,
  BinaryTree,
  EMPTY_MPT_ROOT as EMPTY_TRIE_ROOT,
  MemoryStore,
} from "@bintrie/core";
import { describe, expect, it } from "vitest";
import { buildMptBase } from "../src/build-mpt-base.js";
import { keccak256 } from "../src/bytes.js";
import { MptBase } from "../src/mpt-base.js";
import { MapPreimageSource, preimagesFromAlloc, preimagesFromMap } from "../src/preimage-source.js";
import { TransitionError } from "../src/transition-error.js";
import { TransitionState } from "../src/transition-state.js";
import { hex, word } from "./helpers/bytes.js";
import { A, B, BASE_ALLOC, openScenario, UnorderedStore } from "./helpers/scenario.js";

async function rejection(promise: Promise<unknown>): Promise<TransitionError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(TransitionError);
    return error as TransitionError;
  }
  throw new Error("expected a rejection");
}

describe("typed errors", () => {
  it("MISSING_PREIMAGE names the hashed storage key (and the account)", async () => {
    const store = new MemoryStore();
    const { root } = await buildMptBase(store, BASE_ALLOC);
    const preimages = new MapPreimageSource();
    preimages.add(A);
    preimages.add(B);
    preimages.add(word(0n));
    preimages.add(word(64n));
    preimages.add(word(1n)); // slot 300 of A is missing
    const t = await TransitionState.open(store, { baseRoot: root, preimages });
    const error = await rejection(t.convertAll({ leavesPerStep: 1 }));
    expect(error.code).toBe("MISSING_PREIMAGE");
    expect(hex(error.hashedKey!)).toBe(hex(keccak256(word(300n))));
    expect(error.message).toContain(hex(keccak256(word(300n))));
    expect(error.message).toContain(hex(A));
  });

  it("MISSING_PREIMAGE for an account names keccak(address)", async () => {
    const store = new MemoryStore();
    const { root } = await buildMptBase(store, BASE_ALLOC);
    const preimages = new MapPreimageSource();
    preimages.add(B);
    preimages.add(word(1n)); // everything but A itself
    const t = await TransitionState.open(store, { baseRoot: root, preimages });
    const error = await rejection(t.convertAll());
    expect(error.code).toBe("MISSING_PREIMAGE");
    expect(hex(error.hashedKey!)).toBe(hex(keccak256(A)));
  });

  it("a failed step loses nothing: retrying after a transient preimage failure converts every leaf", async () => {
    const store = new MemoryStore();
    const { root } = await buildMptBase(store, BASE_ALLOC);
    const complete = preimagesFromAlloc(BASE_ALLOC);
    let failures = 0;
    const flaky = {
      preimage: (hashed: Uint8Array) => {
        if (hex(hashed) === hex(keccak256(word(64n))) && failures++ === 0) {
          return Promise.reject(new Error("preimage db unavailable"));
        }
        return complete.preimage(hashed);
      },
    };
    const t = await TransitionState.open(store, { baseRoot: root, preimages: flaky });
    await expect(t.convertAll({ leavesPerStep: 1 })).rejects.toThrow(/unavailable/);
    await t.convertAll({ leavesPerStep: 1 });
    const fresh = new BinaryTree();
    applyGenesisAlloc(fresh, BASE_ALLOC);
    expect(hex(t.hash())).toBe(hex(fresh.hash()));
    expect(t.counters.storageSlots).toBe(4);
  });

  it("BAD_PREIMAGE when a source answers bytes that do not hash to the key", async () => {
    const store = new MemoryStore();
    const { root } = await buildMptBase(store, BASE_ALLOC);
    const t = await TransitionState.open(store, {
      baseRoot: root,
      preimages: { preimage: async () => B },
    });
    const error = await rejection(t.convertStep(10));
    expect(error.code).toBe("BAD_PREIMAGE");
    expect(() => preimagesFromMap([[hex(keccak256(A)), B]])).toThrow(/is not the key/);
  });

  it("NO_PREIMAGE_SOURCE when converting without one", async () => {
    const store = new MemoryStore();
    const { root } = await buildMptBase(store, BASE_ALLOC);
    const t = await TransitionState.open(store, { baseRoot: root });
    expect((await rejection(t.convertStep())).code).toBe("NO_PREIMAGE_SOURCE");
  });

  it("NO_BASE_ROOT, MISSING_BASE_DATA, RECORD_MISMATCH, NOT_A_TRANSITION on open", async () => {
    expect((await rejection(TransitionState.open(new MemoryStore()))).code).toBe("NO_BASE_ROOT");
    const missing = await rejection(
      TransitionState.open(new MemoryStore(), { baseRoot: keccak256(A) }),
    );
    expect(missing.code).toBe("MISSING_BASE_DATA");
    expect(missing.message).toContain(hex(keccak256(A)));
    // The empty MPT root needs no node.
    const empty = await TransitionState.open(new MemoryStore(), { baseRoot: EMPTY_TRIE_ROOT });
    expect(await empty.getAccount(A)).toBeUndefined();

    const { store, t } = await openScenario();
    await t.persist();
    expect((await rejection(TransitionState.open(store, { baseRoot: EMPTY_TRIE_ROOT }))).code).toBe(
      "RECORD_MISMATCH",
    );
    expect((await rejection(TransitionState.open(store, { deletionMode: "remove" }))).code).toBe(
      "RECORD_MISMATCH",
    );

    const plain = new MemoryStore();
    const tree = new BinaryTree({ store: plain });
    tree.put(new Uint8Array(32), new Uint8Array(32).fill(1));
    await tree.persist();
    expect((await rejection(TransitionState.open(plain, { baseRoot: EMPTY_TRIE_ROOT }))).code).toBe(
      "NOT_A_TRANSITION",
    );
  });

  it("MISSING_BASE_DATA names a missing MPT node met during conversion", async () => {
    const { store, t } = await openScenario();
    const nodes: Uint8Array[] = [];
    for await (const [key] of store.entries!())
      if (key[0] === 0x4d && key.length === 33) nodes.push(key);
    const root = hex(t.baseRoot);
    const victim = nodes.find((k) => hex(k.subarray(1)) !== root)!;
    await store.batch([{ type: "del", key: victim } satisfies BatchOperation]);
    const error = await rejection(t.convertAll());
    expect(error.code).toBe("MISSING_BASE_DATA");
    expect(error.message).toContain(hex(victim.subarray(1)));
  });

  it("STORE_NOT_ORDERED: deleteAccount needs KVStore.entries", async () => {
    const { t } = await openScenario({ store: new UnorderedStore() });
    expect(await t.getAccount(A)).toBeDefined();
    expect((await rejection(t.deleteAccount(A))).code).toBe("STORE_NOT_ORDERED");
    // Nothing was written before the failure: A is intact.
    expect((await t.getAccount(A))?.balance).toBe(100n);
    expect(hex(await t.getStorage(A, 300n))).toBe(hex(word(3n)));
  });

  it("INVALID_ARGUMENT for malformed addresses, slots, values and step sizes", async () => {
    const { t } = await openScenario();
    expect(() => t.getAccount(new Uint8Array(19))).toThrow(TransitionError);
    expect(() => t.getStorage(A, new Uint8Array(31))).toThrow(/32 bytes/);
    expect(() => t.putStorage(A, 1n, new Uint8Array(33))).toThrow(/at most 32 bytes/);
    expect((await rejection(t.convertStep(0))).code).toBe("INVALID_ARGUMENT");
    await expect(MptBase.open(new MemoryStore(), new Uint8Array(31))).rejects.toThrow(/32 bytes/);
  });
});
