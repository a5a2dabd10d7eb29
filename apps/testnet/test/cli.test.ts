import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCli } from "../src/cli/run-cli.js";
import { produceDevnet } from "../src/devnet/run-devnet.js";
import { runBlockchainTest } from "../src/runner/run-blockchain-test.js";
import { dataPath } from "./test-data.js";

const dir = mkdtempSync(join(tmpdir(), "bintrie-testnet-cli-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function capture(): { io: Parameters<typeof runCli>[1]; out: () => string; err: () => string } {
  let out = "";
  let err = "";
  return {
    io: {
      stdout: { write: (t: string) => (out += t) },
      stderr: { write: (t: string) => (err += t) },
    },
    out: () => out,
    err: () => err,
  };
}

const fixture = dataPath("mpt/blockchain/ethereum-tests/ValidBlocks/bcStateTests");

describe("bintrie-testnet CLI", () => {
  it("run: one line per test, the summary line, exit 0", async () => {
    const c = capture();
    expect(await runCli(["run", fixture], c.io)).toBe(0);
    const lines = c.out().trim().split("\n");
    expect(lines.filter((l) => l.startsWith("PASS")).length).toBe(5);
    expect(lines.at(-1)).toBe("5 passed, 0 failed");
    expect(lines.at(-2)).toMatch(/blocks\/s/);
  });

  it("run --json --filter: JSON lines and a summary object", async () => {
    const c = capture();
    expect(await runCli(["run", fixture, "--json", "--filter", "logRevert"], c.io)).toBe(0);
    const lines = c.out().trim().split("\n");
    const first = JSON.parse(lines[0]!);
    expect(first).toMatchObject({ name: "logRevert_Cancun", passed: true, blocks: 2 });
    expect(JSON.parse(lines.at(-1)!).summary).toMatchObject({ passed: 1, failed: 0 });
    expect(c.err()).toBe("1 passed, 0 failed\n");
  });

  it("fill then run the filled folder (binary roots checked)", async () => {
    const c = capture();
    const out = join(dir, "filled");
    expect(await runCli(["fill", fixture, "--out", out, "--filter", "Suicide"], c.io)).toBe(0);
    expect(c.out().trim().split("\n").at(-1)).toBe("2 filled, 0 failed");
    const r = capture();
    expect(await runCli(["run", out], r.io)).toBe(0);
    expect(r.out()).toContain("binary roots checked");
    expect(r.out().trim().split("\n").at(-1)).toBe("2 passed, 0 failed");
  });

  it("run exits 2 on a missing path and on an unknown command", async () => {
    const c = capture();
    expect(await runCli(["run", join(dir, "nope")], c.io)).toBe(2);
    expect(c.err()).toContain("no such file or folder");
    expect(await runCli(["frobnicate"], capture().io)).toBe(2);
  });

  it("t8n writes result.json and alloc.json in geth's format", async () => {
    const t8n = dataPath("mpt/t8n/geth-26");
    const c = capture();
    const code = await runCli(
      [
        "t8n",
        "--input.alloc",
        join(t8n, "alloc.json"),
        "--input.env",
        join(t8n, "env.json"),
        "--input.txs",
        join(t8n, "txs.json"),
        "--output.basedir",
        dir,
        "--output.result",
        "result.json",
        "--output.alloc",
        "post.json",
        "--state.fork",
        "Shanghai",
      ],
      c.io,
    );
    expect(code).toBe(0);
    const result = JSON.parse(readFileSync(join(dir, "result.json"), "utf8"));
    const expected = JSON.parse(readFileSync(join(t8n, "exp.json"), "utf8"));
    expect(result.withdrawalsRoot).toBe(expected.result.withdrawalsRoot);
    const post = JSON.parse(readFileSync(join(dir, "post.json"), "utf8"));
    expect(BigInt(post["0xa94f5374fce5edbc8e2a8697c15331677e6ebf0b"].balance)).toBe(
      BigInt(expected.alloc["0xa94f5374fce5edbc8e2a8697c15331677e6ebf0b"].balance),
    );
  });
});

describe("devnet", () => {
  it("produces blocks from the shipped genesis and its fixture re-executes with every root", async () => {
    const roots: string[] = [];
    const devnet = await produceDevnet({ blocks: 5, onBlock: (b) => roots.push(b.root) });
    expect(devnet.blocks.map((b) => b.root)).toEqual(roots);
    expect(new Set(roots).size).toBe(5);
    expect(devnet.transactions).toBeGreaterThanOrEqual(45);
    const result = await runBlockchainTest({
      file: "devnet",
      name: "devnet",
      test: devnet.fixture,
    });
    expect(result.failures).toEqual([]);
    expect(result.binaryFixture).toBe(true);
    expect(result.blockRoots).toEqual(roots);
    // Same seed, same chain.
    const again = await produceDevnet({ blocks: 5 });
    expect(again.fixture.lastblockhash).toBe(devnet.fixture.lastblockhash);
  });

  it("the devnet command writes the fixture and re-executes it", async () => {
    const c = capture();
    const out = join(dir, "devnet.json");
    expect(await runCli(["devnet", "--blocks", "3", "--out", out], c.io)).toBe(0);
    expect(c.out()).toMatch(/block 3 {2}txs \d+ {2}gas \d+ {2}root 0x[0-9a-f]{64}/);
    expect(c.out().trim().split("\n").at(-1)).toBe("1 passed, 0 failed");
  });
});
