import { expectStoreError } from "@bintrie/store-testkit/vitest";
import { describe, expect, it } from "vitest";
import { openLevelStore } from "../../src/index.js";

let n = 0;
const location = () => `bintrie-level-review-${Date.now()}-${n++}`;
const b = (...bytes: number[]) => Uint8Array.from(bytes);

describe("LevelStore in Chromium (review)", () => {
  it("batchWithSpans and batchPacked copy their chunks at call time", async () => {
    const store = await openLevelStore(location());
    const chunk = b(1, 10, 2, 20, 3, 30);
    const spans = Uint32Array.of(0, 0, 1, 1, 2, 0, 2, 3, 3, 4, 0, 4, 5, 5, 6);
    const written = store.batchWithSpans([], { chunks: [chunk], spans, count: 3 }, 0);
    chunk.fill(0xee);
    await written;
    expect((await store.getMany([b(1), b(2), b(3), b(0xee)])).map((v) => v && [...v])).toEqual([
      [10],
      [20],
      [30],
      undefined,
    ]);
    const bytes = b(4, 40, 5, 50, 6, 60);
    const packed = store.batchPacked(bytes, Uint32Array.of(1, 2, 3, 4, 5, 6), 3);
    bytes.fill(0xdd);
    await packed;
    expect((await store.getMany([b(4), b(5), b(6), b(0xdd)])).map((v) => v && [...v])).toEqual([
      [40],
      [50],
      [60],
      undefined,
    ]);
    await store.close();
  });

  it("get and getMany read the keys as they were at call time", async () => {
    const store = await openLevelStore(location());
    await store.batch([1, 2, 3, 4].map((k) => ({ type: "put" as const, key: b(k), value: b(k) })));
    const key = b(1);
    const one = store.get(key);
    key[0] = 4;
    const keys = [b(1), b(2), b(3)];
    const many = store.getMany(keys);
    for (const k of keys) k[0] = 4;
    expect([...(await one)!]).toEqual([1]);
    expect((await many).map((v) => v && [...v])).toEqual([[1], [2], [3]]);
    await store.close();
  });

  it("honours createIfMissing: false and errorIfExists: true, which browser-level ignores", async () => {
    const name = location();
    const listed = async () => (await indexedDB.databases()).map((d) => d.name);
    const missing = await expectStoreError(
      openLevelStore(name, { createIfMissing: false }),
      "STORE_IO",
    );
    expect(missing.message).toContain(JSON.stringify(name));
    expect(missing.message).toContain("does not exist (createIfMissing is false)");
    expect(await listed()).not.toContain(`level-js-${name}`);

    const created = await openLevelStore(name, { errorIfExists: true });
    await created.batch([{ type: "put", key: b(1), value: b(7) }]);
    await created.close();
    expect(await listed()).toContain(`level-js-${name}`);

    const exists = await expectStoreError(
      openLevelStore(name, { errorIfExists: true }),
      "STORE_IO",
    );
    expect(exists.message).toContain("exists (errorIfExists is true)");
    const reopened = await openLevelStore(name, { createIfMissing: false });
    expect([...(await reopened.get(b(1)))!]).toEqual([7]);
    await reopened.close();
  });
});
