import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { applyGenesisAlloc, BinaryTree, codeHash, type GenesisAlloc } from "@bintrie/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lines, runCli, tempDir, testdataPath } from "./helpers/run-cli.js";

const GETH_GENESIS = testdataPath("geth/TestBinaryGenesisCommit.genesis.json");
const GETH_ROOT = "0x0870fd587c41dc778019de8c5cb3193fe4ef1f417976461952d3712ba39163f5";

/** A real blockchain test: its `pre` alloc and the MPT root geth/EEST put in the genesis header. */
function blockchainGenesis(): { alloc: GenesisAlloc; mptRoot: string } {
  const { cases } = JSON.parse(
    readFileSync(testdataPath("blockchain/pre-states.json"), "utf8"),
  ) as { cases: { file: string; name: string; stateRoot: string; pre: GenesisAlloc }[] };
  const found = cases.find(
    (c) =>
      c.file.endsWith("eip1153_tstore/test_tload_after_sstore.json") &&
      c.name.includes("fork_Osaka"),
  )!;
  const test = { pre: found.pre, genesisBlockHeader: { stateRoot: found.stateRoot } };
  return { alloc: test.pre, mptRoot: test.genesisBlockHeader.stateRoot };
}

let dir: string;
let cleanup: () => Promise<void>;
beforeAll(async () => {
  ({ dir, cleanup } = await tempDir());
});
afterAll(() => cleanup());

describe("genesis", () => {
  it("prints go-ethereum's TestBinaryGenesisCommit root, and --json the account count", async () => {
    const db = join(dir, "geth");
    const text = await runCli(["genesis", GETH_GENESIS, "--db", db]);
    expect(text.stderr).toBe("");
    expect(text.code).toBe(0);
    expect(text.stdout).toBe(`${GETH_ROOT}\n`);
    const root = await runCli(["root", "--db", db]);
    expect(root.stdout).toBe(`${GETH_ROOT}\n`);
    const json = await runCli(["genesis", GETH_GENESIS, "--store", "memory", "--json"]);
    expect(JSON.parse(json.stdout)).toEqual({ root: GETH_ROOT, accounts: 1 });
    // The group depth changes the stored blobs, never the root.
    const flat = await runCli(["genesis", GETH_GENESIS, "--store", "memory", "--group-depth", "0"]);
    expect(flat.stdout).toBe(`${GETH_ROOT}\n`);
  });

  it("a random alloc into LevelDB at group depths 1, 5 and 8: geth's stored nodes", async () => {
    // testdata/geth/geth-random-genesis.json: geth's root, node count and digest per depth.
    const vector = JSON.parse(
      readFileSync(testdataPath("geth/geth-random-genesis.json"), "utf8"),
    ) as {
      alloc: GenesisAlloc;
      groupDepths: Record<string, { root: string; nodes: number; nodesDigest: string }>;
    };
    const file = join(dir, "random-genesis.json");
    await writeFile(file, JSON.stringify({ alloc: vector.alloc }));
    for (const g of ["1", "5", "8"]) {
      const db = join(dir, `random-g${g}`);
      const built = await runCli(["genesis", file, "--db", db, "--group-depth", g]);
      expect(built.code, built.stderr).toBe(0);
      const nodes = lines((await runCli(["nodes", "--db", db, "--json"])).stdout).map(
        (line) => JSON.parse(line) as { path: string; blob: string },
      );
      // `nodes` lists them sorted by path, as the digest sorts them.
      const text = nodes.map((n) => `${n.path}=${n.blob}\n`).join("");
      expect({
        root: built.stdout.trim(),
        nodes: nodes.length,
        nodesDigest: `0x${createHash("sha256").update(text).digest("hex")}`,
      }).toEqual(vector.groupDepths[g]);
    }
  });

  it("refuses a database that already holds a tree (exit 2, unchanged)", async () => {
    const db = join(dir, "geth");
    const again = await runCli(["genesis", GETH_GENESIS, "--db", db]);
    expect(again.code).toBe(2);
    expect(lines(again.stderr)).toHaveLength(1);
    expect(again.stderr).toMatch(/^bintrie genesis: .*already holds a committed tree/);
    expect((await runCli(["root", "--db", db])).stdout).toBe(`${GETH_ROOT}\n`);
  });

  it("--mpt prints the MPT state root of a real blockchain test's genesis", async () => {
    const { alloc, mptRoot } = blockchainGenesis();
    const file = join(dir, "pre.json");
    await writeFile(file, JSON.stringify({ alloc }));
    const tree = new BinaryTree();
    applyGenesisAlloc(tree, alloc);
    const binaryRoot = `0x${Buffer.from(tree.hash()).toString("hex")}`;
    const db = join(dir, "pre");
    const result = await runCli(["genesis", file, "--db", db, "--mpt", "--json"]);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({
      root: binaryRoot,
      accounts: Object.keys(alloc).length,
      mptRoot,
    });
    const text = await runCli(["genesis", file, "--store", "memory", "--mpt"]);
    expect(lines(text.stdout)).toEqual([binaryRoot, mptRoot]);
  });
});

describe("account, storage, code", () => {
  const { alloc } = blockchainGenesis();
  const db = () => join(dir, "pre");

  it("account prints the decoded header fields of every alloc account", async () => {
    for (const [address, account] of Object.entries(alloc)) {
      const result = await runCli(["account", "--db", db(), address, "--json"]);
      expect(result.code).toBe(0);
      const code = Buffer.from((account.code ?? "0x").slice(2), "hex");
      const fields = JSON.parse(result.stdout);
      expect(fields).toMatchObject({
        address,
        version: 0,
        nonce: BigInt(account.nonce ?? "0").toString(),
        balance: BigInt(account.balance ?? "0").toString(),
        codeSize: code.length,
      });
      expect(fields.codeHash).toBe(`0x${Buffer.from(codeHash(code)).toString("hex")}`);
    }
  });

  it("code rebuilds the deployed code; storage reads a slot", async () => {
    const [address, account] = Object.entries(alloc).find(
      ([, a]) => (a.code ?? "0x").length > 200,
    )!;
    const code = await runCli(["code", "--db", db(), address]);
    expect(code.code).toBe(0);
    expect(code.stdout).toBe(`${account.code!.toLowerCase()}\n`);
    const [withStorage, holder] = Object.entries(alloc).find(
      ([, a]) => Object.keys(a.storage ?? {}).length > 0,
    )!;
    const [slot, value] = Object.entries(holder.storage!)[0]!;
    const storage = await runCli(["storage", "--db", db(), withStorage, slot]);
    expect(storage.code).toBe(0);
    expect(storage.stdout).toBe(`0x${BigInt(value!).toString(16).padStart(64, "0")}\n`);
  });

  it("absent account, slot or key: exit 1 with one line naming it", async () => {
    const nobody = "0x00000000000000000000000000000000000000aa";
    const account = await runCli(["account", "--db", db(), nobody]);
    expect(account.code).toBe(1);
    expect(account.stderr).toBe(`bintrie account: no account at ${nobody}\n`);
    const storage = await runCli(["storage", "--db", db(), nobody, "7"]);
    expect(storage.code).toBe(1);
    expect(storage.stderr).toMatch(/^bintrie storage: no value at slot 0x0+7 of 0x0+aa\n$/);
    const get = await runCli(["get", "--db", db(), `0x${"00".repeat(32)}`, "--json"]);
    expect(get.code).toBe(1);
    expect(JSON.parse(get.stdout)).toEqual({ key: `0x${"00".repeat(32)}`, value: null });
  });
});

describe("genesis input errors write nothing", () => {
  it.each([
    ["not JSON", "{", /: not JSON \(/],
    ["no alloc", "{}", /no "alloc" field/],
    [
      "bad balance",
      JSON.stringify({ alloc: { [`0x${"11".repeat(20)}`]: { balance: "0xzz" } } }),
      /balance/,
    ],
    ["bad address", JSON.stringify({ alloc: { "0x1234": { balance: "0x1" } } }), /0x1234/],
  ])("%s", async (_name, content, message) => {
    const file = join(dir, "bad-genesis.json");
    await writeFile(file, content);
    const db = join(dir, "bad-genesis-db");
    const result = await runCli(["genesis", file, "--db", db]);
    expect(result.code).toBe(2);
    expect(lines(result.stderr)).toHaveLength(1);
    expect(result.stderr).toMatch(message);
    expect(result.stdout).toBe("");
    expect(existsSync(db)).toBe(false);
  });
});
