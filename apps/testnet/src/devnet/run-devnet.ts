import { assertKnownOptions } from "@bintrie/codec";
import type { KeyScheme } from "@bintrie/core";
import { type Block, createBlock } from "@ethereumjs/block";
import { createBlockchain } from "@ethereumjs/blockchain";
import type { Common } from "@ethereumjs/common";
import { createTx } from "@ethereumjs/tx";
import { bytesToHex, createAddressFromString, equalsBytes, hexToBytes } from "@ethereumjs/util";
import { keccak_256 } from "@noble/hashes/sha3.js";
import { openBlockAsGeth, sealBlockAsGeth } from "../chain/block-as-geth.js";
import { commonForNetwork } from "../chain/common-for-network.js";
import { KnownBlocks } from "../chain/known-blocks.js";
import { TestnetError } from "../chain/testnet-error.js";
import { BINARY_FIXTURE_FORMAT } from "../fill/fill-blockchain-test.js";
import { allocFromDump, applyAlloc } from "../fixtures/alloc.js";
import type { BlockchainTest, FixtureHeader } from "../fixtures/blockchain-test.js";
import { quantityHex } from "../fixtures/hex.js";
import { BinaryStateManager } from "../state/binary-state-manager.js";
import { createExecutionVM } from "../ubt/create-ubt-vm.js";
import { isUbtCommon } from "../ubt/ubt-common.js";
import { COUNTER_RUNTIME, STORAGE_WRITER_RUNTIME } from "./contracts.js";
import { type DevAccount, devAccount } from "./dev-accounts.js";
import {
  DEFAULT_DEVNET_GENESIS,
  type DevnetGenesis,
  RULE_CONFIG_KEYS,
  readDevnetGenesis,
} from "./devnet-genesis.js";
import { createRandom, type PlannedTx, planBlock, type WorkloadState } from "./workload.js";

export interface DevnetOptions {
  /** A geth-style genesis file. Default: the package's `genesis/devnet.json`. */
  readonly genesisPath?: string;
  /** Blocks to produce. Default 32. */
  readonly blocks?: number;
  /** Workload seed (same seed, same chain). Default 7864. */
  readonly seed?: number;
  readonly scheme?: KeyScheme;
  readonly groupDepth?: number;
  /** Called after each block with its binary root. */
  readonly onBlock?: (block: ProducedBlock) => void;
}

const DEVNET_OPTION_KEYS: readonly (keyof DevnetOptions)[] = [
  "genesisPath",
  "blocks",
  "seed",
  "scheme",
  "groupDepth",
  "onBlock",
];

export interface ProducedBlock {
  readonly number: number;
  readonly root: string;
  readonly transactions: number;
  readonly gasUsed: bigint;
}

export interface DevnetResult {
  /** The chain as a binary blockchain fixture (what `run` re-executes). */
  readonly fixture: BlockchainTest;
  readonly genesisRoot: string;
  readonly blocks: readonly ProducedBlock[];
  readonly transactions: number;
  readonly gasUsed: bigint;
  /** Wall time of block production (building, executing, hashing). */
  readonly milliseconds: number;
}

const COINBASE = hexToBytes("0xc0ffee000000000000000000000000000000c0de");
const SLOT_SECONDS = 12n;
const MAX_FEE = 100_000_000_000n; // 100 gwei
const TIP = 1_000_000_000n; // 1 gwei

/**
 * Starts a binary-tree-at-genesis devnet from a genesis file and produces blocks of transfers,
 * deployments, storage writes and clears, counter calls and same-transaction self-destructs,
 * every one built by `@ethereumjs/vm`'s block builder on a BinaryStateManager, so each header
 * carries the binary state root. Returns the chain as a binary fixture.
 */
export async function produceDevnet(options: DevnetOptions = {}): Promise<DevnetResult> {
  assertKnownOptions(options, DEVNET_OPTION_KEYS, "produceDevnet", TestnetError);
  const genesis = await readDevnetGenesis(options.genesisPath);
  const blockCount = options.blocks ?? 32;
  const common = commonForNetwork(genesis.fork, {
    chainId: genesis.chainId,
    config: genesis.config,
  });
  const state = new BinaryStateManager({
    scheme: options.scheme,
    groupDepth: options.groupDepth,
    writePolicy: isUbtCommon(common) ? "geth-ubt" : "mpt-compatible",
  });
  const { root: genesisRoot } = await applyAlloc(state, genesis.alloc);
  const genesisBlock = devnetGenesisBlock(genesis, common, genesisRoot);
  const blockchain = await createBlockchain({
    common,
    genesisBlock,
    validateConsensus: false,
  });
  const known = new KnownBlocks(blockchain);
  known.add(genesisBlock);
  const { vm, ubt } = await createExecutionVM({ common, blockchain, stateManager: state });

  const workload = workloadFor(genesis.alloc);
  const random = createRandom(options.seed ?? 7864);
  const produced: ProducedBlock[] = [];
  const blocks: Block[] = [];
  let transactions = 0;
  let gasUsed = 0n;
  let parent = genesisBlock;
  const started = performance.now();
  for (let n = 1; n <= blockCount; n++) {
    // geth's block processing: its system calls before the transactions.
    const { builder } = await openBlockAsGeth(vm, ubt, {
      parentBlock: parent,
      headerData: {
        timestamp: parent.header.timestamp + SLOT_SECONDS,
        coinbase: COINBASE,
        gasLimit: parent.header.gasLimit,
        mixHash: keccak_256(new TextEncoder().encode(`bintrie-testnet randao ${n}`)),
        parentBeaconBlockRoot: vm.common.isActivatedEIP(4788) ? new Uint8Array(32) : undefined,
      },
      blockOpts: { putBlockIntoBlockchain: true },
    });
    const planned = planBlock(workload, n, random);
    for (const tx of planned) {
      const result = await builder.addTransaction(sign(tx, vm.common));
      if (result.execResult.exceptionError !== undefined) {
        throw new TestnetError(
          "INVALID_INPUT",
          `devnet block ${n}: ${tx.kind} transaction from ${tx.from.address} failed: ${result.execResult.exceptionError.error}`,
        );
      }
    }
    const { block, refusal } = await sealBlockAsGeth(vm, builder);
    if (refusal !== undefined) {
      throw new TestnetError(
        "INVALID_INPUT",
        `devnet block ${n}: ${refusal} (geth refuses the block; genesis ${options.genesisPath ?? DEFAULT_DEVNET_GENESIS})`,
      );
    }
    const info: ProducedBlock = {
      number: n,
      root: bytesToHex(block.header.stateRoot),
      transactions: planned.length,
      gasUsed: block.header.gasUsed,
    };
    produced.push(info);
    // The builder put the block into the chain as it sealed it.
    known.add(block);
    blocks.push(block);
    transactions += planned.length;
    gasUsed += block.header.gasUsed;
    options.onBlock?.(info);
    parent = block;
  }
  const milliseconds = performance.now() - started;

  const fixture: BlockchainTest = {
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
    lastblockhash: bytesToHex(parent.hash()),
    sealEngine: "NoProof",
    config: fixtureConfig(genesis),
    _bintrie: {
      format: BINARY_FIXTURE_FORMAT,
      scheme: state.scheme,
      groupDepth: state.groupDepth,
      genesisRoot: bytesToHex(genesisRoot),
      blockRoots: produced.map((b) => b.root),
    },
  };
  return {
    fixture,
    genesisRoot: bytesToHex(genesisRoot),
    blocks: produced,
    transactions,
    gasUsed,
    milliseconds,
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

/** Finds the dev accounts and contracts a genesis alloc provides. */
function workloadFor(alloc: BlockchainTest["pre"]): WorkloadState {
  const accounts: DevAccount[] = [];
  for (let i = 0; ; i++) {
    const account = devAccount(i);
    if (alloc[account.address.toString()] === undefined) break;
    accounts.push(account);
  }
  if (accounts.length < 2) {
    throw new TestnetError(
      "INVALID_INPUT",
      "the devnet genesis must fund dev accounts 0 and 1 (keccak256('bintrie-testnet devnet key <i>'))",
    );
  }
  const nonces = new Map<string, bigint>();
  for (const a of accounts)
    nonces.set(a.address.toString(), BigInt(alloc[a.address.toString()]!.nonce));
  const writers: WorkloadState["writers"] = [];
  let counter: WorkloadState["counter"];
  for (const [address, account] of Object.entries(alloc)) {
    const code = hexToBytes(account.code as `0x${string}`);
    const slots = Object.keys(account.storage).map((k) => BigInt(k));
    if (equalsBytes(code, STORAGE_WRITER_RUNTIME)) {
      writers.push({ address: createAddressFromString(address), slots });
    } else if (equalsBytes(code, COUNTER_RUNTIME)) {
      counter = createAddressFromString(address);
    }
  }
  return { accounts, nonces, writers, counter, fresh: 0 };
}

function sign(tx: PlannedTx, common: ReturnType<typeof commonForNetwork>) {
  return createTx(
    {
      type: 2,
      chainId: common.chainId(),
      nonce: tx.nonce,
      maxFeePerGas: MAX_FEE,
      maxPriorityFeePerGas: TIP,
      gasLimit: tx.gasLimit,
      to: tx.to,
      value: tx.value,
      data: tx.data,
    },
    { common },
  ).sign(tx.from.key);
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

/**
 * The genesis block of `genesis` with state root `stateRoot`, as geth's `Genesis.ToBlock`
 * builds it: every header field the file gives (difficulty, mixHash, coinbase, nonce,
 * parentHash, gasUsed, extraData, the blob fields from Cancun on).
 */
export function devnetGenesisBlock(
  genesis: DevnetGenesis,
  common: Common,
  stateRoot: Uint8Array,
): Block {
  return createBlock(
    {
      header: {
        number: 0n,
        timestamp: genesis.timestamp,
        gasLimit: genesis.gasLimit,
        baseFeePerGas: genesis.baseFeePerGas,
        extraData: genesis.extraData,
        difficulty: genesis.difficulty,
        mixHash: genesis.mixHash,
        coinbase: genesis.coinbase,
        nonce: genesis.nonce,
        parentHash: genesis.parentHash,
        gasUsed: genesis.gasUsed,
        ...(common.isActivatedEIP(4844)
          ? { excessBlobGas: genesis.excessBlobGas, blobGasUsed: genesis.blobGasUsed }
          : {}),
        stateRoot,
      },
    },
    { common, setHardfork: true },
  );
}
