import { readFileSync } from "node:fs";
import { Hardfork } from "@ethereumjs/common";
import { describe, expect, it } from "vitest";
import { commonForNetwork } from "../src/chain/common-for-network.js";
import { loadFixtures } from "../src/fixtures/load-fixtures.js";
import { runBlockchainTest } from "../src/runner/run-blockchain-test.js";
import { dataPath } from "./test-data.js";

/** The fork rules in force at a block of a transition network. */
function at(network: string, blockNumber: bigint, timestamp = 0n) {
  const common = commonForNetwork(network);
  common.setHardforkBy({ blockNumber, timestamp });
  return common;
}

describe("transition networks bring the forks between with them, as geth's tests/init.go sets them", () => {
  it("ByzantiumToConstantinopleFixAt5: Constantinople's rules from block 5 (geth: ConstantinopleBlock and PetersburgBlock 5)", () => {
    const before = at("ByzantiumToConstantinopleFixAt5", 4n);
    expect(before.hardfork()).toBe(Hardfork.Byzantium);
    expect(before.gteHardfork(Hardfork.Constantinople)).toBe(false);
    const after = at("ByzantiumToConstantinopleFixAt5", 5n);
    expect(after.hardfork()).toBe(Hardfork.Petersburg);
    // Constantinople's SHL/SHR/SAR, CREATE2 and EXTCODEHASH (its 2 ETH reward: the chain below).
    expect(after.gteHardfork(Hardfork.Constantinople)).toBe(true);
    expect(after.hardforkBlock(Hardfork.Constantinople)).toBe(5n);
    // Petersburg's removal of EIP-1283's net gas metering.
    expect(after.isActivatedEIP(1283)).toBe(false);
  });

  it("HomesteadToEIP150At5 has no DAO block (geth sets none); HomesteadToDaoAt5 has it at 5", () => {
    const common = commonForNetwork("HomesteadToEIP150At5");
    expect(common.hardforkBlock(Hardfork.Dao)).toBe(null);
    expect(at("HomesteadToEIP150At5", 5n).hardfork()).toBe(Hardfork.TangerineWhistle);
    expect(commonForNetwork("HomesteadToDaoAt5").hardforkBlock(Hardfork.Dao)).toBe(5n);
  });

  it("a transition at a total difficulty (ArrowGlacierToParisAtDiffC0000) is refused by name, not as an unknown fork", () => {
    expect(() => commonForNetwork("ArrowGlacierToParisAtDiffC0000")).toThrow(
      expect.objectContaining({
        code: "UNKNOWN_NETWORK",
        message:
          "network 'ArrowGlacierToParisAtDiffC0000': a transition at a total difficulty (geth's TerminalTotalDifficulty 0xC0000) is not supported: @ethereumjs/common 10 changes forks by block number or timestamp only",
      }),
    );
  });

  it("BPO3 and BPO4, which the library lacks, carry geth's blob schedules (params.DefaultBPO3/4BlobConfig)", () => {
    const schedule = (network: string, timestamp = 0n) => {
      const common = at(network, 1n, timestamp);
      return ["target", "max", "blobGasPriceUpdateFraction"].map((p) => common.param(p));
    };
    expect(schedule("BPO3")).toEqual([21n, 32n, 20_609_697n]);
    expect(schedule("BPO4")).toEqual([14n, 21n, 13_739_630n]);
    // BPO2's until the transition, BPO3's from it.
    expect(schedule("BPO2ToBPO3AtTime15k", 14_999n)).toEqual([14n, 21n, 11_684_671n]);
    expect(schedule("BPO2ToBPO3AtTime15k", 15_000n)).toEqual([21n, 32n, 20_609_697n]);
  });

  it("Amsterdam is refused: the library's draft is not geth's", () => {
    for (const network of ["Amsterdam", "BPO2ToAmsterdamAtTime15k"]) {
      expect(() => commonForNetwork(network)).toThrow(
        expect.objectContaining({
          code: "UNKNOWN_NETWORK",
          message: expect.stringMatching(
            /^fork 'Amsterdam' is not supported: .*builder deposit queue/,
          ),
        }),
      );
    }
  });

  it("the time transitions are unchanged: ParisToShanghaiAtTime15k is Shanghai from 15,000", () => {
    expect(at("ParisToShanghaiAtTime15k", 1n, 14_999n).hardfork()).toBe(Hardfork.Paris);
    expect(at("ParisToShanghaiAtTime15k", 1n, 15_000n).hardfork()).toBe(Hardfork.Shanghai);
  });

  it("a ByzantiumToConstantinopleFixAt5 chain geth built and imported passes run", async () => {
    // geth-pow (PROVENANCE.md): before, run paid the coinbases Byzantium's 3 ETH from block 5.
    const [named] = await loadFixtures([
      dataPath("geth-pow/fixtures/byzantium-to-constantinople-fix-at-5.json"),
    ]);
    const verdicts = JSON.parse(
      readFileSync(dataPath("geth-pow/geth-verdicts.json"), "utf8"),
    ) as Record<string, unknown>;
    expect(verdicts["byzantium-to-constantinople-fix-at-5.json"]).toMatchObject([
      { pass: true, fork: "ByzantiumToConstantinopleFixAt5" },
    ]);
    const result = await runBlockchainTest(named!);
    expect(result.failures).toEqual([]);
    expect(result.mismatches).toEqual([]);
    expect(result.passed).toBe(true);
  });
});
