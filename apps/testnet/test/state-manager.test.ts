import { BinaryTree, MemoryStore } from "@bintrie/core";
import { Account, Address, bytesToHex, hexToBytes, KECCAK256_RLP } from "@ethereumjs/util";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { BinaryStateManager, NON_EMPTY_STORAGE_MARKER } from "../src/state/binary-state-manager.js";
import { StateManagerError } from "../src/state/state-manager-error.js";

const A = new Address(hexToBytes("0x00000000000000000000000000000000000000aa"));
const B = new Address(hexToBytes("0x00000000000000000000000000000000000000bb"));
const slot = (n: number): Uint8Array => {
  const s = new Uint8Array(32);
  s[31] = n & 0xff;
  s[0] = n >> 8;
  return s;
};

async function withAccount(state: BinaryStateManager, address = A, balance = 5n): Promise<void> {
  await state.putAccount(address, new Account(1n, balance));
}

describe("BinaryStateManager: reads, writes and roots", () => {
  it("an account round-trips with code and storage; getStorage strips leading zeros", async () => {
    const state = new BinaryStateManager();
    await withAccount(state);
    await state.putCode(A, hexToBytes("0x6001600055"));
    await state.putStorage(A, slot(3), hexToBytes("0x0000ff"));
    const account = await state.getAccount(A);
    expect(account?.nonce).toBe(1n);
    expect(account?.balance).toBe(5n);
    expect(account?.codeSize).toBe(5);
    expect(bytesToHex(await state.getCode(A))).toBe("0x6001600055");
    expect(bytesToHex(await state.getStorage(A, slot(3)))).toBe("0xff");
    expect(account?.storageRoot).toEqual(NON_EMPTY_STORAGE_MARKER);
    await state.getStateRoot();
    // Same answers from the committed tree.
    state.clearCaches();
    expect(bytesToHex(await state.getCode(A))).toBe("0x6001600055");
    expect(bytesToHex(await state.getStorage(A, slot(3)))).toBe("0xff");
    expect(await state.getCodeSize(A)).toBe(5);
  });

  it("writing zero to a never-written slot leaves the root unchanged", async () => {
    const state = new BinaryStateManager();
    await withAccount(state);
    const before = await state.getStateRoot();
    await state.putStorage(A, slot(9), new Uint8Array(0));
    await state.putStorage(A, slot(300), hexToBytes("0x00"));
    expect(await state.getStateRoot()).toEqual(before);
  });

  it("a slot set then cleared is a present zero leaf: root differs from never written", async () => {
    const written = new BinaryStateManager();
    await withAccount(written);
    await written.putStorage(A, slot(9), hexToBytes("0x01"));
    await written.getStateRoot();
    await written.putStorage(A, slot(9), new Uint8Array(0));
    const cleared = await written.getStateRoot();
    const never = new BinaryStateManager();
    await withAccount(never);
    expect(cleared).not.toEqual(await never.getStateRoot());
    expect((await written.getStorage(A, slot(9))).length).toBe(0);
    expect((await written.getAccount(A))?.storageRoot).toEqual(KECCAK256_RLP);
  });

  it("deleteAccount: account and every committed slot read as absent, and stay so after commit", async () => {
    const state = new BinaryStateManager();
    await withAccount(state);
    await state.putCode(A, hexToBytes("0x00"));
    await state.putStorage(A, slot(1), hexToBytes("0x11"));
    await state.putStorage(A, slot(700), hexToBytes("0x22"));
    await state.getStateRoot();
    await state.deleteAccount(A);
    expect(await state.getAccount(A)).toBeUndefined();
    expect((await state.getStorage(A, slot(1))).length).toBe(0);
    await state.getStateRoot();
    state.clearCaches();
    expect(await state.getAccount(A)).toBeUndefined();
    expect((await state.getStorage(A, slot(700))).length).toBe(0);
    expect((await state.dumpState()).size).toBe(0);
    // Re-created at the same address: no old storage, no old code.
    await withAccount(state, A, 1n);
    expect((await state.getStorage(A, slot(1))).length).toBe(0);
    expect((await state.getCode(A)).length).toBe(0);
  });

  it("deleting an account the tree never had writes nothing", async () => {
    const state = new BinaryStateManager();
    await withAccount(state, B);
    const before = await state.getStateRoot();
    await withAccount(state);
    await state.putStorage(A, slot(2), hexToBytes("0x02"));
    await state.deleteAccount(A);
    expect(await state.getStateRoot()).toEqual(before);
  });

  it("geth-ubt: the absent system address writes its zero leaves only when touched outside a system call", async () => {
    const SYSTEM = new Address(hexToBytes("0xfffffffffffffffffffffffffffffffffffffffe"));
    const fresh = () => new BinaryStateManager({ writePolicy: "geth-ubt" });
    // The two zero header leaves, written through the tree's own API.
    const reference = new BinaryTree({ store: new MemoryStore() });
    reference.deleteAccount(SYSTEM.bytes);
    const zeroLeaves = reference.hash();
    const empty = await fresh().getStateRoot();
    expect(zeroLeaves).not.toEqual(empty);

    // A touch (a zero withdrawal, a coinbase paid nothing).
    const touched = fresh();
    await touched.deleteAccount(SYSTEM);
    expect(await touched.getStateRoot()).toEqual(zeroLeaves);

    // A request call: its cleanup's deletion inside, the library's undo after it.
    const called = fresh();
    await called.runSystemCall(() => called.deleteAccount(SYSTEM), true);
    await called.deleteAccount(SYSTEM);
    expect(await called.getStateRoot()).toEqual(empty);
    // One undo only: a later touch in the same block counts.
    await called.runSystemCall(async () => {}, true);
    await called.deleteAccount(SYSTEM);
    await called.deleteAccount(SYSTEM);
    expect(await called.getStateRoot()).toEqual(zeroLeaves);

    // A touch in a reverted checkpoint is undone with it.
    const reverted = fresh();
    await reverted.checkpoint();
    await reverted.deleteAccount(SYSTEM);
    await reverted.revert();
    expect(await reverted.getStateRoot()).toEqual(empty);
  });

  it("checkpoint/revert undoes accounts, storage, code and clears; commit keeps them", async () => {
    const state = new BinaryStateManager();
    await withAccount(state);
    await state.putStorage(A, slot(1), hexToBytes("0x01"));
    await state.checkpoint();
    await state.putStorage(A, slot(1), hexToBytes("0x02"));
    await state.putCode(A, hexToBytes("0x60"));
    await state.checkpoint();
    await state.clearStorage(A);
    await state.deleteAccount(B);
    expect((await state.getStorage(A, slot(1))).length).toBe(0);
    await state.revert();
    expect(bytesToHex(await state.getStorage(A, slot(1)))).toBe("0x02");
    await state.commit();
    expect(bytesToHex(await state.getCode(A))).toBe("0x60");
    await state.checkpoint();
    await state.putAccount(A, new Account(9n, 9n));
    await state.revert();
    expect((await state.getAccount(A))?.nonce).toBe(1n);
  });

  it("a revert after a root computed inside a checkpoint restores the committed tree", async () => {
    const state = new BinaryStateManager();
    await withAccount(state);
    await state.putStorage(A, slot(5), hexToBytes("0x05"));
    const committed = await state.getStateRoot();
    await state.checkpoint();
    await state.putStorage(A, slot(5), hexToBytes("0x06"));
    await state.putStorage(A, slot(6), hexToBytes("0x07"));
    const inside = await state.getStateRoot();
    expect(inside).not.toEqual(committed);
    expect(await state.hasStateRoot(inside)).toBe(true);
    await state.revert();
    expect(bytesToHex(await state.getStorage(A, slot(5)))).toBe("0x05");
    expect((await state.getStorage(A, slot(6))).length).toBe(0);
    expect(await state.getStateRoot()).toEqual(committed);
  });

  it("commit of the outermost checkpoint persists a root the store can reopen", async () => {
    const store = new MemoryStore();
    const state = new BinaryStateManager({ store });
    await state.checkpoint();
    await withAccount(state);
    await state.putStorage(A, slot(200), hexToBytes("0xbeef"));
    await state.putCode(A, new Uint8Array(100).fill(0x5b));
    const root = await state.getStateRoot();
    await state.commit();
    expect(state.committedRoot).toEqual(root);
    const reopened = await BinaryStateManager.open(store);
    expect(await reopened.getStateRoot()).toEqual(root);
    expect(bytesToHex(await reopened.getStorage(A, slot(200)))).toBe("0xbeef");
    expect((await reopened.getCode(A)).length).toBe(100);
    expect([...(await reopened.dumpState()).keys()]).toEqual([A.toString()]);
  });

  it("setStateRoot: the committed root drops pending changes, an unknown root is an error", async () => {
    const state = new BinaryStateManager();
    await withAccount(state);
    const root = await state.getStateRoot();
    await state.putAccount(A, new Account(2n, 2n));
    await state.setStateRoot(root);
    expect((await state.getAccount(A))?.nonce).toBe(1n);
    await expect(state.setStateRoot(new Uint8Array(32).fill(7))).rejects.toMatchObject({
      code: "UNKNOWN_STATE_ROOT",
    });
    expect(await state.hasStateRoot(new Uint8Array(32).fill(7))).toBe(false);
  });

  it("a shallow copy starts at the committed state and never writes into the original", async () => {
    const state = new BinaryStateManager();
    await withAccount(state);
    const root = await state.getStateRoot();
    const copy = state.shallowCopy();
    await copy.putAccount(B, new Account(0n, 1n));
    await copy.putStorage(A, slot(1), hexToBytes("0x01"));
    const copyRoot = await copy.getStateRoot();
    expect(copyRoot).not.toEqual(root);
    expect(await state.getAccount(B)).toBeUndefined();
    state.clearCaches();
    expect((await state.getStorage(A, slot(1))).length).toBe(0);
    expect(await state.getStateRoot()).toEqual(root);
  });

  it("typed errors: short slot keys, oversized values, unbalanced commits, unknown code hashes", async () => {
    const state = new BinaryStateManager();
    await expect(state.getStorage(A, new Uint8Array(31))).rejects.toBeInstanceOf(StateManagerError);
    await expect(state.putStorage(A, slot(1), new Uint8Array(33))).rejects.toMatchObject({
      code: "INVALID_STORAGE_VALUE",
    });
    await expect(state.commit()).rejects.toMatchObject({ code: "UNBALANCED_CHECKPOINT" });
    await expect(
      state.putAccount(A, new Account(0n, 0n, undefined, new Uint8Array(32).fill(1))),
    ).rejects.toMatchObject({ code: "UNKNOWN_CODE_HASH" });
  });
});

/** Operations for the model-based property test. */
type Op =
  | { kind: "put"; account: number; slot: number; value: number }
  | { kind: "balance"; account: number; value: number }
  | { kind: "delete"; account: number }
  | { kind: "clear"; account: number }
  | { kind: "checkpoint" }
  | { kind: "commit" }
  | { kind: "revert" }
  | { kind: "root" };

const ADDRESSES = [A, B, new Address(hexToBytes("0x00000000000000000000000000000000000000cc"))];
const SLOTS = [0, 1, 63, 64, 255, 256, 4096];

const opArbitrary: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    kind: fc.constant("put" as const),
    account: fc.nat(2),
    slot: fc.nat(SLOTS.length - 1),
    value: fc.nat(3),
  }),
  fc.record({ kind: fc.constant("balance" as const), account: fc.nat(2), value: fc.nat(3) }),
  fc.record({ kind: fc.constant("delete" as const), account: fc.nat(2) }),
  fc.record({ kind: fc.constant("clear" as const), account: fc.nat(2) }),
  fc.constant({ kind: "checkpoint" as const }),
  fc.constant({ kind: "commit" as const }),
  fc.constant({ kind: "revert" as const }),
  fc.constant({ kind: "root" as const }),
);

interface ModelAccount {
  balance: bigint;
  storage: Map<number, number>;
}
type Model = Map<number, ModelAccount>;

function cloneModel(model: Model): Model {
  const out: Model = new Map();
  for (const [k, v] of model) out.set(k, { balance: v.balance, storage: new Map(v.storage) });
  return out;
}

describe("BinaryStateManager: model-based property", () => {
  it("reads, dumps and roots follow a plain map model under random journaled operations", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(opArbitrary, { maxLength: 40 }), async (ops) => {
        const state = new BinaryStateManager();
        let model: Model = new Map();
        const stack: Model[] = [];
        for (const op of ops) {
          if (op.kind === "checkpoint") {
            stack.push(cloneModel(model));
            await state.checkpoint();
          } else if (op.kind === "commit") {
            if (stack.length === 0) continue;
            stack.pop();
            await state.commit();
          } else if (op.kind === "revert") {
            const saved = stack.pop();
            if (saved === undefined) continue;
            model = saved;
            await state.revert();
          } else if (op.kind === "root") {
            await state.getStateRoot();
          } else if (op.kind === "delete") {
            model.delete(op.account);
            await state.deleteAccount(ADDRESSES[op.account]!);
          } else if (op.kind === "clear") {
            model.get(op.account)?.storage.clear();
            await state.clearStorage(ADDRESSES[op.account]!);
          } else {
            const address = ADDRESSES[op.account]!;
            let entry = model.get(op.account);
            if (entry === undefined) {
              entry = { balance: 0n, storage: new Map() };
              model.set(op.account, entry);
              await state.putAccount(address, new Account(0n, 0n));
            }
            if (op.kind === "balance") {
              entry.balance = BigInt(op.value);
              await state.modifyAccountFields(address, { balance: BigInt(op.value) });
            } else {
              if (op.value === 0) entry.storage.delete(op.slot);
              else entry.storage.set(op.slot, op.value);
              const value = op.value === 0 ? new Uint8Array(0) : Uint8Array.of(op.value);
              await state.putStorage(address, slot(SLOTS[op.slot]!), value);
            }
          }
        }
        while (stack.length > 0) {
          stack.pop();
          await state.commit();
        }
        const root = await state.getStateRoot();
        const dump = await state.dumpState();
        expect(dump.size).toBe(model.size);
        for (const [index, want] of model) {
          const got = dump.get(ADDRESSES[index]!.toString());
          expect(got?.balance).toBe(want.balance);
          expect(got?.storage.size).toBe(want.storage.size);
          for (const [s, v] of want.storage) {
            const key = bytesToHex(slot(SLOTS[s]!));
            expect(got?.storage.get(key)).toEqual(Uint8Array.of(v));
          }
        }
        // The committed state reopens to the same root and the same contents.
        const reopened = await BinaryStateManager.open(state.store);
        expect(await reopened.getStateRoot()).toEqual(root);
        expect((await reopened.dumpState()).size).toBe(model.size);
      }),
      { numRuns: 150 },
    );
  });
});

/** A MemoryStore whose next `batch` rejects once (a disk error, an aborted transaction). */
class RejectOnceStore extends MemoryStore {
  armed = false;
  override async batch(
    ...args: Parameters<MemoryStore["batch"]>
  ): ReturnType<MemoryStore["batch"]> {
    if (this.armed) {
      this.armed = false;
      throw new Error("batch rejected (test)");
    }
    return super.batch(...args);
  }
}

describe("BinaryStateManager: a rejected store batch loses nothing (two-phase commit)", () => {
  it("the retry writes the nodes and the index, and a reopened state has them", async () => {
    const store = new RejectOnceStore();
    const state = new BinaryStateManager({ store });
    await withAccount(state, A, 7n);
    const first = await state.getStateRoot();
    await state.putAccount(B, new Account(2n, 9n));
    await state.putStorage(B, slot(5), hexToBytes("0x2a"));
    store.armed = true;
    await expect(state.getStateRoot()).rejects.toThrow("batch rejected");
    expect(state.committedRoot).toEqual(first);
    const root = await state.getStateRoot();
    expect(root).not.toEqual(first);
    expect(state.committedRoot).toEqual(root);

    const reopened = await BinaryStateManager.open(store);
    expect(await reopened.getStateRoot()).toEqual(root);
    expect((await reopened.getAccount(B))?.balance).toBe(9n);
    expect(bytesToHex(await reopened.getStorage(B, slot(5)))).toBe("0x2a");
    // The index entries of the rejected batch were written by the retry.
    expect([...(await reopened.dumpState()).keys()]).toEqual([
      "0x00000000000000000000000000000000000000aa",
      "0x00000000000000000000000000000000000000bb",
    ]);
    // Same content as a state that never saw a failure.
    const clean = new BinaryStateManager();
    await withAccount(clean, A, 7n);
    await clean.putAccount(B, new Account(2n, 9n));
    await clean.putStorage(B, slot(5), hexToBytes("0x2a"));
    expect(await clean.getStateRoot()).toEqual(root);
  });
});

describe("BinaryStateManager: a root computed inside a checkpoint is undone by the tree's checkpoints", () => {
  it("revert after getStateRoot: same tree instance (no reopen from the store), committed content back", async () => {
    const state = new BinaryStateManager();
    await withAccount(state, A, 7n);
    const committed = await state.getStateRoot();
    const tree = state.binaryTree;
    await state.checkpoint();
    await state.putAccount(A, new Account(1n, 8n));
    await state.putStorage(A, slot(9), hexToBytes("0x01"));
    const inside = await state.getStateRoot();
    expect(inside).not.toEqual(committed);
    expect(tree.checkpointDepth).toBe(1);
    await state.revert();
    expect(state.binaryTree).toBe(tree);
    expect(tree.checkpointDepth).toBe(0);
    expect(tree.hash()).toEqual(committed);
    expect(await state.getStateRoot()).toEqual(committed);
    expect((await state.getAccount(A))?.balance).toBe(7n);
    // And the commit path: the tree's checkpoint is kept and persisted.
    await state.checkpoint();
    await state.putAccount(A, new Account(1n, 9n));
    const next = await state.getStateRoot();
    await state.commit();
    expect(tree.checkpointDepth).toBe(0);
    expect(state.committedRoot).toEqual(next);
    const reopened = await BinaryStateManager.open(state.store);
    expect((await reopened.getAccount(A))?.balance).toBe(9n);
  });
});
