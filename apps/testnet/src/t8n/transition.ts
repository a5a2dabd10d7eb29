import type { KeyScheme } from "@bintrie/core";
import { createBlock, createBlockHeader } from "@ethereumjs/block";
import { type Common, Hardfork } from "@ethereumjs/common";
import { RLP } from "@ethereumjs/rlp";
import {
  createTx,
  createTxFromBlockBodyData,
  type TypedTransaction,
  type TypedTxData,
} from "@ethereumjs/tx";
import {
  Account,
  Address,
  bigIntToBytes,
  bigIntToHex,
  bytesToHex,
  createAddressFromString,
  intToHex,
  privateToAddress,
  setLengthLeft,
  toChecksumAddress,
} from "@ethereumjs/util";
import { buildBlock, type RunTxResult } from "@ethereumjs/vm";
import { keccak_256 } from "@noble/hashes/sha3.js";
import { commonForNetwork } from "../chain/common-for-network.js";
import { callHistoryContract, withoutDirectHistoryWrite } from "../chain/history-contract-call.js";
import { watchRequestSystemCalls } from "../chain/request-system-calls.js";
import { TestnetError } from "../chain/testnet-error.js";
import { touchZeroWithdrawals } from "../chain/zero-withdrawals.js";
import { applyAlloc } from "../fixtures/alloc.js";
import type { FixtureAlloc } from "../fixtures/blockchain-test.js";
import { hexToBytesLoose, padLeft, parseQuantity, quantityHex } from "../fixtures/hex.js";
import { BinaryStateManager } from "../state/binary-state-manager.js";
import { createExecutionVM } from "../ubt/create-ubt-vm.js";
import { isUbtCommon } from "../ubt/ubt-common.js";
import { addressKey, HISTORY_SERVE_WINDOW, HISTORY_STORAGE_ADDRESS } from "../ubt/ubt-context.js";
import {
  BEACON_ROOTS_ADDRESS,
  directWriteSlots,
  replaceDirectBeaconRootWrite,
} from "./beacon-root-call.js";
import { checkT8nInput, type T8nSources } from "./check-t8n-input.js";
import { type GethAllocAccount, gethAllocFromDump } from "./geth-alloc.js";
import { gethFirstChecksFailure, type PreCheckBlock } from "./geth-pre-check.js";
import {
  blockBlobGasOver,
  type DecodedFields,
  gethDecodeRejectReason,
  gethRejectReason,
} from "./geth-reject-reason.js";
import { T8N_EXIT_EVM, T8N_EXIT_MISSING_BLOCKHASH, T8N_EXIT_RLP } from "./t8n-exit-codes.js";
import { isAbsent } from "./t8n-input-fault.js";

/** One account of geth's t8n alloc (every field optional). */
export interface T8nAccount {
  readonly balance?: string;
  readonly nonce?: string;
  readonly code?: string;
  readonly storage?: Readonly<Record<string, string>>;
}

/** geth's t8n `env.json` (quantities in hex or decimal). */
export interface T8nEnv {
  readonly currentCoinbase: string;
  readonly currentGasLimit: string;
  readonly currentNumber: string;
  readonly currentTimestamp: string;
  readonly currentDifficulty?: string | null;
  readonly currentRandom?: string | null;
  readonly currentBaseFee?: string;
  readonly currentExcessBlobGas?: string;
  readonly previousHash?: string;
  readonly parentTimestamp?: string;
  readonly parentDifficulty?: string;
  readonly parentBaseFee?: string;
  readonly parentGasUsed?: string;
  readonly parentGasLimit?: string;
  readonly parentExcessBlobGas?: string;
  readonly parentBlobGasUsed?: string;
  readonly parentBeaconBlockRoot?: string;
  readonly blockHashes?: Readonly<Record<string, string>>;
  readonly withdrawals?: readonly {
    readonly index: string;
    readonly validatorIndex: string;
    readonly address: string;
    readonly amount: string;
  }[];
  readonly [field: string]: unknown;
}

/** A transaction of geth's `txs.json` (unsigned ones carry `secretKey`). */
export type T8nTxJson = Readonly<Record<string, unknown>>;

export interface T8nInput {
  readonly alloc: Readonly<Record<string, T8nAccount>>;
  readonly env: T8nEnv;
  /** `txs.json` entries, or the hex RLP list of signed transactions (`txs.rlp`). */
  readonly txs: readonly T8nTxJson[] | string;
  /** Fork name as geth's `--state.fork` takes it (Paris, Shanghai, Cancun, Prague, Osaka…). */
  readonly fork: string;
  readonly chainId?: number;
  readonly scheme?: KeyScheme;
  /**
   * geth's `--state.reward`: the block reward paid to the coinbase after the transactions
   * (default 0; negative: no reward step at all). Even a reward of 0 touches the coinbase, so
   * an absent coinbase is created and, being empty, deleted — on UBT state that writes its
   * header leaves as zeros, as geth's t8n does when no transaction paid it a fee.
   */
  readonly reward?: bigint;
  /** Where alloc, env and txs came from (file paths or stdin), for messages; default their names. */
  readonly sources?: T8nSources;
}

/** A log as geth's t8n prints it in a receipt. */
export interface T8nLog {
  readonly address: string;
  readonly topics: string[];
  readonly data: string;
  readonly blockNumber: string;
  readonly transactionHash: string;
  readonly transactionIndex: string;
  readonly blockHash: string;
  readonly blockTimestamp: string;
  readonly logIndex: string;
  readonly removed: boolean;
}

export interface T8nReceipt {
  /** Absent for legacy transactions, as geth prints them. */
  readonly type?: string;
  readonly root: string;
  readonly status: string;
  readonly cumulativeGasUsed: string;
  readonly logsBloom: string;
  readonly logs: readonly T8nLog[];
  readonly transactionHash: string;
  readonly contractAddress: string;
  readonly gasUsed: string;
  /** geth's t8n leaves it unset: always null. */
  readonly effectiveGasPrice: null;
  /** A blob transaction's: its blob gas and the block's blob base fee (others omit both). */
  readonly blobGasUsed?: string;
  readonly blobGasPrice?: string;
  /** geth's t8n fills in a placeholder block hash (0x1337 then zeros). */
  readonly blockHash: string;
  readonly blockNumber: string;
  readonly transactionIndex: string;
}

/** The block hash geth's t8n writes into every receipt (cmd/evm/internal/t8ntool/execution.go). */
export const T8N_RECEIPT_BLOCK_HASH = `0x1337${"0".repeat(60)}`;

/** geth's t8n `result.json`, with the binary root as `stateRoot`. */
export interface T8nResult {
  readonly stateRoot: string;
  readonly txRoot: string;
  readonly receiptsRoot: string;
  readonly logsHash: string;
  readonly logsBloom: string;
  readonly receipts: readonly T8nReceipt[];
  readonly rejected?: readonly { readonly index: number; readonly error: string }[];
  readonly currentDifficulty: string | null;
  readonly gasUsed: string;
  readonly currentBaseFee?: string;
  readonly withdrawalsRoot?: string;
  readonly currentExcessBlobGas?: string;
  readonly blobGasUsed?: string;
  readonly requestsHash?: string;
  readonly requests?: readonly string[] | null;
}

export interface T8nOutput {
  readonly result: T8nResult;
  /** The post state as geth prints it (see `gethAllocFromDump`). */
  readonly alloc: Record<string, GethAllocAccount>;
  /** The RLP of the applied transactions (geth's `--output.body`). */
  readonly body: string;
}

const ZERO_HASH = new Uint8Array(32);

/**
 * geth's `evm t8n` on binary-tree state: the alloc as a binary genesis, the env as the block
 * (parent fields derive base fee and excess blob gas when the current ones are missing), each
 * transaction applied or rejected, withdrawals and system calls, and the post state.
 */
export async function transition(input: T8nInput): Promise<T8nOutput> {
  const env = input.env;
  const common = commonForNetwork(input.fork, { chainId: input.chainId ?? 1 });
  const sources = input.sources ?? { alloc: "alloc", env: "env", txs: "txs" };
  checkT8nInput(input, sources, common);
  const number = parseQuantity(env.currentNumber, "env.currentNumber");
  const hashes = blockHashes(env);
  // The last block BLOCKHASH asked for whose hash the env does not give: as geth's t8n, the
  // opcode reads zero and the transition fails once the transaction is applied.
  let missingHash: bigint | undefined;
  const blockchain = {
    async getBlock(n: number) {
      const hash = hashes.get(BigInt(n));
      if (hash === undefined) missingHash = BigInt(n);
      return { hash: () => hash ?? ZERO_HASH };
    },
    async putBlock() {},
    shallowCopy() {
      return blockchain;
    },
  };
  const ubtNetwork = isUbtCommon(common) ? common.ubtNetwork : undefined;
  const state = new BinaryStateManager({
    scheme: input.scheme,
    writePolicy: ubtNetwork !== undefined ? "geth-ubt" : "mpt-compatible",
  });
  await applyAlloc(state, input.alloc as FixtureAlloc);
  const { vm, ubt } = await createExecutionVM({ common, blockchain, stateManager: state });
  const requestCalls = watchRequestSystemCalls(vm);
  vm.common.setHardforkBy({
    blockNumber: number,
    timestamp: parseQuantity(env.currentTimestamp, "env.currentTimestamp"),
  });

  const timestamp = parseQuantity(env.currentTimestamp, "env.currentTimestamp");
  const beaconRoot = vm.common.isActivatedEIP(4788)
    ? (bytes32(env.parentBeaconBlockRoot, "env.parentBeaconBlockRoot") ?? ZERO_HASH)
    : undefined;
  const beaconSlots =
    beaconRoot !== undefined && (await state.getCode(BEACON_ROOTS_ADDRESS)).length > 0
      ? await Promise.all(
          directWriteSlots(vm, timestamp).map(async (slot) => ({
            slot,
            value: await state.getStorage(BEACON_ROOTS_ADDRESS, slot),
          })),
        )
      : undefined;
  const parentBlock = createBlock(
    { header: parentHeader(env, number, vm.common, sources.env) },
    { common: vm.common, setHardfork: true, skipConsensusFormatValidation: true },
  );
  const headerData = currentHeader(env, number, hashes, vm.common);
  ubt?.beginBlock(
    headerData.coinbase === undefined ? undefined : new Address(headerData.coinbase as Uint8Array),
  );
  // geth's t8n runs the EIP-2935 system call (Prague on, with blockHashes given), which warms
  // the contract and the slot it writes for the block; the library writes that slot directly.
  if (ubt !== undefined && vm.common.isActivatedEIP(2935) && !isAbsent(env.blockHashes)) {
    ubt.warmForBlock(HISTORY_STORAGE_ADDRESS, historySlot(number));
  }
  // geth's ProcessBeaconBlockRoot adds the EIP-4788 contract to the access list before calling
  // it, also when it has no code (then no call runs here): warm for the block under UBT.
  if (ubt !== undefined && beaconRoot !== undefined) {
    ubt.warmForBlock(addressKey(BEACON_ROOTS_ADDRESS.bytes));
  }
  const withdrawals = env.withdrawals?.map((w) => ({
    index: parseQuantity(w.index, "withdrawal index"),
    validatorIndex: parseQuantity(w.validatorIndex, "withdrawal validatorIndex"),
    // geth decodes a withdrawal without an address as one to the zero address.
    address: (w.address ?? `0x${"0".repeat(40)}`) as `0x${string}`,
    amount: parseQuantity(w.amount, "withdrawal amount"),
  }));
  // The parent hash goes in through the EIP-2935 contract below, as geth's t8n writes it.
  const builder = await withoutDirectHistoryWrite(state, () =>
    buildBlock(vm, {
      parentBlock,
      headerData,
      withdrawals,
      blockOpts: { putBlockIntoBlockchain: false, skipConsensusFormatValidation: true },
    }),
  );
  // geth's t8n pays only its own --state.reward (touchCoinbaseWithReward), never the ethash
  // block reward the library's builder adds to pre-merge blocks.
  (builder as unknown as { rewardMiner: () => Promise<void> }).rewardMiner = async () => {};

  const context = createBlock(
    { header: headerData },
    { common: vm.common, setHardfork: true, skipConsensusFormatValidation: true },
  );
  if (beaconRoot !== undefined && beaconSlots !== undefined) {
    await replaceDirectBeaconRootWrite(vm, context, beaconRoot, beaconSlots);
  }
  // geth's t8n: the EIP-2935 call after the beacon root's, only when the env gives block hashes
  // (the hash of block number − 1 in uint64, zero when not given); a failing call panics geth.
  if (vm.common.isActivatedEIP(2935) && !isAbsent(env.blockHashes)) {
    const failure = await callHistoryContract(vm, context, context.header.parentHash);
    if (failure !== undefined) {
      throw new TestnetError(
        "SYSTEM_CALL_FAILED",
        `the EIP-2935 history contract's call (block ${number}) failed: ${failure} (its code in ${sources.alloc})`,
        { file: sources.alloc, gethExitCode: T8N_EXIT_EVM },
      );
    }
  }

  const rejected: { index: number; error: string }[] = [];
  const applied: { tx: TypedTransaction; result: RunTxResult }[] = [];
  const pendingFees = pendingBlockFees(builder, vm.common);
  const candidates = decodeTransactions(input.txs, vm.common, sources.txs);
  for (let index = 0; index < candidates.length; index++) {
    const candidate = candidates[index]!;
    const json = typeof input.txs === "string" ? undefined : input.txs[index];
    const type =
      "error" in candidate ? Number(optionalQuantity(json?.type, "type") ?? 0n) : candidate.tx.type;
    // geth's t8n has no blob base fee then, and turns blob transactions away first.
    if (type === 3 && !blobGasKnown(env)) {
      rejected.push({ index, error: "blob tx used but field env.ExcessBlobGas missing" });
      continue;
    }
    const block = preCheckBlock(builder, vm.common, pendingFees);
    if ("error" in candidate) {
      // The library refused to build it; geth builds it and may fail an earlier check first:
      // the block's blob gas, then its pre-check's nonce, gas cap, sender and fee caps.
      const fields = json === undefined ? undefined : decodedFields(json);
      const blobs = type === 3 ? (fields?.blobVersionedHashes?.length ?? 0) : 0;
      const first =
        blockBlobGasOver(block.blobGas, blobs, vm.common.param("blobGasPerBlob")) ??
        (fields?.from === undefined || fields.nonce === undefined
          ? undefined
          : await gethFirstChecksFailure(
              {
                sender: createAddressFromString(fields.from),
                nonce: fields.nonce,
                gasLimit: fields.gasLimit,
                feeCap: fields.fees?.maxFeePerGas ?? fields.gasPrice,
                tip: fields.fees?.maxPriorityFeePerGas ?? fields.gasPrice,
              },
              state,
              vm.common,
              block.baseFee,
            ));
      rejected.push({ index, error: first ?? candidate.error });
      continue;
    }
    try {
      const result = await builder.addTransaction(candidate.tx, { allowNoBlobs: true });
      applied.push({ tx: candidate.tx, result });
    } catch (cause) {
      rejected.push({
        index,
        error: await gethRejectReason(candidate.tx, cause as Error, state, block),
      });
    }
    if (missingHash !== undefined) throw missingBlockHash(missingHash, index, env, sources.env);
  }
  if (ubtNetwork !== undefined) await intermediateRoot(vm, builder, state);
  await touchCoinbaseWithReward(state, headerData.coinbase as Uint8Array, input.reward ?? 0n);
  if (vm.common.isActivatedEIP(4895)) await touchZeroWithdrawals(state, withdrawals);
  const { block, requests } = await builder.build();
  const queueFailure = requestCalls.take();
  if (queueFailure !== undefined) {
    throw new TestnetError(
      "SYSTEM_CALL_FAILED",
      `failed to process post-execution: ${queueFailure} (the queue contract of ${sources.alloc})`,
      { file: sources.alloc, gethExitCode: T8N_EXIT_EVM },
    );
  }
  const header = block.header;
  let logIndex = 0;
  const receipts: T8nReceipt[] = applied.map(({ tx, result }, i) => ({
    // geth's receipt JSON omits the type of a legacy transaction.
    ...(tx.type === 0 ? {} : { type: intToHex(tx.type) }),
    root: "0x",
    status: "status" in result.receipt && result.receipt.status === 0 ? "0x0" : "0x1",
    cumulativeGasUsed: gasHex(result.receipt.cumulativeBlockGasUsed),
    logsBloom: bytesToHex(result.receipt.bitvector),
    // geth's log JSON (core/types/gen_log_json.go): the log's position fields included.
    logs: result.receipt.logs.map(([address, topics, data]) => ({
      address: bytesToHex(address),
      topics: topics.map((t) => bytesToHex(t)),
      data: bytesToHex(data),
      blockNumber: bigIntToHex(number),
      transactionHash: bytesToHex(tx.hash()),
      transactionIndex: intToHex(i),
      blockHash: T8N_RECEIPT_BLOCK_HASH,
      blockTimestamp: bigIntToHex(timestamp),
      logIndex: intToHex(logIndex++),
      removed: false,
    })),
    transactionHash: bytesToHex(tx.hash()),
    contractAddress:
      result.createdAddress === undefined
        ? "0x0000000000000000000000000000000000000000"
        : result.createdAddress.toString(),
    gasUsed: gasHex(result.totalGasSpent),
    effectiveGasPrice: null,
    // geth's MakeReceipt: a blob transaction's blob gas and the block's blob base fee.
    ...("blobGasUsed" in result.receipt
      ? {
          blobGasUsed: bigIntToHex(result.receipt.blobGasUsed),
          blobGasPrice: bigIntToHex(result.receipt.blobGasPrice),
        }
      : {}),
    blockHash: T8N_RECEIPT_BLOCK_HASH,
    blockNumber: bigIntToHex(number),
    transactionIndex: intToHex(i),
  }));
  const logs = applied.flatMap(({ result }) => result.receipt.logs);
  const result: T8nResult = {
    stateRoot: bytesToHex(header.stateRoot),
    txRoot: bytesToHex(header.transactionsTrie),
    receiptsRoot: bytesToHex(header.receiptTrie),
    logsHash: bytesToHex(keccak_256(RLP.encode(logs))),
    logsBloom: bytesToHex(header.logsBloom),
    receipts,
    ...(rejected.length > 0 ? { rejected } : {}),
    // geth prints the env's difficulty before the merge, and none after it.
    currentDifficulty: vm.common.gteHardfork(Hardfork.Paris)
      ? null
      : bigIntToHex(header.difficulty),
    gasUsed: bigIntToHex(header.gasUsed),
    ...(header.baseFeePerGas !== undefined
      ? { currentBaseFee: bigIntToHex(header.baseFeePerGas) }
      : {}),
    ...(header.withdrawalsRoot !== undefined
      ? { withdrawalsRoot: bytesToHex(header.withdrawalsRoot) }
      : {}),
    // geth reports blob gas only when the env gives the excess blob gas or both parent fields.
    ...(header.excessBlobGas !== undefined && blobGasKnown(env)
      ? {
          currentExcessBlobGas: bigIntToHex(header.excessBlobGas),
          blobGasUsed: bigIntToHex(header.blobGasUsed ?? 0n),
        }
      : {}),
    ...(header.requestsHash !== undefined
      ? {
          requestsHash: bytesToHex(header.requestsHash),
          requests: (requests ?? [])
            .filter((r) => r.data.length > 0)
            .map((r) => bytesToHex(r.bytes)),
        }
      : { requests: null }),
  };
  const alloc = gethAllocFromDump(await state.dumpState());
  const body = bytesToHex(RLP.encode(block.transactions.map((tx) => tx.serialize())));
  return { result, alloc, body };
}

/**
 * geth's t8n computes `statedb.IntermediateRoot` after the transactions, before the reward, the
 * withdrawals and the request system calls. On a binary tree that writes the transactions'
 * changes into the tree there and then, so a slot a later step sets back to its block-start
 * value is written again (a zero leaf where the block had none: the withdrawal request queue's
 * count and tail after a request). Block import has no such root, and `run` matches it; here
 * the transactions' state is committed (closing and reopening the builder's checkpoint), so
 * the later steps' writes are compared with it, as geth's are.
 */
async function intermediateRoot(
  vm: { evm: { journal: { commit(): Promise<void>; checkpoint(): Promise<void> } } },
  builder: object,
  state: BinaryStateManager,
): Promise<void> {
  // The builder opens its checkpoint at its first system call or transaction.
  const open = (builder as { checkpointed?: boolean }).checkpointed === true;
  if (open) await vm.evm.journal.commit();
  await state.getStateRoot();
  if (open) await vm.evm.journal.checkpoint();
}

/**
 * The base fee and blob base fee of the block the builder makes (derived from the parent where
 * the env does not give them), for geth's pre-check of a refused transaction.
 */
function pendingBlockFees(
  builder: object,
  common: Common,
): { baseFee?: bigint; blobBaseFee?: bigint } {
  const headerData = (builder as { headerData: Record<string, unknown> }).headerData;
  try {
    const header = createBlockHeader(headerData, {
      common,
      setHardfork: true,
      skipConsensusFormatValidation: true,
    });
    return {
      ...(header.baseFeePerGas === undefined ? {} : { baseFee: header.baseFeePerGas }),
      ...(header.excessBlobGas === undefined ? {} : { blobBaseFee: header.getBlobGasPrice() }),
    };
  } catch {
    // A header the library cannot make: the library's own reasons stand.
    return {};
  }
}

/**
 * What geth's pre-check of the next transaction reads of the block: its fees, the gas and blob
 * gas its transactions left.
 */
function preCheckBlock(
  builder: object,
  common: Common,
  fees: { baseFee?: bigint; blobBaseFee?: bigint },
): PreCheckBlock {
  const { gasUsed, blobGasUsed, headerData } = builder as {
    gasUsed: bigint;
    blobGasUsed: bigint;
    headerData: { gasLimit: bigint };
  };
  return {
    ...fees,
    gasLeft: BigInt(headerData.gasLimit) - gasUsed,
    ...(common.isActivatedEIP(4844)
      ? { blobGas: { used: blobGasUsed, limit: common.getBlobGasSchedule().maxBlobGasPerBlock } }
      : {}),
  };
}

/** geth t8n's reward step (`statedb.AddBalance(coinbase, reward)` before the withdrawals). */
async function touchCoinbaseWithReward(
  state: BinaryStateManager,
  coinbase: Uint8Array,
  reward: bigint,
): Promise<void> {
  if (reward < 0n) return;
  const address = new Address(coinbase);
  const account = (await state.getAccount(address)) ?? new Account();
  account.balance += reward;
  if (account.isEmpty()) await state.deleteAccount(address);
  else await state.putAccount(address, account);
}

function blockHashes(env: T8nEnv): Map<bigint, Uint8Array> {
  const map = new Map<bigint, Uint8Array>();
  for (const [n, hash] of Object.entries(env.blockHashes ?? {})) {
    map.set(
      parseQuantity(n, "env.blockHashes key"),
      padLeft(hexToBytesLoose(hash, "block hash"), 32, "block hash"),
    );
  }
  const number = parseQuantity(env.currentNumber, "env.currentNumber");
  if (env.previousHash !== undefined && number > 0n) {
    map.set(
      number - 1n,
      padLeft(hexToBytesLoose(env.previousHash, "env.previousHash"), 32, "previousHash"),
    );
  }
  return map;
}

function optionalQuantity(value: unknown, what: string): bigint | undefined {
  return value === undefined || value === null ? undefined : parseQuantity(value as string, what);
}

function bytes32(value: string | null | undefined, what: string): Uint8Array | undefined {
  if (value === undefined || value === null) return undefined;
  if (/^[0-9]+$/.test(value))
    return padLeft(hexToBytesLoose(quantityHex(BigInt(value)), what), 32, what);
  return padLeft(hexToBytesLoose(value, what), 32, what);
}

/** The parent header from the env's parent* fields (only what base fee and blob gas use). */
function parentHeader(
  env: T8nEnv,
  number: bigint,
  common: Common,
  source: string,
): Record<string, unknown> {
  // geth's t8n builds the parent from parentGasLimit as given: absent is 0, so a base fee is
  // derived unchanged from parentBaseFee (gas used equals the zero target).
  const gasLimit = optionalQuantity(env.parentGasLimit, "env.parentGasLimit") ?? 0n;
  let gasUsed = optionalQuantity(env.parentGasUsed, "env.parentGasUsed") ?? 0n;
  if (gasUsed > gasLimit) {
    // The library builds no such header; its gas only derives the base fee.
    if (common.isActivatedEIP(1559) && isAbsent(env.currentBaseFee)) {
      throw new TestnetError(
        "INVALID_INPUT",
        `${source}: parentGasUsed: ${gasUsed} exceeds parentGasLimit ${gasLimit}, from which the base fee is to be derived (give currentBaseFee)`,
        { file: source, field: "parentGasUsed" },
      );
    }
    gasUsed = gasLimit;
  }
  const header: Record<string, unknown> = {
    number: number > 0n ? number - 1n : 0n,
    timestamp: optionalQuantity(env.parentTimestamp, "env.parentTimestamp") ?? 0n,
    gasLimit,
    gasUsed,
    difficulty: optionalQuantity(env.parentDifficulty, "env.parentDifficulty") ?? 0n,
  };
  if (common.isActivatedEIP(1559)) {
    header.baseFeePerGas =
      optionalQuantity(env.parentBaseFee, "env.parentBaseFee") ??
      optionalQuantity(env.currentBaseFee, "env.currentBaseFee");
  }
  if (common.isActivatedEIP(4844)) {
    header.excessBlobGas =
      optionalQuantity(env.parentExcessBlobGas, "env.parentExcessBlobGas") ?? 0n;
    header.blobGasUsed = optionalQuantity(env.parentBlobGasUsed, "env.parentBlobGasUsed") ?? 0n;
  }
  return header;
}

/** The header fields of the block being built. */
function currentHeader(
  env: T8nEnv,
  number: bigint,
  hashes: Map<bigint, Uint8Array>,
  common: Common,
): Record<string, unknown> {
  const header: Record<string, unknown> = {
    coinbase: padLeft(hexToBytesLoose(env.currentCoinbase, "env.currentCoinbase"), 20, "coinbase"),
    number,
    timestamp: parseQuantity(env.currentTimestamp, "env.currentTimestamp"),
    gasLimit: parseQuantity(env.currentGasLimit, "env.currentGasLimit"),
    difficulty: optionalQuantity(env.currentDifficulty, "env.currentDifficulty") ?? 0n,
    // geth's uint64 arithmetic: block 0's parent is number 2^64 − 1.
    parentHash: hashes.get(BigInt.asUintN(64, number - 1n)) ?? ZERO_HASH,
  };
  const random = bytes32(env.currentRandom, "env.currentRandom");
  if (random !== undefined) header.mixHash = random;
  const baseFee = optionalQuantity(env.currentBaseFee, "env.currentBaseFee");
  if (baseFee !== undefined && common.isActivatedEIP(1559)) header.baseFeePerGas = baseFee;
  const excess = optionalQuantity(env.currentExcessBlobGas, "env.currentExcessBlobGas");
  if (excess !== undefined && common.isActivatedEIP(4844)) header.excessBlobGas = excess;
  if (common.isActivatedEIP(4788)) {
    header.parentBeaconBlockRoot =
      bytes32(env.parentBeaconBlockRoot, "env.parentBeaconBlockRoot") ?? ZERO_HASH;
  }
  return header;
}

type Candidate = { readonly tx: TypedTransaction } | { readonly error: string };

/** The slot the EIP-2935 contract writes in block `number`: (number − 1) mod 8191, in 256 bits. */
function historySlot(number: bigint): Uint8Array {
  return setLengthLeft(bigIntToBytes(BigInt.asUintN(256, number - 1n) % HISTORY_SERVE_WINDOW), 32);
}

/**
 * A gas figure as geth prints it, a uint64: under EIP-4762 a value CALL's 2,300 stipend is no
 * longer paid for by its 9,000, so a transaction can end with more gas than it started with, and
 * geth's unsigned subtraction wraps where the library's bigint goes below zero.
 */
function gasHex(gas: bigint): string {
  return bigIntToHex(BigInt.asUintN(64, gas));
}

/** Whether the env gives the excess blob gas, or both parent fields it is derived from. */
function blobGasKnown(env: T8nEnv): boolean {
  return (
    !isAbsent(env.currentExcessBlobGas) ||
    (!isAbsent(env.parentExcessBlobGas) && !isAbsent(env.parentBlobGasUsed))
  );
}

/** geth's ErrorMissingBlockhash: BLOCKHASH asked for a block the env gives no hash of. */
function missingBlockHash(block: bigint, tx: number, env: T8nEnv, source: string): TestnetError {
  const none = isAbsent(env.blockHashes);
  return new TestnetError(
    "INVALID_INPUT",
    none
      ? `${source}: blockHashes: missing, and BLOCKHASH in tx ${tx} asked for block ${block}`
      : `${source}: blockHashes: no hash of block ${block}, which BLOCKHASH in tx ${tx} asked for`,
    { file: source, field: "blockHashes", gethExitCode: T8N_EXIT_MISSING_BLOCKHASH },
  );
}

/** Decodes txs.json (signing entries that carry `secretKey`) or a txs.rlp list. */
function decodeTransactions(
  txs: readonly T8nTxJson[] | string,
  common: Common,
  source: string,
): Candidate[] {
  if (typeof txs === "string") {
    let decoded: unknown;
    try {
      decoded = RLP.decode(hexToBytesLoose(txs, source));
    } catch (cause) {
      throw new TestnetError("INVALID_INPUT", `${source}: not RLP (${(cause as Error).message})`, {
        file: source,
        gethExitCode: T8N_EXIT_RLP,
      });
    }
    if (!Array.isArray(decoded)) {
      throw new TestnetError("INVALID_INPUT", `${source}: must hold an RLP list of transactions`, {
        file: source,
        gethExitCode: T8N_EXIT_RLP,
      });
    }
    return decoded.map((item) => {
      try {
        return { tx: createTxFromBlockBodyData(item as Uint8Array | Uint8Array[], { common }) };
      } catch (cause) {
        return { error: gethDecodeRejectReason((cause as Error).message, common.chainId()) };
      }
    });
  }
  return txs.map((json, index) => {
    try {
      return { tx: transactionFromJson(json, common) };
    } catch (cause) {
      const message = (cause as Error).message;
      const reason = gethDecodeRejectReason(message, common.chainId(), decodedFields(json));
      return { error: reason !== message ? reason : `tx ${index}: ${message}` };
    }
  });
}

/** The fields geth's reasons name, read from a transaction ethereumjs would not build. */
function decodedFields(json: T8nTxJson): DecodedFields | undefined {
  const fields = json as Record<string, unknown>;
  try {
    const quantity = (value: unknown) => BigInt(value as string);
    const key = fields.secretKey;
    return {
      gasLimit: quantity(fields.gas),
      ...(isAbsent(fields.nonce) ? {} : { nonce: quantity(fields.nonce) }),
      ...(isAbsent(fields.gasPrice) ? {} : { gasPrice: quantity(fields.gasPrice) }),
      ...(typeof key === "string" && keySigns(json)
        ? {
            from: toChecksumAddress(bytesToHex(privateToAddress(secretKeyBytes(key)))),
          }
        : {}),
      ...(Array.isArray(fields.blobVersionedHashes)
        ? { blobVersionedHashes: fields.blobVersionedHashes.map(String) }
        : {}),
      ...(fields.maxFeePerGas !== undefined && fields.maxPriorityFeePerGas !== undefined
        ? {
            fees: {
              maxFeePerGas: quantity(fields.maxFeePerGas),
              maxPriorityFeePerGas: quantity(fields.maxPriorityFeePerGas),
            },
          }
        : {}),
    };
  } catch {
    // Fields ethereumjs could not read either: its own message stands.
    return undefined;
  }
}

export function transactionFromJson(json: T8nTxJson, common: Common): TypedTransaction {
  const {
    secretKey,
    protected: protectedSignature,
    gas,
    input,
    hash: _hash,
    v,
    yParity,
    r,
    s,
    ...rest
  } = json as Record<string, unknown>;
  const data: Record<string, unknown> = { ...rest, gasLimit: gas, data: input };
  for (const [key, value] of Object.entries(data)) if (value === null) delete data[key];
  if (!keySigns(json)) {
    // A typed transaction's v may be given as yParity.
    const signature = { v: isAbsent(v) ? yParity : v, r, s };
    for (const [key, value] of Object.entries(signature)) if (!isAbsent(value)) data[key] = value;
    return createTx(data as TypedTxData, { common });
  }
  const key = secretKeyBytes(secretKey as string);
  const legacy = isAbsent(data.type) || BigInt(data.type as string) === 0n;
  // A typed transaction with chain id 0 gets the chain's when geth's signer signs it.
  if (!legacy && !isAbsent(data.chainId) && BigInt(data.chainId as string) === 0n) {
    data.chainId = common.chainId();
  }
  // `protected: false` (legacy only): a signature without EIP-155's chain id, as geth's
  // HomesteadSigner makes it.
  if (legacy && protectedSignature === false) return unprotectedLegacy(data, key, common);
  return createTx(data as TypedTxData, { common }).sign(key);
}

/**
 * Whether geth's t8n signs the transaction with its `secretKey`: only one without a signature
 * (v or yParity, r and s all zero or absent); a signed one is taken as it is.
 */
function keySigns(json: T8nTxJson): boolean {
  const { secretKey, v, yParity, r, s } = json as Record<string, unknown>;
  if (typeof secretKey !== "string") return false;
  return [isAbsent(v) ? yParity : v, r, s].every((x) => isAbsent(x) || BigInt(x as string) === 0n);
}

/** A legacy transaction signed without a chain id (v 27 or 28), valid on any later fork. */
function unprotectedLegacy(
  data: Record<string, unknown>,
  key: Uint8Array,
  common: Common,
): TypedTransaction {
  const homestead = common.copy();
  homestead.setHardfork(Hardfork.Homestead);
  const signed = createTx(data as TypedTxData, { common: homestead }).sign(key);
  return createTx({ ...data, v: signed.v, r: signed.r, s: signed.s } as TypedTxData, { common });
}

/** A t8n `secretKey` as the 32 bytes it signs with (short hex left-padded). */
function secretKeyBytes(key: string): Uint8Array {
  return padLeft(hexToBytesLoose(key, "secretKey"), 32, "secretKey");
}
