import { type ChildProcess, spawn } from "node:child_process";
import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { StoreError } from "@bintrie/core";
import { expectStoreError } from "@bintrie/store-testkit/vitest";
import { afterAll, describe, expect, it } from "vitest";
import { openLevelStore } from "../src/index.js";
import { tempDirs } from "./helpers/temp-dir.js";

const dirs = tempDirs("level-open");
afterAll(() => dirs.removeAll());

const levelEntry = pathToFileURL(createRequire(import.meta.url).resolve("level")).href;

/** A separate Node process that opens the database, says "ready" and keeps it open. */
function holdLockInAnotherProcess(location: string): Promise<ChildProcess> {
  const script = `
    const { Level } = await import(${JSON.stringify(levelEntry)});
    const db = new Level(${JSON.stringify(location)});
    await db.open();
    process.stdout.write("ready\\n");
    setInterval(() => {}, 1000);
  `;
  const child = spawn(process.execPath, ["--input-type=module", "-e", script], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("exit", (code) => reject(new Error(`lock holder exited early with ${code}`)));
    child.stdout?.once("data", () => resolve(child));
  });
}

function exited(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once("exit", () => resolve());
  });
}

describe("openLevelStore", () => {
  it("opens a ready store that writes and reads", async () => {
    const store = await openLevelStore(join(dirs.make(), "db"));
    await store.batch([{ type: "put", key: Uint8Array.of(1), value: Uint8Array.of(2) }]);
    expect(await store.get(Uint8Array.of(1))).toEqual(Uint8Array.of(2));
    expect(store.sync).toBe(true);
    await store.close();
  });

  it("fails with STORE_LOCKED, naming the location, while another process holds the lock", async () => {
    const location = join(dirs.make(), "db");
    const holder = await holdLockInAnotherProcess(location);
    try {
      const error = await expectStoreError(openLevelStore(location), "STORE_LOCKED");
      expect(error.message).toContain(location);
      expect(error.message).toMatch(/locked by another process/);
    } finally {
      holder.kill("SIGKILL");
      await exited(holder);
    }
    // The lock dies with its process: the database opens now.
    const store = await openLevelStore(location);
    await store.close();
  });

  it("fails with STORE_LOCKED when this process already has the database open", async () => {
    const location = join(dirs.make(), "db");
    const first = await openLevelStore(location);
    const error = await expectStoreError(openLevelStore(location), "STORE_LOCKED");
    expect(error.message).toContain(location);
    await first.close();
    const second = await openLevelStore(location);
    await second.close();
  });

  it("fails with STORE_IO naming the location when createIfMissing is false and it is missing", async () => {
    const location = join(dirs.make(), "missing");
    const error = await expectStoreError(
      openLevelStore(location, { createIfMissing: false }),
      "STORE_IO",
    );
    expect(error.message).toContain(location);
    expect(error.message).toMatch(/does not exist/);
  });

  it("fails with STORE_IO when errorIfExists is set and the database exists", async () => {
    const location = join(dirs.make(), "db");
    await (await openLevelStore(location)).close();
    const error = await expectStoreError(
      openLevelStore(location, { errorIfExists: true }),
      "STORE_IO",
    );
    expect(error.message).toContain(location);
  });

  it("rejects a location or prefix of the wrong type with a StoreError", async () => {
    await expect(openLevelStore("")).rejects.toThrow(StoreError);
    await expect(
      openLevelStore(join(dirs.make(), "db"), { prefix: 7 as unknown as string }),
    ).rejects.toThrow(/prefix must be a Uint8Array or a string/);
  });
});
