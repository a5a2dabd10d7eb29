import { assertKnownOptions } from "@bintrie/codec";
import type { KeyScheme } from "@bintrie/core";
import type { Block } from "@ethereumjs/block";
import { type Blockchain, createBlockchain } from "@ethereumjs/blockchain";
import type { Common } from "@ethereumjs/common";
import type { TypedTransaction } from "@ethereumjs/tx";
import { bytesToHex, hexToBytes } from "@ethereumjs/util";
import type { RunTxResult, VM } from "@ethereumjs/vm";
import { keccak_256 } from "@noble/hashes/sha3.js";
import { openBlockAsGeth, sealBlockAsGeth } from "../chain/block-as-geth.js";
import { commonForNetwork } from "../chain/common-for-network.js";
import { KnownBlocks } from "../chain/known-blocks.js";
import { TestnetError } from "../chain/testnet-error.js";
import { applyAlloc } from "../fixtures/alloc.js";
import type { BlockchainTest } from "../fixtures/blockchain-test.js";
import { BinaryStateManager } from "../state/binary-state-manager.js";
import { createExecutionVM } from "../ubt/create-ubt-vm.js";
import { isUbtCommon } from "../ubt/ubt-common.js";
import type { UbtContext } from "../ubt/ubt-context.js";
import { devnetFixture } from "./devnet-fixture.js";
import { DEFAULT_DEVNET_GENESIS, type DevnetGenesis, readDevnetGenesis } from "./devnet-genesis.js";
import { devnetGenesisBlock } from "./devnet-genesis-block.js";
import { libraryReason, TransactionRefused } from "./transaction-refused.js";

export interface DevnetChainOptions {
  /** A geth-style genesis file. Default: the package's `genesis/devnet.json`. */
  readonly genesisPath?: string;
  readonly scheme?: KeyScheme;
  readonly groupDepth?: number;
  /** Called with each block once it is part of the chain. */
  readonly onBlock?: (mined: MinedBlock) => void;
}

const DEVNET_CHAIN_OPTION_KEYS: readonly (keyof DevnetChainOptions)[] = [
  "genesisPath",
  "scheme",
  "groupDepth",
  "onBlock",
];

/** A transaction of a mined block, with what running it gave. */
export interface MinedTransaction {
  readonly tx: TypedTransaction;
  readonly result: RunTxResult;
  /** Its index in the block. */
  readonly index: number;
}

export interface MinedBlock {
  readonly block: Block;
  readonly transactions: readonly MinedTransaction[];
}

/** Where a transaction of the chain is. */
export interface TransactionPlace {
  readonly mined: MinedBlock;
  readonly index: number;
}

/** The devnet's block fee recipient. */
export const DEVNET_COINBASE: Uint8Array = hexToBytes("0xc0ffee000000000000000000000000000000c0de");
/** Seconds between blocks: each block's timestamp is its parent's plus this, so a chain replays alike. */
export const DEVNET_SLOT_SECONDS = 12n;

/**
 * A binary-tree-at-genesis chain that grows one block at a time: each block is built by
 * `@ethereumjs/vm`'s block builder on a BinaryStateManager as geth processes a block (its system
 * calls first, its withdrawals and request queues as geth's import orders them), so its header
 * carries the binary state root. Every operation that reads or changes the state runs alone
 * (`exclusive`): callers may overlap, the outcome is that of some serial order.
 */
export class DevnetChain {
  readonly genesis: DevnetGenesis;
  readonly genesisPath: string;
  readonly common: Common;
  readonly state: BinaryStateManager;
  readonly vm: VM;
  readonly ubt: UbtContext | undefined;
  readonly genesisBlock: Block;
  readonly #known: KnownBlocks;
  readonly #blockchain: Blockchain;
  /** Called with each block once it is part of the chain (the onBlock option, then watch's). */
  readonly #watchers = new Set<(mined: MinedBlock) => void>();
  readonly #mined: MinedBlock[] = [];
  readonly #byHash = new Map<string, number>();
  readonly #transactions = new Map<string, TransactionPlace>();
  #queue: Promise<unknown> = Promise.resolve();

  private constructor(parts: {
    genesis: DevnetGenesis;
    genesisPath: string;
    common: Common;
    state: BinaryStateManager;
    vm: VM;
    ubt: UbtContext | undefined;
    genesisBlock: Block;
    known: KnownBlocks;
    blockchain: Blockchain;
    onBlock: ((mined: MinedBlock) => void) | undefined;
  }) {
    this.genesis = parts.genesis;
    this.genesisPath = parts.genesisPath;
    this.common = parts.common;
    this.state = parts.state;
    this.vm = parts.vm;
    this.ubt = parts.ubt;
    this.genesisBlock = parts.genesisBlock;
    this.#known = parts.known;
    this.#blockchain = parts.blockchain;
    if (parts.onBlock !== undefined) this.#watchers.add(parts.onBlock);
    this.#byHash.set(bytesToHex(parts.genesisBlock.hash()), 0);
  }

  /** The chain at its genesis block. */
  static async open(options: DevnetChainOptions = {}): Promise<DevnetChain> {
    assertKnownOptions(options, DEVNET_CHAIN_OPTION_KEYS, "DevnetChain.open", TestnetError);
    const genesisPath = options.genesisPath ?? DEFAULT_DEVNET_GENESIS;
    const genesis = await readDevnetGenesis(genesisPath);
    const common = commonForNetwork(genesis.fork, {
      chainId: genesis.chainId,
      config: genesis.config,
    });
    const state = new BinaryStateManager({
      scheme: options.scheme,
      groupDepth: options.groupDepth,
      writePolicy: isUbtCommon(common) ? "geth-ubt" : "mpt-compatible",
    });
    const { root } = await applyAlloc(state, genesis.alloc);
    const genesisBlock = devnetGenesisBlock(genesis, common, root);
    const blockchain = await createBlockchain({ common, genesisBlock, validateConsensus: false });
    const known = new KnownBlocks(blockchain);
    known.add(genesisBlock);
    const { vm, ubt } = await createExecutionVM({ common, blockchain, stateManager: state });
    return new DevnetChain({
      genesis,
      genesisPath,
      common,
      state,
      vm,
      ubt,
      genesisBlock,
      known,
      blockchain,
      onBlock: options.onBlock,
    });
  }

  /** The latest block. */
  get head(): Block {
    return this.#mined.length === 0
      ? this.genesisBlock
      : this.#mined[this.#mined.length - 1]!.block;
  }

  /** The blocks after genesis, oldest first. */
  get blocks(): readonly Block[] {
    return this.#mined.map((m) => m.block);
  }

  /** Block `number` (0 is genesis), or undefined past the head. */
  block(number: bigint): Block | undefined {
    if (number === 0n) return this.genesisBlock;
    return number > 0n && number <= BigInt(this.#mined.length)
      ? this.#mined[Number(number) - 1]!.block
      : undefined;
  }

  /** The block with this hash (0x-hex, lowercase), or undefined. */
  blockByHash(hash: string): Block | undefined {
    const number = this.#byHash.get(hash);
    return number === undefined ? undefined : this.block(BigInt(number));
  }

  /** Block `number` with its transactions' results (undefined for genesis and past the head). */
  minedBlock(number: bigint): MinedBlock | undefined {
    return number > 0n && number <= BigInt(this.#mined.length)
      ? this.#mined[Number(number) - 1]
      : undefined;
  }

  /** Where the transaction with this hash (0x-hex, lowercase) was mined, or undefined. */
  transaction(hash: string): TransactionPlace | undefined {
    return this.#transactions.get(hash);
  }

  /** Calls `watcher` with every block mined from now on; returns what stops it. */
  watch(watcher: (mined: MinedBlock) => void): () => void {
    const own = (mined: MinedBlock) => watcher(mined);
    this.#watchers.add(own);
    return () => {
      this.#watchers.delete(own);
    };
  }

  /**
   * Runs `work` once every operation queued before it has ended, and queues the next behind it:
   * the chain's state is used by one operation at a time.
   */
  exclusive<T>(work: () => Promise<T>): Promise<T> {
    const run = this.#queue.then(work, work);
    this.#queue = run.catch(() => {});
    return run;
  }

  /**
   * Builds, seals and appends the next block holding `txs` in order. A transaction the block
   * cannot take (a wrong nonce, too little balance, too much gas, a fee under the base fee…)
   * leaves the chain and its state as they were, and throws TransactionRefused (INVALID_INPUT)
   * naming it and the library's reason; a block geth would refuse, INVALID_INPUT.
   */
  mine(txs: readonly TypedTransaction[]): Promise<MinedBlock> {
    return this.exclusive(() => this.mineHeld(txs));
  }

  /** `mine`, for a caller inside `exclusive` (which `mine` would wait on forever). */
  async mineHeld(txs: readonly TypedTransaction[]): Promise<MinedBlock> {
    const parent = this.head;
    const number = parent.header.number + 1n;
    const { vm } = this;
    // An outer checkpoint: the block's system calls run before its transactions, and a block
    // that is given up must take them back too.
    await vm.evm.journal.checkpoint();
    let opened: Awaited<ReturnType<typeof openBlockAsGeth>> | undefined;
    let mined: MinedBlock;
    try {
      opened = await openBlockAsGeth(vm, this.ubt, {
        parentBlock: parent,
        headerData: {
          timestamp: parent.header.timestamp + DEVNET_SLOT_SECONDS,
          coinbase: DEVNET_COINBASE,
          gasLimit: parent.header.gasLimit,
          mixHash: keccak_256(new TextEncoder().encode(`bintrie-testnet randao ${number}`)),
          parentBeaconBlockRoot: vm.common.isActivatedEIP(4788) ? new Uint8Array(32) : undefined,
        },
        blockOpts: { putBlockIntoBlockchain: true },
      });
      const transactions: MinedTransaction[] = [];
      for (const [index, tx] of txs.entries()) {
        let result: RunTxResult;
        try {
          result = await opened.builder.addTransaction(tx);
        } catch (cause) {
          throw new TransactionRefused(number, index, bytesToHex(tx.hash()), libraryReason(cause));
        }
        transactions.push({ tx, result, index });
      }
      const { block, refusal } = await sealBlockAsGeth(vm, opened.builder);
      if (refusal !== undefined) {
        // The builder put the block into the library's chain as it sealed it: take it out.
        await this.#blockchain.delBlock(block.hash());
        throw new TestnetError(
          "INVALID_INPUT",
          `block ${number}: ${refusal} (geth refuses the block; genesis ${this.genesisPath})`,
        );
      }
      await vm.evm.journal.commit();
      mined = { block, transactions };
      this.#mined.push(mined);
      this.#known.add(block);
      this.#byHash.set(bytesToHex(block.hash()), Number(number));
      for (const t of transactions) {
        this.#transactions.set(bytesToHex(t.tx.hash()), { mined, index: t.index });
      }
    } catch (cause) {
      await opened?.builder.revert();
      await vm.evm.journal.revert();
      throw cause;
    }
    // The block is the chain's now: what a watcher does cannot take it back.
    for (const watcher of this.#watchers) watcher(mined);
    return mined;
  }

  /**
   * Runs `work` on the state after the head block and takes back everything it changed: for
   * calls and gas estimates (exclusive, like every state access).
   */
  speculate<T>(work: () => Promise<T>): Promise<T> {
    return this.exclusive(async () => {
      await this.vm.evm.journal.checkpoint();
      try {
        return await work();
      } finally {
        await this.vm.evm.journal.revert();
      }
    });
  }

  /** The chain as a binary blockchain fixture (`run` re-executes it; geth's blocktest too). */
  fixture(): Promise<BlockchainTest> {
    return this.exclusive(() =>
      devnetFixture(this.genesis, this.genesisBlock, this.blocks, this.state),
    );
  }
}
