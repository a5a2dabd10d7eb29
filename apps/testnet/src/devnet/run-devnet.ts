import { assertKnownOptions } from "@bintrie/codec";
import type { KeyScheme } from "@bintrie/core";
import { createTx } from "@ethereumjs/tx";
import { bytesToHex, createAddressFromString, equalsBytes, hexToBytes } from "@ethereumjs/util";
import type { commonForNetwork } from "../chain/common-for-network.js";
import { TestnetError } from "../chain/testnet-error.js";
import type { BlockchainTest } from "../fixtures/blockchain-test.js";
import { COUNTER_RUNTIME, STORAGE_WRITER_RUNTIME } from "./contracts.js";
import { fundedDevAccounts } from "./dev-accounts.js";
import { DevnetChain, type MinedBlock } from "./devnet-chain.js";
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
  const chain = await DevnetChain.open({
    genesisPath: options.genesisPath,
    scheme: options.scheme,
    groupDepth: options.groupDepth,
  });
  const blockCount = options.blocks ?? 32;
  const workload = workloadFor(chain.genesis.alloc);
  const random = createRandom(options.seed ?? 7864);
  const produced: ProducedBlock[] = [];
  let transactions = 0;
  let gasUsed = 0n;
  const started = performance.now();
  for (let n = 1; n <= blockCount; n++) {
    const planned = planBlock(workload, n, random);
    let mined: MinedBlock;
    try {
      mined = await chain.mine(planned.map((tx) => sign(tx, chain.vm.common)));
    } catch (cause) {
      if (cause instanceof TestnetError) {
        throw new TestnetError(cause.code, `devnet ${cause.message}`);
      }
      throw cause;
    }
    const block = mined.block;
    for (const [i, tx] of planned.entries()) {
      const failed = mined.transactions[i]!.result.execResult.exceptionError;
      if (failed !== undefined) {
        throw new TestnetError(
          "INVALID_INPUT",
          `devnet block ${n}: ${tx.kind} transaction from ${tx.from.address} failed: ${failed.error}`,
        );
      }
    }
    const info: ProducedBlock = {
      number: n,
      root: bytesToHex(block.header.stateRoot),
      transactions: planned.length,
      gasUsed: block.header.gasUsed,
    };
    produced.push(info);
    transactions += planned.length;
    gasUsed += block.header.gasUsed;
    options.onBlock?.(info);
  }
  const milliseconds = performance.now() - started;

  const fixture = await chain.fixture();
  return {
    fixture,
    genesisRoot: bytesToHex(chain.genesisBlock.header.stateRoot),
    blocks: produced,
    transactions,
    gasUsed,
    milliseconds,
  };
}

/** Finds the dev accounts and contracts a genesis alloc provides. */
function workloadFor(alloc: BlockchainTest["pre"]): WorkloadState {
  const accounts = fundedDevAccounts(alloc);
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
