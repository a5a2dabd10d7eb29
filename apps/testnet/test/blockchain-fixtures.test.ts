import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { fillBlockchainTest } from "../src/fill/fill-blockchain-test.js";
import { fillFiles } from "../src/fill/fill-files.js";
import type { BlockchainTest, NamedTest } from "../src/fixtures/blockchain-test.js";
import { loadFixtures } from "../src/fixtures/load-fixtures.js";
import { runBlockchainTest } from "../src/runner/run-blockchain-test.js";
import { dataPath } from "./test-data.js";

const corpus = dataPath("mpt/blockchain");
const tests = await loadFixtures([corpus]);
const out = mkdtempSync(join(tmpdir(), "bintrie-testnet-fill-"));
afterAll(() => rmSync(out, { recursive: true, force: true }));

describe("the MPT blockchain-test corpus on binary-tree state", () => {
  it("has the 13 vendored cases of 13 files (test/data/mpt/PROVENANCE.md)", () => {
    expect(tests.length).toBe(13);
    expect(new Set(tests.map((t) => t.file)).size).toBe(13);
  });

  it("every case passes run: blocks, lastblockhash and the exact post state", async () => {
    const failed: string[] = [];
    for (const named of tests) {
      const result = await runBlockchainTest(named);
      if (!result.passed) failed.push(`${named.name}: ${result.failures.slice(0, 3).join("; ")}`);
      expect(result.blocks).toBe(named.test.blocks.length);
    }
    expect(failed).toEqual([]);
  }, 120_000);

  it("every case fills a binary fixture that passes run with every binary root checked", async () => {
    const summary = await fillFiles([corpus], out);
    expect(summary).toMatchObject({ filled: 13, failed: 0 });
    expect(summary.files.length).toBe(13);
    const filled = await loadFixtures([out]);
    expect(filled.length).toBe(13);
    const failed: string[] = [];
    for (const named of filled) {
      const result = await runBlockchainTest(named);
      expect(result.binaryFixture).toBe(true);
      expect(result.blockRoots).toEqual(named.test._bintrie?.blockRoots);
      expect(result.genesisRoot).toBe(named.test._bintrie?.genesisRoot);
      if (!result.passed) failed.push(`${named.name}: ${result.failures.slice(0, 3).join("; ")}`);
    }
    expect(failed).toEqual([]);
  }, 120_000);
});

function pick(part: string): NamedTest {
  const found = tests.find((t) => t.file.includes(part));
  if (found === undefined) throw new Error(`no fixture ${part}`);
  return found;
}

function mutate(named: NamedTest, change: (test: BlockchainTest) => BlockchainTest): NamedTest {
  return { ...named, test: change(structuredClone(named.test) as BlockchainTest) };
}

describe("run fails when the fixture disagrees", () => {
  const base = pick("bcStateTests/simpleSuicide.json");

  it("a wrong balance in postState", async () => {
    const bad = mutate(base, (t) => {
      const post = { ...t.postState! };
      const [address, account] = Object.entries(post)[0]!;
      post[address] = { ...account, balance: "0x0123456789" };
      return { ...t, postState: post };
    });
    const result = await runBlockchainTest(bad);
    expect(result.passed).toBe(false);
    expect(result.mismatches.map((m) => m.field)).toEqual(["balance"]);
  });

  it("an account missing from postState (an extra account in the state)", async () => {
    const bad = mutate(base, (t) => {
      const post = { ...t.postState! };
      delete post[Object.keys(post).at(-1)!];
      return { ...t, postState: post };
    });
    const result = await runBlockchainTest(bad);
    expect(result.mismatches).toMatchObject([{ field: "account", expected: "absent" }]);
  });

  it("a storage slot missing from postState (an extra slot in the state)", async () => {
    const named = pick("bcStateTests/blockhashTests.json");
    const bad = mutate(named, (t) => {
      const post = { ...t.postState! };
      const [address, account] = Object.entries(post).find(
        ([, a]) => Object.keys(a.storage).length > 0,
      )!;
      post[address] = { ...account, storage: {} };
      return { ...t, postState: post };
    });
    const result = await runBlockchainTest(bad);
    expect(result.passed).toBe(false);
    expect(result.mismatches.every((m) => m.field === "storage" && m.expected === "0x00")).toBe(
      true,
    );
  });

  it("a wrong lastblockhash", async () => {
    const bad = mutate(base, (t) => ({ ...t, lastblockhash: `0x${"11".repeat(32)}` }));
    const result = await runBlockchainTest(bad);
    expect(result.failures.join()).toContain("lastblockhash");
  });

  it("a filled fixture whose recorded binary root is wrong", async () => {
    const fill = await fillBlockchainTest(base);
    const fixture = fill.fixture!;
    const roots = [...fixture._bintrie!.blockRoots];
    roots[0] = `0x${"22".repeat(32)}`;
    const bad = {
      ...base,
      test: { ...fixture, _bintrie: { ...fixture._bintrie!, blockRoots: roots } },
    };
    const result = await runBlockchainTest(bad);
    expect(result.passed).toBe(false);
    expect(result.failures.join()).toContain("_bintrie.blockRoots");
  });

  it("a filled fixture whose pre state was changed (the genesis root no longer matches)", async () => {
    const fill = await fillBlockchainTest(base);
    const fixture = fill.fixture!;
    const pre = { ...fixture.pre };
    const [address, account] = Object.entries(pre)[0]!;
    pre[address] = { ...account, nonce: "0x99" };
    const result = await runBlockchainTest({ ...base, test: { ...fixture, pre } });
    expect(result.passed).toBe(false);
    expect(result.failures.join()).toContain("genesis");
  });
});
