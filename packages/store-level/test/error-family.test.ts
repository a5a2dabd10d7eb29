import { join } from "node:path";
import * as codec from "@bintrie/codec";
import * as core from "@bintrie/core";
import { afterAll, describe, expect, it } from "vitest";
import * as level from "../src/index.js";
import { tempDirs } from "./helpers/temp-dir.js";

const dirs = tempDirs("error-family");
afterAll(() => dirs.removeAll());

// Across package boundaries: the class a store throws is the one codec defines and core re-exports.
describe("one error family across packages", () => {
  it("store-level re-exports the same BintrieError as core and codec", () => {
    expect(level.BintrieError).toBe(core.BintrieError);
    expect(core.BintrieError).toBe(codec.BintrieError);
  });

  it("a closed LevelStore rejects with a BintrieError (StoreError, STORE_CLOSED)", async () => {
    const store = await level.openLevelStore(join(dirs.make(), "db"));
    await store.close();
    const error = await store.get(Uint8Array.of(1)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(codec.BintrieError);
    expect(error).toBeInstanceOf(core.StoreError);
    expect((error as core.BintrieError).code).toBe("STORE_CLOSED");
  });

  it("a key that is not bytes is a BintrieError (INVALID_ARGUMENT), not a TypeError", async () => {
    const store = await level.openLevelStore(join(dirs.make(), "db"));
    const bad = [
      { type: "put", key: 7, value: Uint8Array.of(1) },
    ] as unknown as core.BatchOperation[];
    const error = await store.batch(bad).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(codec.BintrieError);
    expect((error as core.BintrieError).code).toBe("INVALID_ARGUMENT");
    await store.close();
  });
});
