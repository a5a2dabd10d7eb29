import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { fillUbtChain } from "../src/fill/fill-ubt-chain.js";
import { transition } from "../src/t8n/transition.js";
import { dataPath } from "./test-data.js";

/**
 * Zero-amount withdrawals (EIP-4895): geth's `AddBalance` of 0 touches the account, so an absent
 * or empty one is deleted at the block's end — on UBT state its header leaves are written as
 * zeros, which changes the root. Withdrawals here: 0 to an absent account (twice), 0 to an
 * existing funded account, 0 then 7 Gwei to one absent account, 0 to an existing empty account.
 * Expected values are geth's (test/data/geth-ubt/PROVENANCE.md, `zero-withdrawals/`).
 */
const DIR = "geth-ubt/zero-withdrawals";

function read(file: string): unknown {
  return JSON.parse(readFileSync(dataPath(`${DIR}/${file}`), "utf8"));
}

describe("zero-amount withdrawals give geth's roots", () => {
  for (const fork of ["Verkle", "Binary"] as const) {
    it(`t8n under ${fork} equals geth's evm t8n`, async () => {
      const output = await transition({
        alloc: read(fork === "Binary" ? "alloc_sys.json" : "alloc.json") as never,
        env: read("env.json") as never,
        txs: read("txs.json") as never,
        fork,
      });
      expect(JSON.parse(JSON.stringify(output.result))).toEqual(read(`out-${fork}/result.json`));
      expect(JSON.parse(JSON.stringify(output.alloc))).toEqual(read(`out-${fork}/alloc.json`));
    });
  }

  it("fill builds the chain geth's evm blocktest accepts, with geth's final root", async () => {
    const [verdict] = read("chain-Verkle.geth-verdict.json") as {
      pass: boolean;
      stateRoot: string;
    }[];
    expect(verdict?.pass).toBe(true);
    const filled = await fillUbtChain(read("chain-Verkle.json") as never);
    expect(filled.stateRoots.at(-1)).toBe(verdict?.stateRoot);
  });
});
