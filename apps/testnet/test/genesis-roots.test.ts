import { parseGenesisJson } from "@bintrie/core";
import { bytesToHex } from "@ethereumjs/util";
import { describe, expect, it } from "vitest";
import { applyAlloc } from "../src/fixtures/alloc.js";
import type { FixtureAlloc } from "../src/fixtures/blockchain-test.js";
import { BinaryStateManager } from "../src/state/binary-state-manager.js";
import { readDataJson } from "./test-data.js";

interface GethGenesis {
  alloc: FixtureAlloc;
  expectedStateRoot: string;
}

interface StateRootVector {
  name: string;
  alloc: FixtureAlloc;
  expected_root: Record<string, string>;
}

describe("binary genesis roots through the state manager", () => {
  it("TestBinaryGenesisCommit's alloc gives geth's root 0x0870fd58…63f5", async () => {
    const genesis = readDataJson<GethGenesis>(
      "mpt/eip7864-geth/TestBinaryGenesisCommit.genesis.json",
    );
    const { root } = await applyAlloc(new BinaryStateManager(), genesis.alloc);
    expect(bytesToHex(root)).toBe(genesis.expectedStateRoot);
    expect(genesis.expectedStateRoot).toBe(
      "0x0870fd587c41dc778019de8c5cb3193fe4ef1f417976461952d3712ba39163f5",
    );
  });

  it("an address or slot spelled twice is read as geth reads it: the last one wins whole", async () => {
    const genesis = readDataJson<GethGenesis>("mpt/eip7864-geth/duplicate-spellings.genesis.json");
    const { root, summary } = await applyAlloc(new BinaryStateManager(), genesis.alloc);
    expect(bytesToHex(root)).toBe(genesis.expectedStateRoot);
    expect(summary).toEqual({ accounts: 2, storageSlots: 2, codeBytes: 0 });
  });

  const { vectors } = readDataJson<{ state_root_vectors: { vectors: StateRootVector[] } }>(
    "mpt/eip7864-reference.state-roots.json",
  ).state_root_vectors;

  it("covers every state_root_vectors alloc", () => {
    expect(vectors.length).toBe(6);
  });

  for (const vector of vectors) {
    it(`${vector.name}: sha256-be root`, async () => {
      const { root } = await applyAlloc(new BinaryStateManager(), vector.alloc);
      expect(bytesToHex(root)).toBe(vector.expected_root["sha256-be"]);
    });
  }

  it("the same alloc under blake3-le gives the reference blake3-le root", async () => {
    const vector = vectors[0]!;
    const { root } = await applyAlloc(
      new BinaryStateManager({ scheme: "blake3-le" }),
      vector.alloc,
    );
    expect(bytesToHex(root)).toBe(vector.expected_root["blake3-le"]);
  });
});

describe("fixture allocs are read as geth reads a GenesisAlloc (geth-alloc-rules vector)", () => {
  const { cases } = readDataJson<{ cases: { name: string; alloc: string; geth: string }[] }>(
    "mpt/eip7864-geth/genesis-alloc-rules.json",
  );
  // Where core knowingly differs from geth (see core's test/genesis-alloc-rules.test.ts):
  // negative balances are refused. Each text is read as t8n reads an alloc file (bare
  // balances and nonces by their digits, core's parseGenesisJson).
  const differences = new Set(["balance-neg", "bal-0x-neg"]);

  it("the vector holds accepted and refused cases", () => {
    expect(cases.filter((c) => c.geth === "refused").length).toBeGreaterThan(30);
    expect(cases.filter((c) => c.geth !== "refused").length).toBeGreaterThan(40);
  });

  for (const rule of cases.filter((c) => !differences.has(c.name))) {
    it(`${rule.name}: ${rule.geth === "refused" ? "refused" : "geth's root"}`, async () => {
      const state = new BinaryStateManager();
      const alloc = parseGenesisJson(rule.alloc, "alloc") as FixtureAlloc;
      if (rule.geth === "refused") {
        await expect(applyAlloc(state, alloc)).rejects.toMatchObject({
          name: "TestnetError",
          code: "INVALID_FIXTURE",
        });
        // Nothing was written.
        expect(bytesToHex(await state.getStateRoot())).toBe(`0x${"00".repeat(32)}`);
      } else {
        const { root } = await applyAlloc(state, alloc);
        expect(bytesToHex(root)).toBe(rule.geth);
      }
    });
  }
});
