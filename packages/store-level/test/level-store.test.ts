import { join } from "node:path";
import { compareBytes } from "@bintrie/core/bytes";
import { collectEntries, hex } from "@bintrie/store-testkit";
import { expectStoreError } from "@bintrie/store-testkit/vitest";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { type LevelStore, openLevelStore } from "../src/index.js";
import { tempDirs } from "./helpers/temp-dir.js";

const dirs = tempDirs("level-store");
afterAll(() => dirs.removeAll());

describe("LevelStore", () => {
  it("hands out plain Uint8Arrays (not Node Buffers) from get, getMany and entries", async () => {
    const store = await openLevelStore(join(dirs.make(), "db"), { prefix: "p/" });
    await store.batch([{ type: "put", key: Uint8Array.of(1, 2), value: Uint8Array.of(3) }]);
    const single = await store.get(Uint8Array.of(1, 2));
    const [many] = await store.getMany([Uint8Array.of(1, 2)]);
    expect(single?.constructor).toBe(Uint8Array);
    expect(many?.constructor).toBe(Uint8Array);
    for await (const [key, value] of store.entries()) {
      expect(key.constructor).toBe(Uint8Array);
      expect(value.constructor).toBe(Uint8Array);
      expect([...key]).toEqual([1, 2]);
    }
    await store.close();
  });

  it("rejects every operation after close with STORE_CLOSED, and close is idempotent", async () => {
    const store = await openLevelStore(join(dirs.make(), "db"));
    await store.close();
    await store.close();
    const key = Uint8Array.of(1);
    for (const [name, promise] of [
      ["get", store.get(key)],
      ["getMany", store.getMany([key])],
      ["batch", store.batch([{ type: "put", key, value: key }])],
      ["entries", collectEntries(store.entries())],
    ] as const) {
      const error = await expectStoreError(promise, "STORE_CLOSED");
      expect(error.message, name).toContain(name);
    }
    expect(() => store.withPrefix("x")).toThrow(/closed/);
  });

  it("closing a view keeps the database open; closing the owner closes every view", async () => {
    const owner = await openLevelStore(join(dirs.make(), "db"));
    const a = owner.withPrefix("a");
    const b = owner.withPrefix("b");
    await a.batch([{ type: "put", key: Uint8Array.of(1), value: Uint8Array.of(0xa) }]);
    await a.close();
    await expectStoreError(a.get(Uint8Array.of(1)), "STORE_CLOSED");
    expect(await owner.get(Uint8Array.of(0x61, 1))).toEqual(Uint8Array.of(0xa));
    await owner.close();
    await expectStoreError(b.get(Uint8Array.of(1)), "STORE_CLOSED");
  });

  it("keeps stores with prefix-free prefixes isolated in one database (property)", async () => {
    const prefixes = [[0x00], [0x01, 0x00], [0x01, 0xff], [0xfe], [0xff, 0xff]].map((p) =>
      Uint8Array.from(p),
    );
    const owner = await openLevelStore(join(dirs.make(), "db"), { sync: false });
    let round = 0;
    const keyArb = fc.uint8Array({ minLength: 0, maxLength: 3 });
    const opArb = fc.record({
      view: fc.nat({ max: prefixes.length - 1 }),
      del: fc.boolean(),
      key: keyArb,
      value: fc.uint8Array({ minLength: 0, maxLength: 4 }),
    });
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(opArb, { maxLength: 12 }), { maxLength: 6 }),
        keyArb,
        keyArb,
        async (batches, low, high) => {
          // Each run gets its own outer prefix, so runs never see each other's keys (two bytes
          // of run number: one byte wrapped after 256 runs, which shrinking a failure reaches).
          const run = owner.withPrefix(Uint8Array.of(0x40, (round >>> 8) & 0xff, round & 0xff));
          round++;
          const views = prefixes.map((p) => run.withPrefix(p));
          const models = prefixes.map(() => new Map<string, Uint8Array>());
          const keyOf = new Map<string, Uint8Array>();
          for (const batchOps of batches) {
            const perView = prefixes.map(() => [] as Parameters<LevelStore["batch"]>[0][number][]);
            for (const op of batchOps) {
              perView[op.view]!.push(
                op.del
                  ? { type: "del", key: op.key }
                  : { type: "put", key: op.key, value: op.value },
              );
              keyOf.set(hex(op.key), op.key);
              if (op.del) models[op.view]!.delete(hex(op.key));
              else models[op.view]!.set(hex(op.key), op.value);
            }
            for (let v = 0; v < views.length; v++) await views[v]!.batch(perView[v]!);
          }
          const range = compareBytes(low, high) <= 0 ? { gte: low, lt: high } : { gte: high };
          for (let v = 0; v < views.length; v++) {
            const view = views[v]!;
            const model = models[v]!;
            const expected = [...model.entries()]
              .map(([k, value]) => [keyOf.get(k)!, value] as const)
              .sort((x, y) => compareBytes(x[0], y[0]));
            expect(await collectEntries(view.entries())).toEqual(
              expected.map(([k, value]) => [hex(k), hex(value)]),
            );
            const inRange = expected.filter(
              ([k]) =>
                compareBytes(k, range.gte) >= 0 &&
                (range.lt === undefined || compareBytes(k, range.lt) < 0),
            );
            expect(await collectEntries(view.entries(range))).toEqual(
              inRange.map(([k, value]) => [hex(k), hex(value)]),
            );
            const probe = [...keyOf.values()];
            const got = await view.getMany(probe);
            expect(got.map((g) => (g === undefined ? null : hex(g)))).toEqual(
              probe.map((k) => {
                const value = model.get(hex(k));
                return value === undefined ? null : hex(value);
              }),
            );
          }
        },
      ),
      { numRuns: 40 },
    );
    await owner.close();
  });

  it("pages through more entries than one iterator chunk, in order", async () => {
    const store = await openLevelStore(join(dirs.make(), "db"), { sync: false, prefix: "big" });
    const ops = [];
    for (let i = 0; i < 3000; i++) {
      ops.push({
        type: "put" as const,
        key: Uint8Array.of(i >>> 8, i & 0xff),
        value: Uint8Array.of(i & 7),
      });
    }
    await store.batch(ops);
    let count = 0;
    let previous: Uint8Array | undefined;
    for await (const [key] of store.entries()) {
      if (previous !== undefined) expect(compareBytes(previous, key)).toBeLessThan(0);
      previous = key;
      count++;
    }
    expect(count).toBe(3000);
    await store.close();
  });

  it("validates a whole batch before writing any of it", async () => {
    const store = await openLevelStore(join(dirs.make(), "db"));
    const bad = [
      { type: "put", key: Uint8Array.of(1), value: Uint8Array.of(1) },
      { type: "put", key: "k", value: Uint8Array.of(1) },
    ] as unknown as Parameters<LevelStore["batch"]>[0];
    await expect(store.batch(bad)).rejects.toThrow(/operation 1 key must be a Uint8Array/);
    const badType = [{ type: "merge", key: Uint8Array.of(2) }] as unknown as Parameters<
      LevelStore["batch"]
    >[0];
    await expect(store.batch(badType)).rejects.toThrow(/expected "put" or "del"/);
    expect(await store.get(Uint8Array.of(1))).toBeUndefined();
    await store.close();
  });

  it("stores exactly the bytes of keys and values that are views of larger buffers", async () => {
    const store = await openLevelStore(join(dirs.make(), "db"), { prefix: "v/" });
    const slab = new Uint8Array(256);
    for (let i = 0; i < slab.length; i++) slab[i] = i;
    // Views at odd offsets, written while the slab changes right after batch() is called.
    const ops = [0, 1, 2, 3].map((i) => ({
      type: "put" as const,
      key: slab.subarray(10 * i + 1, 10 * i + 4),
      value: slab.subarray(100 + 30 * i + 3, 100 + 30 * i + 20),
    }));
    const wanted = ops.map((op) => [hex(op.key), hex(op.value)]);
    const written = store.batch(ops);
    slab.fill(0xee);
    await written;
    const stored: string[][] = [];
    for await (const [k, v] of store.entries()) stored.push([hex(k), hex(v)]);
    expect(stored).toEqual(wanted);
    await store.close();
  });

  it("batchPacked writes exactly the packed records under the prefix, and checks its input", async () => {
    const store = await openLevelStore(join(dirs.make(), "db"), { prefix: "p/" });
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(
          fc.tuple(fc.uint8Array({ minLength: 1, maxLength: 6 }), fc.uint8Array({ maxLength: 40 })),
          { maxLength: 30, selector: ([k]) => hex(k) },
        ),
        async (records) => {
          const total = records.reduce((n, [k, v]) => n + k.length + v.length, 0);
          const bytes = new Uint8Array(total + 5);
          const ends = new Uint32Array(2 * records.length);
          let at = 0;
          records.forEach(([k, v], i) => {
            bytes.set(k, at);
            at += k.length;
            ends[2 * i] = at;
            bytes.set(v, at);
            at += v.length;
            ends[2 * i + 1] = at;
          });
          const written = store.batchPacked(bytes, ends, records.length);
          bytes.fill(0xee); // LevelDB copied every record before batchPacked returned
          await written;
          const got = await store.getMany(records.map(([k]) => k));
          expect(got.map((v) => (v === undefined ? "absent" : hex(v)))).toEqual(
            records.map(([, v]) => hex(v)),
          );
        },
      ),
      { numRuns: 40 },
    );
    await expectStoreError(
      store.batchPacked(new Uint8Array(4), Uint32Array.of(2, 9), 1),
      "INVALID_ARGUMENT",
    );
    await expectStoreError(
      store.batchPacked(new Uint8Array(4), Uint32Array.of(3, 2), 1),
      "INVALID_ARGUMENT",
    );
    await expectStoreError(
      store.batchPacked(new Uint8Array(4), new Uint32Array(1), 1),
      "INVALID_ARGUMENT",
    );
    await store.close();
    await expectStoreError(
      store.batchPacked(new Uint8Array(0), new Uint32Array(0), 0),
      "STORE_CLOSED",
    );
  });
});
