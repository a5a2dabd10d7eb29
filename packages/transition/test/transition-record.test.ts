import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ConversionCursor } from "../src/conversion-cursor.js";
import { accountProgress } from "../src/conversion-cursor.js";
import {
  decodeTransitionRecord,
  encodeTransitionRecord,
  type TransitionRecord,
} from "../src/transition-record.js";

const bytes32 = fc.uint8Array({ minLength: 32, maxLength: 32 });
const cursor: fc.Arbitrary<ConversionCursor> = fc.oneof(
  fc.constant({ phase: "pending" as const }),
  fc.constant({ phase: "done" as const }),
  fc.record({
    phase: fc.constant("converting" as const),
    account: bytes32,
    lastSlot: fc.option(bytes32, { nil: undefined }),
    storageDone: fc.constant(false),
  }),
  fc.record({
    phase: fc.constant("converting" as const),
    account: bytes32,
    lastSlot: fc.constant(undefined),
    storageDone: fc.constant(true),
  }),
);
const prefix = (first: number) =>
  fc.uint8Array({ maxLength: 3 }).map((tail) => Uint8Array.of(first, ...tail));
const count = fc.nat({ max: Number.MAX_SAFE_INTEGER });
const record: fc.Arbitrary<TransitionRecord> = fc.record({
  baseRoot: bytes32,
  deletionMode: fc.constantFrom("zero" as const, "remove" as const),
  cursor,
  counters: fc.record({
    accounts: count,
    storageSlots: count,
    codeChunks: count,
    leavesWritten: count,
    leavesKept: count,
  }),
  markedAccounts: count,
  // Distinct first bytes: a layout whose prefixes overlap is refused.
  layout: fc.record({
    mptNodePrefix: prefix(0x4d),
    codePrefix: prefix(0x43),
    sidePrefix: prefix(0x54),
  }),
  baseStorageIndexed: fc.boolean(),
});

describe("transition record (root record extra bytes)", () => {
  it("round-trips every record", () => {
    fc.assert(
      fc.property(record, (r) => {
        expect(decodeTransitionRecord(encodeTransitionRecord(r))).toEqual(r);
      }),
    );
  });

  it("rejects bad magic, truncation, unknown versions, modes and phases", () => {
    const good = encodeTransitionRecord({
      baseRoot: new Uint8Array(32),
      deletionMode: "zero",
      cursor: { phase: "pending" },
      counters: { accounts: 0, storageSlots: 0, codeChunks: 0, leavesWritten: 0, leavesKept: 0 },
      markedAccounts: 0,
    });
    const mutate = (at: number, value: number) => {
      const b = good.slice();
      b[at] = value;
      return b;
    };
    expect(() => decodeTransitionRecord(mutate(0, 0))).toThrow(/magic/);
    expect(() => decodeTransitionRecord(good.subarray(0, good.length - 1))).toThrow(/bytes/);
    expect(() => decodeTransitionRecord(mutate(4, 9))).toThrow(/version 9/);
    expect(() => decodeTransitionRecord(mutate(5, 7))).toThrow(/deletion mode/);
    expect(() => decodeTransitionRecord(mutate(38, 3))).toThrow(/phase/);
    expect(() => decodeTransitionRecord(mutate(71, 3))).toThrow(/slot state/);
  });

  it("account progress follows the cursor in hashed-key order", () => {
    const at = new Uint8Array(32).fill(0x80);
    const below = new Uint8Array(32).fill(0x7f);
    const above = new Uint8Array(32).fill(0x81);
    const c: ConversionCursor = {
      phase: "converting",
      account: at,
      lastSlot: undefined,
      storageDone: false,
    };
    expect(accountProgress(c, below)).toBe("converted");
    expect(accountProgress(c, at)).toBe("partial");
    expect(accountProgress({ ...c, storageDone: true }, at)).toBe("converted");
    expect(accountProgress(c, above)).toBe("untouched");
    expect(accountProgress({ phase: "pending" }, below)).toBe("untouched");
    expect(accountProgress({ phase: "done" }, above)).toBe("converted");
  });
});
