import type { Block } from "@ethereumjs/block";
import { bytesToHex } from "@ethereumjs/util";
import { BINARY_FIXTURE_FORMAT } from "../fill/fill-blockchain-test.js";
import { allocFromDump } from "../fixtures/alloc.js";
import type { BlockchainTest, FixtureHeader } from "../fixtures/blockchain-test.js";
import { quantityHex } from "../fixtures/hex.js";
import type { BinaryStateManager } from "../state/binary-state-manager.js";
import { type DevnetGenesis, RULE_CONFIG_KEYS } from "./devnet-genesis.js";

/**
 * A devnet's chain as a binary blockchain fixture (what `run` re-executes, and geth's
 * `evm blocktest` for a UBT chain): genesis, every block's RLP and header, and the post state
 * of `state`, which must be at the last block.
 */
export async function devnetFixture(
  genesis: DevnetGenesis,
  genesisBlock: Block,
  blocks: readonly Block[],
  state: BinaryStateManager,
): Promise<BlockchainTest> {
  const last = blocks.length === 0 ? genesisBlock : blocks[blocks.length - 1]!;
  return {
    network: genesis.fork,
    genesisBlockHeader: headerJson(genesisBlock),
    genesisRLP: bytesToHex(genesisBlock.serialize()),
    pre: genesis.alloc,
    blocks: blocks.map((block) => ({
      rlp: bytesToHex(block.serialize()),
      blockHeader: headerJson(block),
      blocknumber: block.header.number.toString(),
    })),
    postState: allocFromDump(await state.dumpState()),
    lastblockhash: bytesToHex(last.hash()),
    sealEngine: "NoProof",
    config: fixtureConfig(genesis),
    _bintrie: {
      format: BINARY_FIXTURE_FORMAT,
      scheme: state.scheme,
      groupDepth: state.groupDepth,
      genesisRoot: bytesToHex(genesisBlock.header.stateRoot),
      blockRoots: blocks.map((block) => bytesToHex(block.header.stateRoot)),
    },
  };
}

/**
 * The fixture's `config`: network and chain id, plus the genesis's fork times and UBT switches —
 * `run` needs them to pick the same rules (a Cancun or Prague chain with `ubtTime` 0 has no
 * network name of its own; `enableUBTAtGenesis` alone makes a chain UBT).
 */
function fixtureConfig(genesis: DevnetGenesis): Record<string, unknown> {
  const config: Record<string, unknown> = {
    network: genesis.fork,
    chainid: quantityHex(BigInt(genesis.chainId)),
  };
  for (const key of RULE_CONFIG_KEYS) {
    if (genesis.config[key] !== undefined) config[key] = genesis.config[key];
  }
  return config;
}

/** The header as fixtures spell it (`bloom`, plus `hash`). */
function headerJson(block: Block): FixtureHeader {
  const { logsBloom, ...rest } = block.header.toJSON() as Record<string, string>;
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(rest)) if (value !== undefined) out[key] = value;
  if (logsBloom !== undefined) out.bloom = logsBloom;
  out.hash = bytesToHex(block.hash());
  return out;
}
