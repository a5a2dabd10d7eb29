import { describe, expect, it } from "vitest";
import { createIdbStore } from "../../src/index.js";

const b = (...bytes: number[]) => Uint8Array.from(bytes);

describe("IdbStore in Chromium takes its arguments at call time (review)", () => {
  it("changing a batch's keys and values before it resolves changes nothing stored", async () => {
    const store = createIdbStore({ database: `bintrie-idb-review-${Date.now()}`, storeName: "n" });
    const ops = [1, 2, 3].map((k) => ({
      type: "put" as const,
      key: b(k),
      value: new Uint8Array(4).fill(k),
    }));
    const written = store.batch(ops);
    for (const op of ops) {
      op.key[0] = op.key[0]! + 10;
      op.value.fill(9);
    }
    await written;
    const got = await store.getMany([b(1), b(2), b(3), b(11), b(12), b(13)]);
    expect(got.map((v) => v && [...v])).toEqual([
      [1, 1, 1, 1],
      [2, 2, 2, 2],
      [3, 3, 3, 3],
      undefined,
      undefined,
      undefined,
    ]);
    await store.close();
  });
});
