import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { applyGenesisAlloc, BinaryTree, codeHash, type GenesisAlloc } from "@bintrie/core";
import { openLevelStore } from "@bintrie/store-level";
import { buildMptBase } from "@bintrie/transition";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hexOf } from "./helpers/random-entries.js";
import { BIN, lines, runCli, tempDir, testdataPath } from "./helpers/run-cli.js";

const GETH_GENESIS = testdataPath("geth/TestBinaryGenesisCommit.genesis.json");
const GETH_ROOT = "0x0870fd587c41dc778019de8c5cb3193fe4ef1f417976461952d3712ba39163f5";

/** A real blockchain test's genesis alloc and its MPT root from the fixture's genesis header. */
function fixture(): { alloc: GenesisAlloc; mptRoot: string; binaryRoot: string } {
  const { cases } = JSON.parse(
    readFileSync(testdataPath("blockchain/pre-states.json"), "utf8"),
  ) as { cases: { file: string; name: string; stateRoot: string; pre: GenesisAlloc }[] };
  const found = cases.find(
    (c) =>
      c.file.endsWith("eip1153_tstore/test_tload_after_sstore.json") &&
      c.name.includes("fork_Osaka"),
  )!;
  const test = { pre: found.pre, genesisBlockHeader: { stateRoot: found.stateRoot } };
  const tree = new BinaryTree();
  applyGenesisAlloc(tree, test.pre);
  return {
    alloc: test.pre,
    mptRoot: test.genesisBlockHeader.stateRoot,
    binaryRoot: hexOf(tree.hash()),
  };
}

const FIXTURE = fixture();

/** keccak(address | slot) → address | slot for every account and slot of the fixture's alloc. */
function fixturePreimages(): Record<string, string> {
  const preimages: Record<string, string> = {};
  const add = (hex: string, size: number) => {
    const bytes = Buffer.from(hex.slice(2).padStart(size * 2, "0"), "hex");
    preimages[hexOf(codeHash(bytes))] = hexOf(bytes);
  };
  for (const [address, account] of Object.entries(FIXTURE.alloc)) {
    add(address, 20);
    for (const slot of Object.keys(account.storage ?? {})) add(slot, 32);
  }
  return preimages;
}

let dir: string;
let cleanup: () => Promise<void>;
let genesisFile: string;
beforeAll(async () => {
  ({ dir, cleanup } = await tempDir());
  genesisFile = join(dir, "pre.json");
  await writeFile(genesisFile, JSON.stringify({ alloc: FIXTURE.alloc }));
});
afterAll(() => cleanup());

describe("convert", () => {
  it("converts go-ethereum's genesis alloc to geth's binary root", async () => {
    const result = await runCli(["convert", "--db", join(dir, "geth"), "--genesis", GETH_GENESIS]);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(`${GETH_ROOT}\n`);
  });

  it("converts a blockchain test's genesis: the fixture's MPT root in, the fresh genesis root out", async () => {
    const db = join(dir, "fixture");
    const result = await runCli([
      "convert",
      "--db",
      db,
      "--genesis",
      genesisFile,
      "--step",
      "7",
      "--json",
    ]);
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout);
    expect(report).toMatchObject({
      root: FIXTURE.binaryRoot,
      mptRoot: FIXTURE.mptRoot,
      resumed: false,
      accounts: Object.keys(FIXTURE.alloc).length,
      storageSlots: 35,
    });
    // The converted store is an ordinary committed tree for every other command.
    const verify = await runCli(["verify", "--db", db, "--strict"]);
    expect(verify.code).toBe(0);
    const [address, account] = Object.entries(FIXTURE.alloc).find(
      ([, a]) => (a.code ?? "0x") !== "0x",
    )!;
    const code = await runCli(["code", "--db", db, address]);
    expect(code.stdout).toBe(`${account.code!.toLowerCase()}\n`);
    // Running it again finds the conversion done.
    const again = await runCli(["convert", "--db", db, "--genesis", genesisFile, "--json"]);
    expect(JSON.parse(again.stdout)).toMatchObject({ root: FIXTURE.binaryRoot, resumed: true });
    // A plain write would drop the conversion state: refused.
    const put = await runCli(["put", "--db", db, `0x${"00".repeat(32)}`, `0x${"00".repeat(32)}`]);
    expect(put.code).toBe(2);
    expect(put.stderr).toMatch(/^bintrie put: the store holds an MPT → binary conversion/);
  });

  it("resumes after a SIGKILL at a random moment", async () => {
    for (let round = 0; round < 2; round++) {
      const db = join(dir, `killed-${round}`);
      const delay = 150 + Math.floor(Math.random() * 900);
      await new Promise<void>((resolve, reject) => {
        const child = spawn(
          process.execPath,
          [BIN, "convert", "--db", db, "--genesis", genesisFile, "--step", "1"],
          {
            stdio: "ignore",
          },
        );
        const timer = setTimeout(() => child.kill("SIGKILL"), delay);
        child.on("error", reject);
        child.on("close", () => {
          clearTimeout(timer);
          resolve();
        });
      });
      const resumed = await runCli(["convert", "--db", db, "--genesis", genesisFile, "--json"]);
      expect(resumed.code, `round ${round} (killed after ${delay} ms): ${resumed.stderr}`).toBe(0);
      expect(JSON.parse(resumed.stdout).root).toBe(FIXTURE.binaryRoot);
    }
  });

  it("converts an MPT base already in the store with a preimage file", async () => {
    const db = join(dir, "mpt-store");
    const store = await openLevelStore(db);
    const base = await buildMptBase(store, FIXTURE.alloc);
    await store.close();
    expect(hexOf(base.root)).toBe(FIXTURE.mptRoot);
    const preimages = fixturePreimages();
    const file = join(dir, "preimages.json");
    // Without the preimages, conversion cannot name the accounts: exit 2.
    await writeFile(file, "{}");
    const missing = await runCli([
      "convert",
      "--db",
      db,
      "--mpt-root",
      FIXTURE.mptRoot,
      "--preimages",
      file,
    ]);
    expect(missing.code).toBe(2);
    expect(lines(missing.stderr)).toHaveLength(1);
    await writeFile(file, JSON.stringify(preimages));
    const result = await runCli([
      "convert",
      "--db",
      db,
      "--mpt-root",
      FIXTURE.mptRoot,
      "--preimages",
      file,
    ]);
    expect(result.stderr).toBe("");
    expect(result.stdout).toBe(`${FIXTURE.binaryRoot}\n`);
  });

  it("a preimage missing after steps were committed: exit 1 naming what was kept; the same command resumes", async () => {
    const db = join(dir, "mpt-store-late");
    const store = await openLevelStore(db);
    await buildMptBase(store, FIXTURE.alloc);
    await store.close();
    const preimages = fixturePreimages();
    // The base leaves convert in hashed-key order: the account hashed last is met last.
    const addressHashes = Object.keys(FIXTURE.alloc).map((a) =>
      hexOf(codeHash(Buffer.from(a.slice(2).padStart(40, "0"), "hex"))),
    );
    const last = addressHashes.sort().at(-1)!;
    const partial = { ...preimages };
    delete partial[last];
    const file = join(dir, "preimages-late.json");
    await writeFile(file, JSON.stringify(partial));
    const args = ["convert", "--db", db, "--mpt-root", FIXTURE.mptRoot, "--preimages", file];
    const stopped = await runCli([...args, "--step", "1"]);
    expect(stopped.code).toBe(1);
    expect(lines(stopped.stderr)).toHaveLength(1);
    expect(stopped.stderr).toMatch(
      new RegExp(
        `^bintrie convert: .*preimages-late\\.json: .*${last.slice(2, 10)}.*the [1-9]\\d* base leaves this run converted before it are committed`,
      ),
    );
    await writeFile(file, JSON.stringify(preimages));
    const resumed = await runCli([...args, "--json"]);
    expect(resumed.stderr).toBe("");
    expect(JSON.parse(resumed.stdout)).toMatchObject({ root: FIXTURE.binaryRoot, resumed: true });
  });

  it.each([
    [["convert", "--store", "memory"], /either --genesis FILE or --mpt-root ROOT/],
    [
      ["convert", "--store", "memory", "--genesis", "g.json", "--mpt-root", `0x${"00".repeat(32)}`],
      /either --genesis/,
    ],
    [["convert", "--store", "memory", "--mpt-root", "0x12"], /--mpt-root must be 32 bytes/],
    [
      ["convert", "--store", "memory", "--genesis", "no-such.json"],
      /cannot read no-such\.json: no such file/,
    ],
  ])("bad usage %j: exit 2, one line", async (args, message) => {
    const result = await runCli(args, { cwd: dir });
    expect(result.code).toBe(2);
    expect(lines(result.stderr)).toHaveLength(1);
    expect(result.stderr).toMatch(message);
  });

  it("refuses a store that holds a plain tree", async () => {
    const db = join(dir, "plain");
    expect((await runCli(["genesis", GETH_GENESIS, "--db", db])).code).toBe(0);
    const result = await runCli(["convert", "--db", db, "--genesis", GETH_GENESIS]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^bintrie convert: .*plain binary tree/);
  });
});
