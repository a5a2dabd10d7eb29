// Two commands creating the same new --db at once (a script that starts two builds, a build
// started twice): the one that loses LevelDB's lock must fail cleanly and remove nothing of
// the other's database (it used to remove the whole directory, the winner's committed tree in
// it, while the winner went on to print its root and exit 0).
import { existsSync } from "node:fs";
import { mkdir, readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CliError } from "../src/cli-error.js";
import { type OpenedStore, openStore } from "../src/open-store.js";
import { tempDir } from "./helpers/run-cli.js";

const KEY = new TextEncoder().encode("review2-key");
const VALUE = Uint8Array.of(1, 2, 3);

let dir: string;
let cleanup: () => Promise<void>;
beforeAll(async () => {
  ({ dir, cleanup } = await tempDir());
});
afterAll(() => cleanup());

/** Opens `db` for writing; on success writes KEY and then closes or discards it. */
async function writer(db: string, then: "close" | "discard"): Promise<"wrote" | "locked"> {
  let opened: OpenedStore;
  try {
    opened = await openStore({ kind: "level", dir: db }, { create: true });
  } catch (error) {
    expect(error).toBeInstanceOf(CliError);
    expect((error as CliError).message).toMatch(/is locked by another process/);
    return "locked";
  }
  await opened.store.batch([{ type: "put", key: KEY, value: VALUE }]);
  await (then === "close" ? opened.close() : opened.discard());
  return "wrote";
}

async function storedValue(db: string): Promise<Uint8Array | undefined> {
  const opened = await openStore({ kind: "level", dir: db }, { create: false });
  try {
    return await opened.store.get(KEY);
  } finally {
    await opened.close();
  }
}

describe("two opens of the same new --db at once", () => {
  it("the loser of the lock removes nothing: the winner's writes stay", async () => {
    for (let round = 0; round < 12; round++) {
      const db = join(dir, `race-${round}`, "a", "db");
      const outcomes = await Promise.all([writer(db, "close"), writer(db, "close")]);
      expect(outcomes).toContain("wrote");
      expect(existsSync(join(db, "CURRENT")), `round ${round}: ${outcomes}`).toBe(true);
      expect(await storedValue(db), `round ${round}: ${outcomes}`).toEqual(VALUE);
    }
  });

  it("a discard (bad input) of one never removes the other's database", async () => {
    for (let round = 0; round < 12; round++) {
      const db = join(dir, `discard-${round}`, "db");
      const [kept, dropped] = await Promise.all([writer(db, "close"), writer(db, "discard")]);
      if (kept === "wrote") {
        expect(await storedValue(db), `round ${round}: ${kept}, ${dropped}`).toEqual(VALUE);
      } else {
        // The discarding one won the lock and created the database: it is gone again.
        expect(existsSync(join(db, "CURRENT")), `round ${round}`).toBe(false);
      }
    }
  });

  it("a discard removes only what it made: files another process put in its directories stay", async () => {
    const top = join(dir, "made");
    const db = join(top, "db");
    const opened = await openStore({ kind: "level", dir: db }, { create: true });
    await writeFile(join(top, "someone-elses.txt"), "hi\n");
    await opened.discard();
    expect(existsSync(db)).toBe(false);
    expect(await readdir(top)).toEqual(["someone-elses.txt"]);
    const empty = join(dir, "empty");
    await mkdir(empty);
    const again = await openStore({ kind: "level", dir: empty }, { create: true });
    await again.discard();
    expect(await readdir(empty)).toEqual([]);
  });
});
