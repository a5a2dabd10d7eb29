import { join } from "node:path";
import { StoreError } from "@bintrie/core";
import { collectEntries } from "@bintrie/store-testkit";
import { expectStoreError } from "@bintrie/store-testkit/vitest";
import { afterAll, describe, expect, it } from "vitest";
import { LevelStore, type LevelStoreOptions, openLevelStore } from "../src/index.js";
import { tempDirs } from "./helpers/temp-dir.js";

const dirs = tempDirs("level-review");
afterAll(() => dirs.removeAll());
const b = (...bytes: number[]) => Uint8Array.from(bytes);
const fresh = (options?: LevelStoreOptions) => openLevelStore(join(dirs.make(), "db"), options);

describe("LevelStore arguments (review)", () => {
  it("getMany of something that is not an array is INVALID_ARGUMENT, not a TypeError", async () => {
    const store = await fresh();
    for (const keys of [null, undefined, 5, { length: 1 }]) {
      const error = await expectStoreError(
        store.getMany(keys as unknown as Uint8Array[]),
        "INVALID_ARGUMENT",
      );
      expect(error.message).toMatch(/^getMany: keys must be an array/);
    }
    await store.close();
  });

  it("entries with a range that is not { gte?, lt? } of bytes is INVALID_ARGUMENT, not an empty scan", async () => {
    const store = await fresh();
    await store.batch([{ type: "put", key: b(0x61), value: b(1) }]);
    const bad: [unknown, RegExp][] = [
      [null, /^entries: range must be \{ gte\?, lt\? \}, got null/],
      [5, /^entries: range must be/],
      [{ gte: "a" }, /^entries: range\.gte must be a Uint8Array, got "a"/],
      [{ lt: 5 }, /^entries: range\.lt must be a Uint8Array, got 5/],
    ];
    for (const [range, message] of bad) {
      const error = await expectStoreError(
        collectEntries(store.entries(range as { gte?: Uint8Array })),
        "INVALID_ARGUMENT",
      );
      expect(error.message).toMatch(message);
    }
    await store.close();
  });

  it("batchPacked of the wrong shape is INVALID_ARGUMENT describing each argument", async () => {
    const store = await fresh();
    const error = await expectStoreError(
      store.batchPacked("ab" as unknown as Uint8Array, [1, 2] as unknown as Uint32Array, 1),
      "INVALID_ARGUMENT",
    );
    expect(error.message).toBe(
      'batchPacked: expected bytes, a Uint32Array of 2 x count record ends and a count, got bytes "ab", ends an array of 2 elements, count 1',
    );
    await store.close();
  });

  it("openLevelStore refuses options of the wrong type or range, naming the option, before opening", async () => {
    const location = join(dirs.make(), "db");
    const bad: [unknown, string][] = [
      [null, "options must be an object, got null"],
      [5, "options must be an object, got 5"],
      [{ sync: "no" }, 'options.sync must be a boolean, got "no"'],
      [{ createIfMissing: 0 }, "options.createIfMissing must be a boolean, got 0"],
      [{ errorIfExists: "yes" }, 'options.errorIfExists must be a boolean, got "yes"'],
      [{ cacheSize: "8MB" }, 'options.cacheSize must be a non-negative integer (bytes), got "8MB"'],
      [{ cacheSize: -1 }, "options.cacheSize must be a non-negative integer (bytes), got -1"],
      [{ writeBufferSize: 1.5 }, "options.writeBufferSize must be a non-negative integer"],
      [{ prefix: 7 }, "options.prefix must be a Uint8Array or a string, got 7"],
      [{ prefx: "a/" }, "unknown option 'prefx' in options (known: prefix, "],
    ];
    for (const [options, message] of bad) {
      const error = await expectStoreError(
        openLevelStore(location, options as LevelStoreOptions),
        "INVALID_ARGUMENT",
      );
      expect(error.message).toContain(message);
    }
    // Nothing was opened, so nothing holds the lock.
    const store = await openLevelStore(location, { sync: false, cacheSize: 0 });
    expect(store.sync).toBe(false);
    await store.close();
  });

  it("a location of any type is INVALID_ARGUMENT, even one that cannot become a string", async () => {
    for (const location of [Object.create(null), Symbol("x"), null, ""]) {
      const error = await expectStoreError(
        openLevelStore(location as unknown as string),
        "INVALID_ARGUMENT",
      );
      expect(error.message).toMatch(/^openLevelStore: location must be a non-empty string, got /);
    }
  });

  it("the LevelStore constructor refuses a missing init with INVALID_ARGUMENT", () => {
    expect(
      () => new LevelStore(null as unknown as ConstructorParameters<typeof LevelStore>[0]),
    ).toThrow(expect.objectContaining({ name: "StoreError", code: "INVALID_ARGUMENT" }));
  });

  it("get reads the key as it was at call time (classic-level reads it on its worker thread)", async () => {
    const store = await fresh();
    await store.batch([1, 2].map((k) => ({ type: "put" as const, key: b(k), value: b(k) })));
    for (let i = 0; i < 20; i++) {
      const key = b(1);
      const read = store.get(key);
      key[0] = 2;
      expect([...(await read)!]).toEqual([1]);
    }
    await store.close();
  });
  it("a Buffer prefix or key is copied, not kept: changing it later changes nothing", async () => {
    const prefix = Buffer.from("a/");
    const store = await fresh({ prefix });
    const extra = Buffer.from("v/");
    const owner = await fresh();
    const view = owner.withPrefix(extra);
    prefix.write("b/");
    extra.write("w/");
    expect(Buffer.from(store.prefix).toString()).toBe("a/");
    expect(Buffer.from(view.prefix).toString()).toBe("v/");
    await store.batch([1, 2].map((k) => ({ type: "put" as const, key: b(k), value: b(k) })));
    const key = Buffer.from([1]);
    const read = store.get(key);
    key[0] = 2;
    expect([...(await read)!]).toEqual([1]);
    await store.close();
    await owner.close();
  });
});

describe("LevelStore close (review)", () => {
  it("a second close() called while the first runs resolves only once the database is closed", async () => {
    const location = join(dirs.make(), "db");
    const store = await openLevelStore(location);
    const ops = Array.from({ length: 50_000 }, (_, i) => ({
      type: "put" as const,
      key: b(1, i >> 8, i & 0xff),
      value: new Uint8Array(64).fill(i),
    }));
    const written = store.batch(ops);
    const first = store.close();
    await store.close();
    // The lock is free: the database is closed, and the batch issued before close() landed.
    const again = await openLevelStore(location);
    expect([...(await again.get(b(1, 195, 79)))!.subarray(0, 1)]).toEqual([79]);
    await again.close();
    await Promise.all([written, first]);
  });

  it("entries() interrupted by close() rejects with STORE_CLOSED, on the store and on a view", async () => {
    const store = await openLevelStore(join(dirs.make(), "db"));
    const view = store.withPrefix("v/");
    const ops = Array.from({ length: 3000 }, (_, i) => ({
      type: "put" as const,
      key: b(i >> 8, i & 0xff),
      value: b(1),
    }));
    await store.batch(ops);
    await view.batch(ops);
    const fromView = view.entries()[Symbol.asyncIterator]();
    await fromView.next();
    let read = 0;
    const scan = (async () => {
      for await (const _ of store.entries()) if (++read === 10) await store.close();
    })();
    const error = await expectStoreError(scan, "STORE_CLOSED");
    expect(error.message).toContain("entries");
    expect(read).toBeLessThan(3000);
    await expectStoreError(
      (async () => {
        for (;;) if ((await fromView.next()).done) return;
      })(),
      "STORE_CLOSED",
    );
    expect(error).toBeInstanceOf(StoreError);
  });
});
