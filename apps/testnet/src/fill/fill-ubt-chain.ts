import { type Block, createBlock } from "@ethereumjs/block";
import { createBlockchain } from "@ethereumjs/blockchain";
import type { TypedTransaction } from "@ethereumjs/tx";
import { bytesToHex } from "@ethereumjs/util";
import { openBlockAsGeth, sealBlockAsGeth } from "../chain/block-as-geth.js";
import { commonForNetwork } from "../chain/common-for-network.js";
import { INITIAL_BASE_FEE } from "../chain/initial-base-fee.js";
import { KnownBlocks } from "../chain/known-blocks.js";
import { refuseNegativeBlockGas } from "../chain/minted-gas.js";
import { TestnetError } from "../chain/testnet-error.js";
import { allocFromDump, applyAlloc } from "../fixtures/alloc.js";
import type { BlockchainTest, FixtureAlloc, FixtureHeader } from "../fixtures/blockchain-test.js";
import { hexToBytesLoose, padLeft, parseQuantity } from "../fixtures/hex.js";
import { BinaryStateManager } from "../state/binary-state-manager.js";
import { gethDecodeRejectReason, gethRejectReason } from "../t8n/geth-reject-reason.js";
import { pendingBlockFees, preCheckBlock } from "../t8n/pending-block.js";
import type { T8nAccount, T8nTxJson } from "../t8n/transition.js";
import { decodedFields, transactionFromJson } from "../t8n/transition.js";
import { createExecutionVM } from "../ubt/create-ubt-vm.js";
import { isUbtCommon } from "../ubt/ubt-common.js";

/**
 * A chain to build, as geth's chain maker takes it (core/chain_makers.go `GenerateChain`):
 * a genesis and, per block, its transactions (unsigned ones carry `secretKey`, as in t8n
 * `txs.json`) and withdrawals. Every block is the parent's time + 10 s, same gas limit, same
 * coinbase as the genesis unless a block says otherwise, base fee from EIP-1559.
 */
export interface UbtChainDescription {
  /** `Verkle` (default) or `Binary`; or any network with a `config` that sets `ubtTime`. */
  readonly network?: string;
  readonly config?: Readonly<Record<string, unknown>>;
  readonly chainId?: number;
  readonly genesis: {
    readonly alloc: Readonly<Record<string, T8nAccount>>;
    readonly gasLimit?: string;
    readonly timestamp?: string;
    readonly coinbase?: string;
    readonly baseFeePerGas?: string;
    readonly extraData?: string;
  };
  readonly blocks: readonly {
    readonly transactions?: readonly T8nTxJson[];
    readonly withdrawals?: readonly {
      readonly index: string;
      readonly validatorIndex: string;
      readonly address: string;
      readonly amount: string;
    }[];
    readonly coinbase?: string;
    /** Seconds after the parent (default 10, geth's chain maker). */
    readonly timeDelta?: number;
  }[];
}

export interface UbtChainFill {
  /** A blockchain-test fixture geth's `evm blocktest` reads (network, pre, blocks, postState). */
  readonly fixture: BlockchainTest;
  readonly gasUsed: readonly bigint[];
  /** Gas of each transaction, per block (the receipts' gasUsed). */
  readonly receiptGas: readonly (readonly bigint[])[];
  readonly stateRoots: readonly string[];
}

/** geth's default: `params.GenesisGasLimit`. */
const GENESIS_GAS_LIMIT = 4_712_388n;
const BLOCK_TIME = 10n;

/**
 * Builds the described chain by geth's UBT rules on binary state and writes it as a
 * blockchain test: the genesis header carries the binary root of the alloc (as `geth init`),
 * every block the EIP-2935 system call, its transactions and withdrawals, and its binary root.
 * A transaction the block cannot include is an error (the chain maker would panic too).
 */
export async function fillUbtChain(description: UbtChainDescription): Promise<UbtChainFill> {
  const network = description.network ?? "Verkle";
  const common = commonForNetwork(network, {
    chainId: description.chainId ?? 1,
    config: description.config,
  });
  if (!isUbtCommon(common)) {
    throw new TestnetError(
      "INVALID_INPUT",
      `network '${network}' is not a UBT network (Verkle, Binary or a config with ubtTime)`,
    );
  }
  const state = new BinaryStateManager({ writePolicy: "geth-ubt" });
  const pre = fixtureAlloc(description.genesis.alloc);
  const { root: genesisRoot } = await applyAlloc(state, pre);
  const g = description.genesis;
  const genesis = createBlock(
    {
      header: {
        number: 0n,
        gasLimit:
          g.gasLimit === undefined
            ? GENESIS_GAS_LIMIT
            : parseQuantity(g.gasLimit, "genesis.gasLimit"),
        timestamp: g.timestamp === undefined ? 0n : parseQuantity(g.timestamp, "genesis.timestamp"),
        coinbase: address(g.coinbase, "genesis.coinbase"),
        baseFeePerGas:
          g.baseFeePerGas === undefined
            ? INITIAL_BASE_FEE
            : parseQuantity(g.baseFeePerGas, "genesis.baseFeePerGas"),
        extraData: hexToBytesLoose(g.extraData ?? "0x", "genesis.extraData"),
        difficulty: 0n,
        stateRoot: genesisRoot,
      },
      withdrawals: common.isActivatedEIP(4895) ? [] : undefined,
    },
    { common, setHardfork: true },
  );
  const blockchain = await createBlockchain({
    common,
    genesisBlock: genesis,
    validateConsensus: false,
  });
  const known = new KnownBlocks(blockchain);
  known.add(genesis);
  const { vm, ubt } = await createExecutionVM({ common, blockchain, stateManager: state });
  const blocks: Block[] = [];
  const receiptGas: bigint[][] = [];
  let parent = genesis;
  for (const [i, described] of description.blocks.entries()) {
    const coinbase =
      described.coinbase === undefined
        ? parent.header.coinbase.bytes
        : address(described.coinbase, `block ${i + 1} coinbase`);
    const headerData = {
      number: parent.header.number + 1n,
      parentHash: parent.hash(),
      timestamp:
        parent.header.timestamp +
        (described.timeDelta === undefined ? BLOCK_TIME : BigInt(described.timeDelta)),
      gasLimit: parent.header.gasLimit,
      coinbase,
      baseFeePerGas: parent.header.calcNextBaseFee(),
      difficulty: 0n,
    };
    const withdrawals = described.withdrawals?.map((w) => ({
      index: parseQuantity(w.index, "withdrawal index"),
      validatorIndex: parseQuantity(w.validatorIndex, "withdrawal validatorIndex"),
      address: w.address as `0x${string}`,
      amount: parseQuantity(w.amount, "withdrawal amount"),
    }));
    const { builder } = await openBlockAsGeth(vm, ubt, {
      parentBlock: parent,
      headerData,
      withdrawals: withdrawals ?? (common.isActivatedEIP(4895) ? [] : undefined),
      blockOpts: { putBlockIntoBlockchain: false },
    });
    const gas: bigint[] = [];
    receiptGas.push(gas);
    for (const [t, json] of (described.transactions ?? []).entries()) {
      let tx: TypedTransaction;
      try {
        tx = transactionFromJson(json, vm.common);
      } catch (cause) {
        // A transaction the library will not build: geth's reason, as t8n gives it.
        const reason = gethDecodeRejectReason(
          (cause as Error).message,
          vm.common.chainId(),
          decodedFields(json),
        );
        throw new TestnetError(
          "INVALID_INPUT",
          `block ${i + 1} transaction ${t} cannot be included: ${reason}`,
        );
      }
      try {
        gas.push((await builder.addTransaction(tx, { allowNoBlobs: true })).totalGasSpent);
      } catch (cause) {
        if (cause instanceof TestnetError && cause.code === "GAS_RETURNED_OVER_LIMIT") {
          throw new TestnetError(cause.code, `block ${i + 1} transaction ${t}: ${cause.message}`);
        }
        // In geth's words, as t8n rejects it (the library's message names its whole context).
        const block = preCheckBlock(builder, vm.common, pendingBlockFees(builder, vm.common));
        const reason = await gethRejectReason(tx, cause as Error, state, block);
        throw new TestnetError(
          "INVALID_INPUT",
          `block ${i + 1} transaction ${t} cannot be included: ${reason}`,
        );
      }
      // geth's chain maker reads its gas pool after each transaction.
      refuseNegativeBlockGas(builder, `block ${i + 1} transaction ${t}`);
    }
    const { block, refusal } = await sealBlockAsGeth(vm, builder);
    if (refusal !== undefined) {
      throw new TestnetError(
        "INVALID_INPUT",
        `block ${i + 1}: ${refusal} (geth refuses the block)`,
      );
    }
    await blockchain.putBlock(block);
    known.add(block);
    blocks.push(block);
    parent = block;
  }
  const postState = allocFromDump(await state.dumpState());
  const fixture: BlockchainTest = {
    network,
    ...(description.config !== undefined ? { config: description.config } : {}),
    genesisBlockHeader: headerJson(genesis),
    genesisRLP: bytesToHex(genesis.serialize()),
    pre,
    blocks: blocks.map((b) => ({ rlp: bytesToHex(b.serialize()), blockHeader: headerJson(b) })),
    postState,
    lastblockhash: bytesToHex(parent.hash()),
    sealEngine: "NoProof",
  };
  return {
    fixture,
    gasUsed: blocks.map((b) => b.header.gasUsed),
    receiptGas,
    stateRoots: blocks.map((b) => bytesToHex(b.header.stateRoot)),
  };
}

function address(value: string | undefined, what: string): Uint8Array {
  return value === undefined ? new Uint8Array(20) : padLeft(hexToBytesLoose(value, what), 20, what);
}

/** A t8n-style alloc (optional fields) as a fixture `pre` (every field present). */
function fixtureAlloc(alloc: Readonly<Record<string, T8nAccount>>): FixtureAlloc {
  const out: Record<string, FixtureAlloc[string]> = {};
  for (const [addr, a] of Object.entries(alloc)) {
    out[addr.toLowerCase()] = {
      balance: a.balance ?? "0x00",
      nonce: a.nonce ?? "0x00",
      code: a.code ?? "0x",
      storage: a.storage ?? {},
    };
  }
  return out;
}

/** A header in the blockchain-test JSON names geth's runner reads. */
function headerJson(block: Block): FixtureHeader {
  const h = block.header;
  const q = (v: bigint) => `0x${v.toString(16)}`;
  const out: Record<string, string> = {
    parentHash: bytesToHex(h.parentHash),
    uncleHash: bytesToHex(h.uncleHash),
    coinbase: bytesToHex(h.coinbase.bytes),
    stateRoot: bytesToHex(h.stateRoot),
    transactionsTrie: bytesToHex(h.transactionsTrie),
    receiptTrie: bytesToHex(h.receiptTrie),
    bloom: bytesToHex(h.logsBloom),
    difficulty: q(h.difficulty),
    number: q(h.number),
    gasLimit: q(h.gasLimit),
    gasUsed: q(h.gasUsed),
    timestamp: q(h.timestamp),
    extraData: bytesToHex(h.extraData),
    mixHash: bytesToHex(h.mixHash),
    nonce: bytesToHex(h.nonce),
    hash: bytesToHex(block.hash()),
  };
  if (h.baseFeePerGas !== undefined) out.baseFeePerGas = q(h.baseFeePerGas);
  if (h.withdrawalsRoot !== undefined) out.withdrawalsRoot = bytesToHex(h.withdrawalsRoot);
  if (h.blobGasUsed !== undefined) out.blobGasUsed = q(h.blobGasUsed);
  if (h.excessBlobGas !== undefined) out.excessBlobGas = q(h.excessBlobGas);
  if (h.parentBeaconBlockRoot !== undefined)
    out.parentBeaconBlockRoot = bytesToHex(h.parentBeaconBlockRoot);
  if (h.requestsHash !== undefined) out.requestsHash = bytesToHex(h.requestsHash);
  return out;
}
