import { readFileSync } from "node:fs";
import { RLP } from "@ethereumjs/rlp";
import { bytesToHex, hexToBytes } from "@ethereumjs/util";
import { keccak_256 } from "@noble/hashes/sha3.js";
import { describe, expect, it } from "vitest";
import { fillBlockchainTest } from "../src/fill/fill-blockchain-test.js";
import type { BlockchainTest, NamedTest } from "../src/fixtures/blockchain-test.js";
import { loadFixtures } from "../src/fixtures/load-fixtures.js";
import { runBlockchainTest } from "../src/runner/run-blockchain-test.js";
import { dataPath } from "./test-data.js";

// geth-pow (PROVENANCE.md): proof-of-work MPT chains geth's evm t8n and b11r built, which geth's
// evm blocktest imports (geth-verdicts.json). Before Byzantium each receipt holds the MPT state
// root after its transaction, so their receipts roots need the MPT execution beside the binary one.
const fixtures = (await loadFixtures([dataPath("geth-pow/fixtures")])).filter(
  (f) => f.name !== "byzantium-to-constantinople-fix-at-5",
);
const verdicts = JSON.parse(
  readFileSync(dataPath("geth-pow/geth-verdicts.json"), "utf8"),
) as Record<string, { name: string; pass: boolean; fork: string }[]>;
const frontier = fixtures.find((f) => f.name === "frontier")!;

/** Header field positions in a block header's RLP list. */
const STATE_ROOT = 3;
const RECEIPT_TRIE = 5;

/** A fixture block with one header field replaced: its RLP and hash recomputed. */
function withHeaderField(rlp: string, field: number, value: Uint8Array) {
  const [header, ...body] = RLP.decode(hexToBytes(rlp as `0x${string}`)) as unknown as [
    Uint8Array[],
    ...unknown[],
  ];
  const changed = header.slice();
  changed[field] = value;
  return {
    rlp: bytesToHex(RLP.encode([changed, ...body] as never)),
    hash: bytesToHex(keccak_256(RLP.encode(changed))),
  };
}

function mutate(named: NamedTest, change: (test: BlockchainTest) => BlockchainTest): NamedTest {
  return { ...named, test: change(structuredClone(named.test) as BlockchainTest) };
}

/** The last block of `named` with a header field replaced (and lastblockhash following it). */
function lastBlockWith(named: NamedTest, field: number, value: Uint8Array): NamedTest {
  return mutate(named, (t) => {
    const last = t.blocks.at(-1)!;
    const { rlp, hash } = withHeaderField(last.rlp, field, value);
    return { ...t, blocks: [...t.blocks.slice(0, -1), { rlp }], lastblockhash: hash };
  });
}

describe("run checks receipts roots before Byzantium on an MPT execution beside the binary one", () => {
  it("has the 6 chains geth built and imported", () => {
    expect(fixtures.map((f) => f.test.network)).toEqual([
      "EIP150",
      "EIP158ToByzantiumAt5",
      "EIP158",
      "Frontier",
      "Homestead",
      "Homestead",
    ]);
    for (const f of fixtures) {
      expect(verdicts[`${f.name}.json`]).toMatchObject([
        { name: f.name, pass: true, fork: f.test.network },
      ]);
    }
  });

  for (const named of fixtures) {
    it(`${named.name} (${named.test.network}) passes: receipts roots, MPT roots, post state`, async () => {
      const result = await runBlockchainTest(named);
      expect(result.failures).toEqual([]);
      expect(result.passed).toBe(true);
      expect(result.blocks).toBe(named.test.blocks.length);
    });
  }

  // homestead-blockhash stores BLOCKHASH(NUMBER - 1): the rebuilt chain's hashes differ, so its
  // state, and the MPT roots in its receipts, differ from the source's; the rebuilt headers carry
  // what the rebuilt execution computed.
  it("fill makes a binary fixture of each that run passes (the receipts roots checked again)", async () => {
    for (const named of fixtures) {
      const fill = await fillBlockchainTest(named);
      expect(fill.failures).toEqual([]);
      const result = await runBlockchainTest({ ...named, test: fill.fixture! });
      expect(result.failures).toEqual([]);
      expect(result.passed).toBe(true);
    }
  });

  it("a block whose header has another receipts root fails, naming both roots", async () => {
    const other = new Uint8Array(32).fill(0x11);
    const result = await runBlockchainTest(lastBlockWith(frontier, RECEIPT_TRIE, other));
    expect(result.passed).toBe(false);
    expect(result.failures).toEqual([
      expect.stringMatching(
        new RegExp(
          `^block 3: receipts root 0x[0-9a-f]{64} \\(receipts with MPT roots\\), header has ${bytesToHex(other)}$`,
        ),
      ),
    ]);
  });

  it("a block whose header has another MPT state root fails", async () => {
    const other = new Uint8Array(32).fill(0x22);
    const result = await runBlockchainTest(lastBlockWith(frontier, STATE_ROOT, other));
    expect(result.failures).toEqual([
      `block 3: MPT state root ${frontier.test.blocks[2]!.blockHeader!.stateRoot}, header has ${bytesToHex(other)}`,
    ]);
  });

  it("a refused block (expectException) leaves the MPT execution as it was: its valid sibling passes next", async () => {
    const bad = withHeaderField(
      frontier.test.blocks[2]!.rlp,
      RECEIPT_TRIE,
      new Uint8Array(32).fill(0x33),
    );
    const named = mutate(frontier, (t) => ({
      ...t,
      blocks: [
        t.blocks[0]!,
        t.blocks[1]!,
        { rlp: bad.rlp, expectException: "InvalidReceiptsRoot" },
        t.blocks[2]!,
      ],
    }));
    const result = await runBlockchainTest(named);
    expect(result.failures).toEqual([]);
    expect(result.passed).toBe(true);
  });

  it("a valid block a fixture expects to fail is reported (its receipts match the MPT execution)", async () => {
    const named = mutate(frontier, (t) => ({
      ...t,
      blocks: [t.blocks[0]!, t.blocks[1]!, { ...t.blocks[2]!, expectException: "Anything" }],
    }));
    const result = await runBlockchainTest(named);
    expect(result.passed).toBe(false);
    expect(result.failures).toContain("block 3 should fail (Anything) but ran");
  });
});
