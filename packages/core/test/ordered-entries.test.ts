import { sha256 } from "@noble/hashes/sha2.js";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compareBytes } from "../src/bytes/index.js";
import { BinaryTree, MemoryStore, openTree, TreeError } from "../src/index.js";
import { expectTypedError } from "./helpers/expect-error.js";
import { keyArbAt } from "./helpers/key-arbitraries.js";

const hex = (b: Uint8Array) => Buffer.from(b).toString("hex");

const keyArb = keyArbAt({
  0: fc.constantFrom(0x00, 0x7f, 0x80, 0xff),
  17: fc.constantFrom(0, 1, 0xfe),
  31: fc.constantFrom(0, 3, 255),
});

function expected(model: Map<string, Uint8Array>, start?: Uint8Array, end?: Uint8Array): string[] {
  return [...model.keys()]
    .filter((k) => (start === undefined || k >= hex(start)) && (end === undefined || k < hex(end)))
    .sort();
}

describe("entries: key order from a start key", () => {
  it("agrees with the sorted model for random trees and ranges (sync and async, zero and remove modes)", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(keyArb, fc.boolean()), { maxLength: 30 }),
        fc.option(keyArb, { nil: undefined }),
        fc.option(keyArb, { nil: undefined }),
        fc.constantFrom("zero" as const, "remove" as const),
        async (ops, start, end, deletionMode) => {
          const tree = new BinaryTree({ deletionMode });
          const model = new Map<string, Uint8Array>();
          for (const [key, del] of ops) {
            if (del) {
              tree.delete(key);
              if (deletionMode === "zero") model.set(hex(key), new Uint8Array(32));
              else model.delete(hex(key));
            } else {
              const value = sha256(key);
              tree.put(key, value);
              model.set(hex(key), value);
            }
          }
          const want = expected(model, start, end);
          const sync = [...tree.entriesSync({ start, end })];
          expect(sync.map(([k]) => hex(k))).toEqual(want);
          for (const [k, v] of sync) expect(hex(v)).toBe(hex(model.get(hex(k))!));
          const got: string[] = [];
          for await (const [k] of tree.entries({ start, end })) got.push(hex(k));
          expect(got).toEqual(want);
        },
      ),
      { numRuns: 150 },
    );
  });

  it("iterates 5,200 entries of a lazily opened tree in key order, from the start and from a start key, within the memory bound", async () => {
    const store = new MemoryStore();
    const built = new BinaryTree({ store });
    const keys: Uint8Array[] = [];
    for (let i = 0; i < 5200; i++) {
      const key = sha256(Uint8Array.of(i >> 8, i & 0xff));
      // Two values on some stems, so stems with several entries are covered too.
      if (i % 7 === 0) key[31] = 0;
      keys.push(key);
      built.put(key, sha256(key));
    }
    const root = await built.persist();
    const sorted = keys.map(hex).sort();
    const unique = [...new Set(sorted)];

    const maxNodes = 400;
    const lazy = await openTree(store, { maxNodes });
    let count = 0;
    let previous: Uint8Array = new Uint8Array(0);
    let peak = 0;
    for await (const [key, value] of lazy.entries()) {
      expect(compareBytes(previous, key)).toBeLessThan(0);
      expect(hex(value)).toBe(hex(sha256(key)));
      previous = key;
      count++;
      const { internal, stem } = lazy.stats();
      peak = Math.max(peak, internal + stem);
    }
    expect(count).toBe(unique.length);
    // The bound is applied between loads: at most the bound plus one subtree's loads above it.
    expect(peak).toBeLessThan(maxNodes * 2);

    const startKey = Uint8Array.from(Buffer.from(unique[2600]!, "hex"));
    const fromStart: string[] = [];
    for await (const [key] of (await openTree(store, { maxNodes })).entries({ start: startKey })) {
      fromStart.push(hex(key));
    }
    expect(fromStart).toEqual(unique.slice(2600));
    expect(hex(lazy.hash())).toBe(hex(root));
  });

  it("entriesSync on a lazily opened tree names the missing node; bad ranges are coded errors", async () => {
    const store = new MemoryStore();
    const tree = new BinaryTree({ store, groupDepth: 1 });
    for (let i = 0; i < 8; i++) tree.put(sha256(Uint8Array.of(i)), sha256(Uint8Array.of(i, i)));
    await tree.persist();
    const lazy = await openTree(store);
    expectTypedError(() => [...lazy.entriesSync()], TreeError, "MISSING_NODE", "is not loaded");
    expectTypedError(
      () => [...tree.entriesSync({ start: new Uint8Array(31) })],
      TreeError,
      "INVALID_KEY",
      "start",
    );
  });
});
