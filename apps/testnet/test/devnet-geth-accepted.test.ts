import { bytesToHex } from "@bintrie/core";
import { describe, expect, it } from "vitest";
import { commonForNetwork } from "../src/chain/common-for-network.js";
import { TestnetError } from "../src/chain/testnet-error.js";
import { parseDevnetGenesis } from "../src/devnet/devnet-genesis.js";
import { devnetGenesisBlock } from "../src/devnet/devnet-genesis-block.js";
import { produceDevnet } from "../src/devnet/run-devnet.js";
import { applyAlloc } from "../src/fixtures/alloc.js";
import { BinaryStateManager } from "../src/state/binary-state-manager.js";
import { isUbtCommon } from "../src/ubt/ubt-common.js";
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

/**
 * The genesis block's header fields, as geth's `Genesis.ToBlock` fills them: for each change to
 * the two genesis files above (`genesis-header-fields.json`: a field set, cleared or spelled in
 * another letter case), geth's genesis hash and root, or that geth refused the file.
 */
interface HeaderCase {
  readonly genesis: string;
  readonly name: string;
  readonly change: Record<string, unknown>;
  readonly geth: { readonly hash: string; readonly root: string } | "refused";
}

const { cases: headerCases } = readDataJson<{ cases: HeaderCase[] }>(
  "geth-ubt/devnet-accepted/genesis-header-fields.json",
);

describe("the devnet's genesis block is geth's (genesis-header-fields.json)", () => {
  it("covers both files, accepted and refused changes", () => {
    expect(headerCases.length).toBeGreaterThan(30);
    expect(headerCases.filter((c) => c.geth === "refused").length).toBe(2);
  });

  for (const c of headerCases) {
    const verdict = c.geth === "refused" ? "refused" : "geth's hash";
    it(`${c.genesis} ${c.name}: ${verdict}`, async () => {
      const file = readDataJson<Record<string, unknown>>(`geth-ubt/devnet-accepted/${c.genesis}`);
      const json: Record<string, unknown> = { ...file, ...c.change };
      for (const [key, value] of Object.entries(c.change)) if (value === null) delete json[key];
      if (c.geth === "refused") {
        expect(() => parseDevnetGenesis(json, c.name)).toThrow(TestnetError);
        return;
      }
      const genesis = parseDevnetGenesis(json, c.name);
      const common = commonForNetwork(genesis.fork, {
        chainId: genesis.chainId,
        config: genesis.config,
      });
      const state = new BinaryStateManager({
        writePolicy: isUbtCommon(common) ? "geth-ubt" : "mpt-compatible",
      });
      const { root } = await applyAlloc(state, genesis.alloc);
      expect(bytesToHex(root)).toBe(c.geth.root);
      expect(bytesToHex(devnetGenesisBlock(genesis, common, root).hash())).toBe(c.geth.hash);
    });
  }
});
