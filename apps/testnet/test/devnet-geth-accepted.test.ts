import { describe, expect, it } from "vitest";
import { produceDevnet } from "../src/devnet/run-devnet.js";
import { dataPath, readDataJson } from "./test-data.js";

/**
 * The devnet's chains are ones go-ethereum accepts: for two genesis files (geth's Verkle and
 * Binary rules, chain id 1 as geth's blocktest runner needs), geth computed the genesis block
 * and re-executed the 16-block chain the devnet produced, accepting every header
 * (`geth-ubt/devnet-accepted/`, PROVENANCE.md). The devnet is deterministic, so producing the
 * chain again must give the same genesis hash and root, the same final state root and the same
 * head hash — the hash of the last header, which commits to every header before it.
 */
interface Verdict {
  readonly blocks: number;
  readonly genesis: { readonly hash: string; readonly root: string };
  readonly blocktest: { readonly pass: boolean; readonly stateRoot: string; readonly fork: string };
  readonly lastblockhash: string;
}

const verdicts = readDataJson<Record<string, Verdict | string>>(
  "geth-ubt/devnet-accepted/geth-verdicts.json",
);

describe("devnet chains that go-ethereum imported (evm blocktest: pass)", () => {
  for (const [file, verdict] of Object.entries(verdicts)) {
    if (typeof verdict === "string") continue;
    it(`${file}: ${verdict.blocktest.fork}, ${verdict.blocks} blocks`, async () => {
      expect(verdict.blocktest.pass).toBe(true);
      const devnet = await produceDevnet({
        genesisPath: dataPath(`geth-ubt/devnet-accepted/${file}`),
        blocks: verdict.blocks,
      });
      const { fixture } = devnet;
      expect(fixture.network).toBe(verdict.blocktest.fork);
      expect(fixture.genesisBlockHeader?.hash).toBe(verdict.genesis.hash);
      expect(devnet.genesisRoot).toBe(verdict.genesis.root);
      expect(devnet.blocks.at(-1)?.root).toBe(verdict.blocktest.stateRoot);
      expect(fixture.lastblockhash).toBe(verdict.lastblockhash);
    }, 120_000);
  }
});
