import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCli } from "../src/cli/run-cli.js";
import { fillUbtChain, type UbtChainDescription } from "../src/fill/fill-ubt-chain.js";
import type { BlockchainTest, NamedTest } from "../src/fixtures/blockchain-test.js";
import { loadFixtures } from "../src/fixtures/load-fixtures.js";
import { runBlockchainTest } from "../src/runner/run-blockchain-test.js";
import { dataPath } from "./test-data.js";

const fixtures = await loadFixtures([dataPath("geth-ubt/fixtures")]);
const invalidBlocks = await loadFixtures([dataPath("geth-ubt/invalid-blocks")]);
const processUbt = JSON.parse(
  readFileSync(dataPath("geth-ubt/TestProcessUBT.chain.json"), "utf8"),
) as UbtChainDescription & { expectedGasUsed: number[] };
const scratch = mkdtempSync(join(tmpdir(), "bintrie-testnet-ubt-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function mutate(named: NamedTest, change: (test: BlockchainTest) => BlockchainTest): NamedTest {
  return { ...named, test: change(structuredClone(named.test) as BlockchainTest) };
}

describe("run re-executes geth's UBT fixtures (every header's binary root, gas, receipts, hashes)", () => {
  it("has the 5 vendored fixtures geth made", () => {
    expect(fixtures.map((f) => f.test.network)).toEqual(Array(5).fill("Verkle"));
  });

  for (const named of fixtures) {
    it(`${named.name} passes with every root geth wrote`, async () => {
      const result = await runBlockchainTest(named);
      expect(result.failures).toEqual([]);
      expect(result.passed).toBe(true);
      expect(result.blocks).toBe(named.test.blocks.length);
      // The roots came from geth's headers; the executor's own are compared with them above.
      const headerRoots = named.test.blocks.map((b) => b.blockHeader?.stateRoot);
      expect(result.blockRoots).toEqual(headerRoots);
    });
  }

  it("a copy with one post-state balance changed fails", async () => {
    const base = fixtures[0]!;
    const bad = mutate(base, (t) => {
      const post = { ...t.postState! };
      const [address, account] = Object.entries(post)[0]!;
      post[address] = { ...account, balance: `0x${(BigInt(account.balance) + 1n).toString(16)}` };
      return { ...t, postState: post };
    });
    const result = await runBlockchainTest(bad);
    expect(result.passed).toBe(false);
    expect(result.mismatches.map((m) => m.field)).toEqual(["balance"]);
  });

  it("a copy with a changed pre state fails on the genesis root", async () => {
    const base = fixtures[0]!;
    const bad = mutate(base, (t) => {
      const pre = { ...t.pre };
      const [address, account] = Object.entries(pre)[0]!;
      pre[address] = { ...account, nonce: "0x99" };
      return { ...t, pre };
    });
    const result = await runBlockchainTest(bad);
    expect(result.passed).toBe(false);
    expect(result.failures.join()).toContain("genesis root");
  });
});

function capture(): { io: Parameters<typeof runCli>[1]; out: () => string } {
  let out = "";
  return {
    io: { stdout: { write: (t: string) => (out += t) }, stderr: { write: () => true } },
    out: () => out,
  };
}

describe("bintrie-testnet run and t8n on geth's UBT data (the commands as a user types them)", () => {
  it("run on the fixture folder: every test passes, exit 0", async () => {
    const c = capture();
    expect(await runCli(["run", dataPath("geth-ubt/fixtures")], c.io)).toBe(0);
    expect(c.out().trim().split("\n").at(-1)).toBe("5 passed, 0 failed");
  });

  it("run on a copy with one post-state balance changed: exit 1", async () => {
    const named = fixtures[0]!;
    const post = { ...named.test.postState! };
    const [address, account] = Object.entries(post).at(-1)!;
    post[address] = { ...account, balance: `0x${(BigInt(account.balance) ^ 1n).toString(16)}` };
    const file = join(scratch, "changed-balance.json");
    writeFileSync(file, JSON.stringify({ [named.name]: { ...named.test, postState: post } }));
    const c = capture();
    expect(await runCli(["run", file], c.io)).toBe(1);
    expect(c.out()).toContain("balance");
  });

  it("fill on a chain description writes a fixture that run passes", async () => {
    const out = join(scratch, "filled-chain");
    const c = capture();
    expect(
      await runCli(["fill", dataPath("geth-ubt/TestProcessUBT.chain.json"), "--out", out], c.io),
    ).toBe(0);
    expect(c.out()).toContain("FILLED");
    const again = capture();
    expect(await runCli(["run", join(out, "TestProcessUBT.chain.json")], again.io)).toBe(0);
    expect(again.out().trim().split("\n").at(-1)).toBe("1 passed, 0 failed");
  });

  it("t8n --state.fork Verkle --output.basedir writes geth's result.json and alloc.json", async () => {
    const scenario = dataPath("geth-ubt/t8n/k_revert_inner");
    const out = join(scratch, "t8n-k");
    const c = capture();
    const args = [
      "t8n",
      "--input.alloc",
      `${scenario}/alloc.json`,
      "--input.env",
      `${scenario}/env.json`,
    ];
    args.push(
      "--input.txs",
      `${scenario}/txs.json`,
      "--state.fork",
      "Verkle",
      "--output.basedir",
      out,
    );
    args.push("--output.result", "result.json", "--output.alloc", "alloc.json");
    expect(await runCli(args, c.io)).toBe(0);
    for (const file of ["result.json", "alloc.json"]) {
      expect(JSON.parse(readFileSync(join(out, file), "utf8"))).toEqual(
        JSON.parse(readFileSync(`${scenario}/out-Verkle/${file}`, "utf8")),
      );
    }
  });
});

describe("fills geth's evm blocktest accepted (test/data/geth-ubt/geth-accepted)", () => {
  it("TestProcessUBT on Verkle and Binary: run passes with every root geth re-derived", async () => {
    const accepted = await loadFixtures([dataPath("geth-ubt/geth-accepted")]);
    expect(accepted.map((f) => f.test.network).sort()).toEqual(["Binary", "Verkle"]);
    for (const named of accepted) {
      const result = await runBlockchainTest(named);
      expect(result.failures).toEqual([]);
      expect(result.blockRoots).toEqual(named.test.blocks.map((b) => b.blockHeader?.stateRoot));
    }
  });

  it("Binary (Osaka table): the EXTCODECOPY creation pays cold account access (no EIP-2929 warm-up of created addresses)", async () => {
    const { gasUsed, receiptGas } = await fillUbtChain({
      ...processUbt,
      network: "Binary",
      config: undefined,
    });
    const accepted = (
      await loadFixtures([dataPath("geth-ubt/geth-accepted/TestProcessUBT_Binary.json")])
    )[0]!;
    expect(gasUsed.map((g) => `0x${g.toString(16)}`)).toEqual(
      accepted.test.blocks.map((b) => b.blockHeader?.gasUsed),
    );
    expect(receiptGas[1]!.slice(0, 4).map(Number)).toEqual([21000, 21000, 21000, 60421]);
  });
});

describe("fill builds UBT chains as geth's chain maker does", () => {
  it("TestProcessUBT's chain uses geth's asserted gas [63000, 248211]", async () => {
    const { gasUsed } = await fillUbtChain(processUbt);
    expect(gasUsed.map(Number)).toEqual(processUbt.expectedGasUsed);
    expect(processUbt.expectedGasUsed).toEqual([63000, 248211]);
  });

  it("a filled fixture re-executes with run", async () => {
    const { fixture } = await fillUbtChain(processUbt);
    const result = await runBlockchainTest({
      file: "filled",
      name: "TestProcessUBT",
      test: fixture,
    });
    expect(result.failures).toEqual([]);
  });

  it("the filled TestProcessUBT chain is, on Verkle and on Binary, the fixture geth's evm blocktest accepted", async () => {
    // geth's verdicts on the vendored fills (`evm blocktest FILE`, see PROVENANCE.md).
    const verdicts = JSON.parse(
      readFileSync(dataPath("geth-ubt/geth-accepted-verdicts.json"), "utf8"),
    ) as Record<string, unknown>;
    for (const network of ["Verkle", "Binary"]) {
      const { fixture, stateRoots } = await fillUbtChain({ ...processUbt, network });
      const file = `TestProcessUBT_${network}.json`;
      const accepted = JSON.parse(readFileSync(dataPath(`geth-ubt/geth-accepted/${file}`), "utf8"));
      expect({ [`TestProcessUBT_${network}`]: JSON.parse(JSON.stringify(fixture)) }).toEqual(
        accepted,
      );
      expect(verdicts[file]).toEqual([
        {
          name: `TestProcessUBT_${network}`,
          pass: true,
          stateRoot: stateRoots.at(-1),
          fork: network,
        },
      ]);
    }
  });

  // geth-ubt/system-calls-accepted and blob-txs-accepted (PROVENANCE.md): Binary chains filled
  // here and imported by geth's evm blocktest (each folder's geth-verdicts.json).
  const acceptedChain = async (folder: string, name: string) => {
    const dir = `geth-ubt/${folder}`;
    const description = JSON.parse(
      readFileSync(dataPath(`${dir}/${name}.chain.json`), "utf8"),
    ) as UbtChainDescription;
    const accepted = JSON.parse(readFileSync(dataPath(`${dir}/${name}.json`), "utf8"));
    const verdicts = JSON.parse(
      readFileSync(dataPath(`${dir}/geth-verdicts.json`), "utf8"),
    ) as Record<string, unknown>;
    const { fixture, stateRoots } = await fillUbtChain(description);
    expect({ [name]: JSON.parse(JSON.stringify(fixture)) }).toEqual(accepted);
    expect(verdicts[`${name}.json`]).toEqual([
      { name, pass: true, stateRoot: stateRoots.at(-1), fork: "Binary" },
    ]);
    // Block import of the same chain (run) checks every root geth accepted.
    const [named] = await loadFixtures([dataPath(`${dir}/${name}.json`)]);
    const result = await runBlockchainTest(named!);
    expect(result.failures).toEqual([]);
    return accepted[name].postState as Record<string, { storage: Record<string, string> }>;
  };

  it("request queue calls in the block's context, the system address touched: geth's blocktest accepted the fill", async () => {
    const post = await acceptedChain("system-calls-accepted", "system-calls");
    // What the queue call read, as geth's import re-derived it: block 3's number, timestamp,
    // coinbase and base fee, and the gas left of geth's 30M system call budget.
    expect(post["0x00000961ef480eb55e80d19ad83579a64c007002"]!.storage).toEqual({
      "0x00": "0x03",
      "0x01": "0x1e",
      "0x02": "0xdd",
      "0x03": "0x27fb363f",
      "0x04": "0x01c9754b",
    });
  });

  it("withdrawals are paid after the request queue calls, as geth's import pays them: geth's blocktest accepted the fill", async () => {
    const post = await acceptedChain("system-calls-accepted", "withdrawal-order");
    // Block 2's queue call read the system address's balance after block 1's withdrawal of 1
    // gwei and before its own 2.
    const queue = post["0x0000bbddc7ce488642fb579f8b00f3a590007251"]!.storage;
    expect([queue["0x0104"], queue["0x0109"]]).toEqual(["0x02", "0x3b9aca00"]);
    expect(post["0xfffffffffffffffffffffffffffffffffffffffe"]).toMatchObject({
      balance: "0xb2d05e00",
    });
  });

  it("beacon-root and history contracts with other code run as geth calls them: geth's blocktest accepted the fill", async () => {
    const post = await acceptedChain("system-calls-accepted", "beacon-history");
    const system = "0xfffffffffffffffffffffffffffffffffffffffe";
    const beacon = post["0x000f3df6d732807ef1319fb7b8bb8522d0beac02"]!.storage;
    // Called by the system address with the (zero) root as 32 bytes of calldata, in block 3.
    expect([beacon["0x0100"], beacon["0x0104"], beacon["0x0107"]]).toEqual([
      system,
      "0x03",
      "0x20",
    ]);
    // A transaction's SLOAD of the slot the system call wrote in its block is warm (UBT).
    expect(beacon["0x0121"]).toBe("0x0133");
    const history = post["0x0000f90827f1c53a10cb7a02335b175320002935"]!.storage;
    expect(history["0x01"]).toBe(system);
  });

  it("blob transactions without sidecars, 0 to 9 blobs a block: geth's blocktest accepted the fill", async () => {
    const post = await acceptedChain("blob-txs-accepted", "blob-txs");
    const accepted = JSON.parse(
      readFileSync(dataPath("geth-ubt/blob-txs-accepted/blob-txs.json"), "utf8"),
    )["blob-txs"] as { blocks: { blockHeader: Record<string, string> }[] };
    // The excess blob gas geth re-derived: it grows under Osaka's target too (EIP-7918, the
    // execution base fee times 2^13 above the blob base fee), and the fee reaches 2 in block 14.
    const headers = accepted.blocks.map((b) => b.blockHeader);
    expect(headers.map((h) => Number(h.blobGasUsed) / 131072)).toEqual([
      9, 9, 1, 0, 3, 9, 9, 9, 1, 9, 9, 9, 9, 9, 2,
    ]);
    expect(headers.slice(0, 5).map((h) => Number(h.excessBlobGas))).toEqual([
      0, 393216, 786432, 830122, 830122,
    ]);
    const contract = post["0x000000000000000000000000000000000000b10b"]!.storage;
    // BLOBBASEFEE at NUMBER*16+8: 1 through block 13, 2 in blocks 14 and 15; 27 calls.
    expect([contract["0xd8"], contract["0xe8"], contract["0xf8"], contract["0x00"]]).toEqual([
      "0x01",
      "0x02",
      "0x02",
      "0x1b",
    ]);
  });

  it("fixtures geth's ubtchain made from seeds 101-103 pass run (every mix, system contracts, withdrawals)", async () => {
    // Vendored: `ubtchain -seed S -blocks 4 -txs 6` with the mixes PROVENANCE.md names.
    const made = await loadFixtures([dataPath("geth-ubt/fixtures-seeds-101-103")]);
    expect(made.length).toBe(3);
    const failed: string[] = [];
    for (const named of made) {
      const result = await runBlockchainTest(named);
      if (!result.passed) failed.push(`${named.file}: ${result.failures.slice(0, 3).join("; ")}`);
    }
    expect(failed).toEqual([]);
  });
});

describe("a block a fixture expects to fail is refused as geth's import refuses it", () => {
  // geth-ubt/invalid-blocks: block 1 valid, block 2 with one header field changed (state root,
  // requests hash, gas used, a bloom bit); geth's blocktest passes each (block 2 refused, the
  // post state block 1's). The block executes without an error: only its header is wrong.
  it("has the 4 vendored chains", () => {
    expect(invalidBlocks.map((f) => f.test.network).sort()).toEqual([
      "Binary",
      "Binary",
      "Verkle",
      "Verkle",
    ]);
  });

  for (const named of invalidBlocks) {
    it(`${named.name}: block 2 refused, the chain and post state pass`, async () => {
      const result = await runBlockchainTest(named);
      expect(result.failures).toEqual([]);
      expect(result.passed).toBe(true);
    });
  }
});

describe("the EIP-4788 contract is warm for the block, as geth's system call leaves it (Binary)", () => {
  // geth-ubt/beacon-root-warm: one transaction calling 0xc050, which reads the beacon-roots
  // contract's BALANCE; with the contract in the genesis (its two ring-buffer slots written by
  // the block's system call) and without it. geth adds the contract to the access list before
  // its call, so the BALANCE is warm (100 gas); the library's direct write warmed nothing.
  const warmData = (file: string) =>
    JSON.parse(readFileSync(dataPath(`geth-ubt/beacon-root-warm/${file}`), "utf8"));
  const expected = warmData("geth-expected.json") as Record<
    "present" | "absent",
    { gasUsed: string[]; stateRoot: string }
  >;

  it("run accepts the chain geth built (43,406 gas)", async () => {
    const [named] = await loadFixtures([
      dataPath("geth-ubt/beacon-root-warm/present-geth-fixture.json"),
    ]);
    const result = await runBlockchainTest(named!);
    expect(result.failures).toEqual([]);
    expect(result.passed).toBe(true);
  });

  for (const variant of ["present", "absent"] as const) {
    it(`fill gives geth's gas and root with the contract ${variant}`, async () => {
      const filled = await fillUbtChain(warmData(`${variant}-chain.json`) as UbtChainDescription);
      expect(filled.gasUsed.map(String)).toEqual(expected[variant].gasUsed);
      expect(filled.stateRoots.at(-1)).toBe(expected[variant].stateRoot);
    });
  }
});

describe("a block whose request queue call fails is refused, as geth's PostExecution refuses it", () => {
  // geth-ubt/request-queue-failure: the EIP-7002 contract reverts; geth's blocktest fails the
  // block with these words, and passes the copy that expects block 1 to fail.
  const load = (file: string) => loadFixtures([dataPath(`geth-ubt/request-queue-failure/${file}`)]);

  it("run fails the block geth fails, in geth's words", async () => {
    const [named] = await load("refused.json");
    const result = await runBlockchainTest(named!);
    expect(result.passed).toBe(false);
    expect(result.failures).toEqual([
      "block 1: failed to process withdrawal queue: system call failed to execute: execution reverted",
    ]);
  });

  it("run passes the copy that expects the block to fail", async () => {
    const [named] = await load("expected-failure.json");
    const result = await runBlockchainTest(named!);
    expect(result.failures).toEqual([]);
    expect(result.passed).toBe(true);
  });

  it("a queue contract without code: run fails the block in geth's words (no-code.json)", async () => {
    const [named] = await load("no-code.json");
    const result = await runBlockchainTest(named!);
    expect(result.failures).toEqual([
      "block 1: failed to process withdrawal queue: empty system contract: no code at 0x00000961Ef480Eb55e80D19ad83579A64c007002",
    ]);
  });

  it("fill refuses to build a block geth would refuse: no queue contract, or one that reverts", async () => {
    const present = JSON.parse(
      readFileSync(dataPath("geth-ubt/beacon-root-warm/present-chain.json"), "utf8"),
    ) as UbtChainDescription;
    const withQueue = (code: string | undefined): UbtChainDescription => {
      const queue = "0x00000961ef480eb55e80d19ad83579a64c007002";
      const alloc = Object.fromEntries(
        Object.entries(present.genesis.alloc).filter(([key]) => key.toLowerCase() !== queue),
      );
      if (code !== undefined) alloc[queue] = { balance: "0x0", nonce: "0x1", code };
      return { ...present, genesis: { ...present.genesis, alloc } };
    };
    await expect(fillUbtChain(withQueue(undefined))).rejects.toMatchObject({
      code: "INVALID_INPUT",
      message: expect.stringContaining(
        "block 1: failed to process withdrawal queue: empty system contract: no code at 0x00000961Ef480Eb55e80D19ad83579A64c007002",
      ),
    });
    await expect(fillUbtChain(withQueue("0x5f5ffd"))).rejects.toMatchObject({
      code: "INVALID_INPUT",
      message: expect.stringContaining(
        "block 1: failed to process withdrawal queue: system call failed to execute: execution reverted",
      ),
    });
  });
});

describe("fill refuses a transaction the block cannot include, as geth's t8n rejects it", () => {
  it("fill names a transaction the block cannot include in geth's words", async () => {
    // Expected reasons: geth's `evm t8n` (02b73d4) rejecting the same transaction on the Binary
    // fork with the same base fee (875000000, block 1 of a fill), its `rejected[].error`.
    const sender = "0x71562b71999873db5b286df957af199ec94617f7";
    const transfer = {
      type: "0x2",
      chainId: "0x1",
      nonce: "0x0",
      gas: "0x5208",
      maxFeePerGas: "0x12a05f200",
      maxPriorityFeePerGas: "0x1",
      value: "0x1",
      input: "0x",
      to: "0xdddddddddddddddddddddddddddddddddddddddd",
      accessList: [],
      v: "0x0",
      r: "0x0",
      s: "0x0",
      secretKey: "0xb71c71a67e1177ad4e901695e1b4b9ee17ae16c6668d313eac2f96dbcda3f291",
    };
    // A blob transaction takes no sidecar (geth's chain maker includes it as it is); at
    // excess blob gas 0 the blob base fee is 1.
    const blob = {
      ...transfer,
      type: "0x3",
      maxFeePerBlobGas: "0x1",
      blobVersionedHashes: [`0x01${"22".repeat(31)}`],
    };
    const hashes = (n: number) =>
      Array.from({ length: n }, (_, i) => `0x01${i.toString(16).padStart(2, "0").repeat(31)}`);
    const cases: [Record<string, unknown>[], string][] = [
      [
        [{ ...transfer, nonce: "0x3" }],
        "transaction 0 cannot be included: nonce too high: address 0x71562b71999873DB5b286dF957af199Ec94617F7, tx: 3 state: 0",
      ],
      [
        [transfer, transfer],
        "transaction 1 cannot be included: nonce too low: address 0x71562b71999873DB5b286dF957af199Ec94617F7, tx: 0 state: 1",
      ],
      [
        [{ ...transfer, value: "0xc9f2c9cd04674edea40000000" }],
        "transaction 0 cannot be included: insufficient funds for gas * price + value: address 0x71562b71999873DB5b286dF957af199Ec94617F7 have 1000000000000000000 want 1000000000000000105000000000000",
      ],
      [
        [{ ...transfer, maxFeePerGas: "0x1" }],
        "transaction 0 cannot be included: max fee per gas less than block base fee: address 0x71562b71999873DB5b286dF957af199Ec94617F7, maxFeePerGas: 1, baseFee: 875000000",
      ],
      [
        [{ ...transfer, maxPriorityFeePerGas: "0x165a0bc00" }],
        "transaction 0 cannot be included: max priority fee per gas higher than max fee per gas: address 0x71562b71999873DB5b286dF957af199Ec94617F7, maxPriorityFeePerGas: 6000000000, maxFeePerGas: 5000000000",
      ],
      [
        [{ ...transfer, gas: "0x5f5e100" }],
        "transaction 0 cannot be included: transaction gas limit too high (cap: 16777216, tx: 100000000)",
      ],
      [
        [{ ...transfer, input: "0x01" }],
        "transaction 0 cannot be included: intrinsic gas too low: have 21000, want 21016",
      ],
      [
        [{ ...transfer, input: "0x01", gas: "0x521c" }],
        "transaction 0 cannot be included: insufficient gas for floor data gas cost: have 21020, want 21040",
      ],
      [
        [{ ...blob, maxFeePerBlobGas: "0x0" }],
        "transaction 0 cannot be included: max fee per blob gas less than block blob gas fee: address 0x71562b71999873DB5b286dF957af199Ec94617F7 blobGasFeeCap: 0, blobBaseFee: 1",
      ],
      [
        [{ ...blob, blobVersionedHashes: hashes(7) }],
        "transaction 0 cannot be included: blob transaction has too many blobs",
      ],
      [
        [
          { ...blob, blobVersionedHashes: hashes(6) },
          { ...blob, nonce: "0x1", blobVersionedHashes: hashes(4) },
        ],
        "transaction 1 cannot be included: blob gas (1310720) would exceed maximum allowance 1179648",
      ],
      [
        [{ ...blob, blobVersionedHashes: [`0x02${"22".repeat(31)}`] }],
        "transaction 0 cannot be included: blob 0 has invalid hash version",
      ],
    ];
    for (const [transactions, reason] of cases) {
      const description = {
        network: "Binary",
        genesis: { alloc: { [sender]: { balance: "0xde0b6b3a7640000" } } },
        blocks: [{ transactions }],
      } as unknown as UbtChainDescription;
      await expect(fillUbtChain(description)).rejects.toMatchObject({
        code: "INVALID_INPUT",
        message: `block 1 ${reason}`,
      });
    }
    // Verkle is Shanghai with the binary tree (geth's tests/init.go): no Cancun, so geth's
    // signer for the block (MakeSigner: London's) refuses the type before anything runs, and its
    // chain maker panics with that error. (geth's t8n words it as its missing env field.)
    const verkle = {
      network: "Verkle",
      genesis: { alloc: { [sender]: { balance: "0xde0b6b3a7640000" } } },
      blocks: [{ transactions: [{ ...blob, maxFeePerGas: "0x3b9aca00" }] }],
    } as unknown as UbtChainDescription;
    await expect(fillUbtChain(verkle)).rejects.toMatchObject({
      code: "INVALID_INPUT",
      message: "block 1 transaction 0 cannot be included: transaction type not supported",
    });
  });

  it("a transaction whose EIP-4762 value calls mint gas stops the fill (geth panics on it)", async () => {
    // c2 calls itself with 1 wei and all its gas: each unspent 2300 stipend comes back minted
    // (geth's evm t8n on this transaction: "panic: gas used underflow", geth-cases.json
    // tx_value_call_mints_gas and _no_tip).
    const sender = "0x71562b71999873db5b286df957af199ec94617f7";
    const c2 = "0x00000000000000000000000000000000000000c2";
    const call = {
      type: "0x0",
      nonce: "0x0",
      to: c2,
      gas: "0xa038",
      value: "0x1",
      input: "0x",
      v: "0x0",
      r: "0x0",
      s: "0x0",
      secretKey: "0xb71c71a67e1177ad4e901695e1b4b9ee17ae16c6668d313eac2f96dbcda3f291",
    };
    for (const [gasPrice, words] of [
      ["0x12a05f200", /^block 1 transaction 0: the call returned .* tip of 4125000000 wei per gas/],
      ["0x342770c0", /^block 1 transaction 0: the block's gas used is -2214325: /],
    ] as const) {
      const description = {
        network: "Verkle",
        genesis: {
          alloc: {
            [sender]: { balance: "0xde0b6b3a7640000" },
            [c2]: { balance: "0x1", nonce: "0x1", code: "0x60006000600060006001305af100" },
          },
        },
        blocks: [{ transactions: [{ ...call, gasPrice }] }],
      } as unknown as UbtChainDescription;
      await expect(fillUbtChain(description)).rejects.toMatchObject({
        code: "GAS_RETURNED_OVER_LIMIT",
        message: expect.stringMatching(words),
      });
    }
  });
});
