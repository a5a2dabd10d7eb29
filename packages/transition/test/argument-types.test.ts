import { MemoryStore } from "@bintrie/core";
import { describe, expect, it } from "vitest";
import { buildMptBase } from "../src/build-mpt-base.js";
import { accountProgress } from "../src/conversion-cursor.js";
import { parseAlloc } from "../src/genesis-input.js";
import { MptBase } from "../src/mpt-base.js";
import { MapPreimageSource, preimagesFromAlloc, preimagesFromMap } from "../src/preimage-source.js";
import { TransitionError } from "../src/transition-error.js";
import {
  decodeTransitionRecord,
  encodeTransitionRecord,
  type TransitionRecord,
} from "../src/transition-record.js";
import { TransitionState } from "../src/transition-state.js";
import { hex } from "./helpers/bytes.js";

// Every public function checks its arguments at call time: an ill-typed one is
// TransitionError('INVALID_ARGUMENT') whose message names it, never a TypeError or RangeError
// (and never silently accepted).

const A = "0x0100000000000000000000000000000000000000";
const ALLOC = { [A]: { balance: "0x1", storage: { "0x01": "0x02" } } };

/** The error of a call that throws or rejects (undefined if it succeeds). */
async function failure(call: () => unknown): Promise<unknown> {
  try {
    await call();
  } catch (error) {
    return error;
  }
  return undefined;
}

async function setup() {
  const store = new MemoryStore();
  const { root } = await buildMptBase(store, ALLOC);
  const t = await TransitionState.open(store, {
    baseRoot: root,
    preimages: preimagesFromAlloc(ALLOC),
  });
  await t.persist();
  const base = await MptBase.open(store, root);
  const account = (await base.getAccount(
    new Uint8Array(20).fill(0).map((_, i) => (i === 0 ? 1 : 0)),
  ))!;
  return { store, root, t, base, account };
}

const GOOD: TransitionRecord = {
  baseRoot: new Uint8Array(32),
  deletionMode: "zero",
  cursor: { phase: "pending" },
  counters: { accounts: 0, storageSlots: 0, codeChunks: 0, leavesWritten: 0, leavesKept: 0 },
  markedAccounts: 0,
};

describe("ill-typed arguments are INVALID_ARGUMENT naming the argument", () => {
  it("across the public API", async () => {
    const { store, root, t, base, account } = await setup();
    const bad = (value: unknown) => value as never;
    const cases: [string, RegExp, () => unknown][] = [
      ["open(null)", /open: store/, () => TransitionState.open(bad(null))],
      [
        "open(store, null)",
        /open: options/,
        () => TransitionState.open(new MemoryStore(), bad(null)),
      ],
      [
        "reopen with a hex baseRoot",
        /options\.baseRoot/,
        () => TransitionState.open(store, { baseRoot: bad(hex(root)) }),
      ],
      [
        "open with a misspelt option",
        /^TransitionState\.open: options: unknown option 'groupdepth' \(known: baseRoot, /,
        () => TransitionState.open(new MemoryStore(), bad({ baseRoot: root, groupdepth: 3 })),
      ],
      ["convertAll(null)", /convertAll: options/, () => t.convertAll(bad(null))],
      [
        "convertAll with a misspelt option",
        /^convertAll: options: unknown option 'leavePerStep' /,
        () => t.convertAll(bad({ leavePerStep: 1 })),
      ],
      [
        "convertAll({ onProgress: 5 })",
        /options\.onProgress/,
        () => t.convertAll({ onProgress: bad(5) }),
      ],
      [
        "setPreimageSource(null)",
        /setPreimageSource: source/,
        () => t.setPreimageSource(bad(null)),
      ],
      ["setPreimageSource({})", /setPreimageSource: source/, () => t.setPreimageSource(bad({}))],
      ["getStorage(A, -1n)", /getStorage: slot/, () => t.getStorage(A, -1n)],
      [
        "buildMptBase(store, null)",
        /buildMptBase: alloc/,
        () => buildMptBase(new MemoryStore(), bad(null)),
      ],
      ["buildMptBase(null, alloc)", /buildMptBase: store/, () => buildMptBase(bad(null), ALLOC)],
      [
        "buildMptBase(store, [{}])",
        /buildMptBase: alloc\[0\]/,
        () => buildMptBase(new MemoryStore(), bad([{}])),
      ],
      [
        "preimagesFromAlloc(null)",
        /preimagesFromAlloc: alloc/,
        () => preimagesFromAlloc(bad(null)),
      ],
      ["preimagesFromMap(null)", /preimagesFromMap: entries/, () => preimagesFromMap(bad(null))],
      [
        "preimagesFromMap([[1, 2]])",
        /preimagesFromMap: entries\[0\]/,
        () => preimagesFromMap(bad([[1, 2]])),
      ],
      [
        "MapPreimageSource.add(null)",
        /add: preimage/,
        () => new MapPreimageSource().add(bad(null)),
      ],
      [
        "MapPreimageSource.add('0x01')",
        /add: preimage/,
        () => new MapPreimageSource().add(bad("0x01")),
      ],
      ["MptBase.getAccount(null)", /getAccount: address/, () => base.getAccount(bad(null))],
      [
        "MptBase.getAccount(19 bytes)",
        /getAccount: address/,
        () => base.getAccount(new Uint8Array(19)),
      ],
      [
        "MptBase.getStorage(account, 1 byte)",
        /getStorage: slot/,
        () => base.getStorage(account, Uint8Array.of(1)),
      ],
      [
        "decodeTransitionRecord(null)",
        /decodeTransitionRecord: bytes/,
        () => decodeTransitionRecord(bad(null)),
      ],
      [
        "accountProgress(null, key)",
        /accountProgress: cursor/,
        () => accountProgress(bad(null), new Uint8Array(32)),
      ],
      [
        "accountProgress(cursor, null)",
        /accountProgress: hashedAddress/,
        () => accountProgress({ phase: "pending" }, bad(null)),
      ],
      [
        "encodeTransitionRecord(counter 1.5)",
        /counters\.accounts/,
        () => encodeTransitionRecord({ ...GOOD, counters: { ...GOOD.counters, accounts: 1.5 } }),
      ],
      [
        "encodeTransitionRecord(counter -1)",
        /counters\.accounts/,
        () => encodeTransitionRecord({ ...GOOD, counters: { ...GOOD.counters, accounts: -1 } }),
      ],
      [
        "encodeTransitionRecord(deletionMode 'bogus')",
        /deletionMode/,
        () => encodeTransitionRecord({ ...GOOD, deletionMode: bad("bogus") }),
      ],
      [
        "encodeTransitionRecord(phase 'bogus')",
        /cursor\.phase/,
        () => encodeTransitionRecord({ ...GOOD, cursor: bad({ phase: "bogus" }) }),
      ],
      [
        "encodeTransitionRecord(baseRoot 5 bytes)",
        /baseRoot/,
        () => encodeTransitionRecord({ ...GOOD, baseRoot: new Uint8Array(5) }),
      ],
      [
        "encodeTransitionRecord(account 3 bytes)",
        /cursor\.account/,
        () =>
          encodeTransitionRecord({
            ...GOOD,
            cursor: {
              phase: "converting",
              account: new Uint8Array(3),
              lastSlot: undefined,
              storageDone: false,
            },
          }),
      ],
      ["parseAlloc(5)", /parseAlloc: alloc/, () => parseAlloc(bad(5))],
    ];
    const wrong: string[] = [];
    for (const [label, names, call] of cases) {
      const error = await failure(call);
      const ok =
        error instanceof TransitionError &&
        error.code === "INVALID_ARGUMENT" &&
        names.test(error.message);
      if (!ok) wrong.push(`${label}: ${error === undefined ? "accepted" : String(error)}`);
    }
    expect(wrong).toEqual([]);
    // A bad option is refused before anything ran: no step was converted or persisted.
    expect(t.converted).toBe(false);
  });
});
