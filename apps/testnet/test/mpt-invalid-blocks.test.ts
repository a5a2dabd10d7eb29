import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { BlockchainTest, NamedTest } from "../src/fixtures/blockchain-test.js";
import { loadFixtures } from "../src/fixtures/load-fixtures.js";
import { runBlockchainTest } from "../src/runner/run-blockchain-test.js";
import { dataPath } from "./test-data.js";

// mpt/invalid-blocks (PROVENANCE.md): a Prague chain geth's evm t8n and b11r built, with a copy of
// block 2 whose header has another MPT state root, expected to fail, before the real block 2;
// geth's evm blocktest refuses the copy and passes the test (invalid-blocks-geth-verdicts.json).
const [fixture] = await loadFixtures([dataPath("mpt/invalid-blocks/mpt-invalid-state-root.json")]);
// The same chain with, before the real block 2, a copy of it whose dynamic-fee transaction has a
// chain id with a leading zero byte: geth's decoding refuses it, ethereumjs' takes it.
const [nonCanonical] = await loadFixtures([
  dataPath("mpt/invalid-blocks/mpt-non-canonical-tx.json"),
]);
const verdicts = JSON.parse(
  readFileSync(dataPath("mpt/invalid-blocks-geth-verdicts.json"), "utf8"),
) as Record<string, unknown>;

function mutate(named: NamedTest, change: (test: BlockchainTest) => BlockchainTest): NamedTest {
  return { ...named, test: change(structuredClone(named.test) as BlockchainTest) };
}

describe("a block of an MPT fixture expected to fail for its state root is refused, as geth refuses it", () => {
  it("geth's blocktest passed the fixture", () => {
    expect(verdicts["mpt-invalid-state-root.json"]).toMatchObject([
      { name: "mpt-invalid-state-root", pass: true, fork: "Prague" },
    ]);
  });

  it("run refuses the copy with another MPT state root and passes the chain (its MPT execution checks the roots)", async () => {
    const result = await runBlockchainTest(fixture!);
    expect(result.failures).toEqual([]);
    expect(result.mismatches).toEqual([]);
    expect(result.passed).toBe(true);
  });

  it("the real block 2 expected to fail is reported: its MPT state root is the header's", async () => {
    const named = mutate(fixture!, (t) => ({
      ...t,
      blocks: [t.blocks[0]!, { ...t.blocks[2]!, expectException: "InvalidStateRoot" }],
    }));
    const result = await runBlockchainTest(named);
    expect(result.passed).toBe(false);
    expect(result.failures).toContain("block 2 should fail (InvalidStateRoot) but ran");
  });
});

describe("a block with a transaction geth's decoding refuses is refused, as geth's import refuses it", () => {
  it("geth's blocktest passed the fixture", () => {
    expect(verdicts["mpt-non-canonical-tx.json"]).toMatchObject([
      { name: "mpt-non-canonical-tx", pass: true, fork: "Prague" },
    ]);
  });

  it("run refuses the copy whose chain id has a leading zero byte and passes the chain", async () => {
    const result = await runBlockchainTest(nonCanonical!);
    expect(result.failures).toEqual([]);
    expect(result.passed).toBe(true);
  });

  it("the copy expected to pass fails, naming the transaction and geth's reason", async () => {
    const named = mutate(nonCanonical!, (t) => {
      const { expectException: _, ...copy } = t.blocks[1]!;
      return { ...t, blocks: [t.blocks[0]!, copy] };
    });
    const result = await runBlockchainTest(named);
    expect(result.passed).toBe(false);
    // The chain stops there (its post state then differs too).
    expect(result.failures[0]).toBe(
      "block 2: transaction 1: rlp: non-canonical integer (leading zero bytes) for *big.Int, decoding into (types.Transaction)(types.DynamicFeeTx).ChainID",
    );
  });
});
