import type { KeyScheme } from "@bintrie/core";
import {
  BlockHeader,
  createBlock,
  genWithdrawalsTrieRoot,
  type HeaderData,
} from "@ethereumjs/block";
import { type Common, Hardfork } from "@ethereumjs/common";
import { RLP } from "@ethereumjs/rlp";
import { type Blob4844Tx, createTx, type TypedTransaction, type TypedTxData } from "@ethereumjs/tx";
import {
  Address,
  bigIntToBytes,
  bigIntToHex,
  bytesToBigInt,
  bytesToHex,
  createAddressFromString,
  createWithdrawal,
  equalsBytes,
  intToHex,
  KECCAK256_RLP_ARRAY,
  privateToAddress,
  setLengthLeft,
  toChecksumAddress,
} from "@ethereumjs/util";
import { buildBlock, type RunTxResult, type VM } from "@ethereumjs/vm";
import { keccak_256 } from "@noble/hashes/sha3.js";
import { BEACON_ROOTS_ADDRESS, callBeaconRootContract } from "../chain/beacon-root-call.js";
import { commonForNetwork } from "../chain/common-for-network.js";
import {
  applyDaoHardFork,
  DAO_EXTRA_DATA,
  isDaoForkBlock,
  needsDaoExtraData,
} from "../chain/dao-hard-fork.js";
import { withoutDirectSystemWrites } from "../chain/direct-system-writes.js";
import {
  INVALID_SIGNATURE_VALUES,
  NO_CURVE_POINT,
  typedSignatureValid,
} from "../chain/geth-signature-values.js";
import { readTxListAsGeth } from "../chain/geth-tx-decoding.js";
import { callHistoryContract } from "../chain/history-contract-call.js";
import { INITIAL_BASE_FEE } from "../chain/initial-base-fee.js";
import { refuseNegativeBlockGas } from "../chain/minted-gas.js";
import { requestContractWithoutCode } from "../chain/request-system-calls.js";
import { systemCallContextOf } from "../chain/system-call-context.js";
import { TestnetError } from "../chain/testnet-error.js";
import { creditAccounts, payWithdrawals } from "../chain/withdrawal-payment.js";
import { applyAlloc } from "../fixtures/alloc.js";
import type { FixtureAlloc } from "../fixtures/blockchain-test.js";
import { hexToBytesLoose, padLeft, parseQuantity, quantityHex } from "../fixtures/hex.js";
import { MptReceiptShadow } from "../runner/mpt-receipt-shadow.js";
import { BinaryStateManager } from "../state/binary-state-manager.js";
import { authorizationRefund } from "../trace/authorization-refund.js";
import { DISCARDING_SINK, type OpcodeCounts } from "../trace/opcode-counts.js";
import { OpcodeTraceLogger, type TraceRequest } from "../trace/opcode-trace.js";
import { createExecutionVM } from "../ubt/create-ubt-vm.js";
import { isUbtCommon } from "../ubt/ubt-common.js";
import { addressKey, HISTORY_SERVE_WINDOW, HISTORY_STORAGE_ADDRESS } from "../ubt/ubt-context.js";
import { checkT8nInput, type T8nSources } from "./check-t8n-input.js";
import { ethashDifficulty } from "./ethash-difficulty.js";
import { type GethAllocAccount, gethAllocFromDump } from "./geth-alloc.js";
import { gethFirstChecksFailure } from "./geth-pre-check.js";
import {
  blockBlobGasOver,
  type DecodedFields,
  gethDecodeRejectReason,
  gethRejectReason,
  senderRecoveryFault,
  TX_TYPE_NOT_SUPPORTED,
} from "./geth-reject-reason.js";
import { legacyJsonTx, legacySignature, legacyTxFields } from "./legacy-tx-fields.js";
import { pendingBlockFees, preCheckBlock } from "./pending-block.js";
import { type Candidate, rlpTxCandidate } from "./rlp-tx-candidate.js";
import { recordDeletions, refuseStorageWiping } from "./storage-wiping.js";
import { T8N_EXIT_EVM, T8N_EXIT_MISSING_BLOCKHASH, T8N_EXIT_RLP } from "./t8n-exit-codes.js";
import { fail, isAbsent } from "./t8n-input-fault.js";
import {
  forkHasTxType,
  typedJsonEnvelope,
  typedSignerFault,
  typedTxFields,
} from "./typed-tx-fields.js";

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
  readonly parentTimestamp?: string;
  readonly parentDifficulty?: string;
  readonly parentUncleHash?: string;
  readonly parentBaseFee?: string;
  readonly parentGasUsed?: string;
  readonly parentGasLimit?: string;
  readonly parentExcessBlobGas?: string;
  readonly parentBlobGasUsed?: string;
  readonly parentBeaconBlockRoot?: string;
  readonly blockHashes?: Readonly<Record<string, string>>;
  /** Pre-merge ommers: geth's reward step pays (or, with a reward of 0, touches) each. */
  readonly ommers?: readonly { readonly delta: number; readonly address: string }[];
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
  /**
   * geth's `--trace`: the JSON opcode trace of each transaction that reaches execution, line by
   * line into `sink` (see OpcodeTraceLogger).
   */
  readonly trace?: TraceRequest;
  /**
   * geth's `--opcode.count`: counts every instruction of the transition (the system calls' too)
   * into this (see OpcodeCounts).
   */
  readonly opcodeCounts?: OpcodeCounts;
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

/** EIP-1559's constants (from the EIP). */
const ELASTICITY_MULTIPLIER = 2n;
const BASE_FEE_CHANGE_DENOMINATOR = 8n;
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
  // geth's commit checks, on MPT state from Cancun on, that no account with storage went.
  const deleted =
    ubtNetwork === undefined && common.gteHardfork(Hardfork.Cancun)
      ? recordDeletions(state)
      : undefined;
  const systemCalls = systemCallContextOf(vm)!;
  const timestamp = parseQuantity(env.currentTimestamp, "env.currentTimestamp");
  vm.common.setHardforkBy({ blockNumber: number, timestamp });

  const beaconRoot = vm.common.isActivatedEIP(4788)
    ? (bytes32(env.parentBeaconBlockRoot, "env.parentBeaconBlockRoot") ?? ZERO_HASH)
    : undefined;
  const parentBlock = createBlock(
    { header: parentHeader(env, number, vm.common, sources.env) },
    { common: vm.common, setHardfork: true, skipConsensusFormatValidation: true },
  );
  // The block's difficulty: the env's, or before the merge derived from the parent's.
  const difficulty =
    optionalQuantity(env.currentDifficulty, "env.currentDifficulty") ??
    (vm.common.gteHardfork(Hardfork.Paris)
      ? 0n
      : derivedDifficulty(env, number, timestamp, vm.common));
  const headerData = currentHeader(
    env,
    number,
    hashes,
    vm.common,
    sources.env,
    difficulty,
    parentBlock.header.excessBlobGas !== undefined,
  );
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
  const builder = await withoutDirectSystemWrites(vm, () =>
    buildBlock(vm, {
      parentBlock,
      headerData,
      // In the block (its root) from Shanghai on; paid below on any fork, as geth pays them.
      withdrawals: vm.common.isActivatedEIP(4895) ? withdrawals : undefined,
      blockOpts: { putBlockIntoBlockchain: false, skipConsensusFormatValidation: true },
    }),
  );
  // geth's t8n pays only its own --state.reward (touchCoinbaseWithReward), never the ethash
  // block reward the library's builder adds to pre-merge blocks.
  (builder as unknown as { rewardMiner: () => Promise<void> }).rewardMiner = async () => {};
  (builder as unknown as { processWithdrawals: () => Promise<void> }).processWithdrawals =
    async () => {};

  // The system calls' block: the header the builder completed from the env and the parent (the
  // excess blob gas it derived among them: BLOBBASEFEE in a system call reads it).
  const completed = (builder as unknown as { readonly headerData: HeaderData }).headerData;
  const context = createBlock(
    { header: completed },
    { common: vm.common, setHardfork: true, skipConsensusFormatValidation: true },
  );
  systemCalls.setBlock(context);
  // geth's opcode counter sees the system calls too (its JSON logger does not).
  const counter =
    input.opcodeCounts === undefined
      ? undefined
      : new OpcodeTraceLogger(vm.evm, vm.common, {}, DISCARDING_SINK, ubt, input.opcodeCounts);
  counter?.begin(undefined);
  // geth's t8n: the DAO fork's balance moves at its block, before the system calls.
  if (isDaoForkBlock(vm.common, number)) await applyDaoHardFork(vm);
  // geth's t8n: the EIP-4788 call whenever the fork has it (an absent contract runs nothing).
  if (beaconRoot !== undefined) await callBeaconRootContract(vm, context, beaconRoot);
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

  counter?.end();
  // geth hashes every log of the block in the order they were emitted, system calls' too.
  const logsBeforeTxs = systemCalls.takeLogs();
  const rejected: { index: number; error: string }[] = [];
  const applied: { tx: TypedTransaction; result: RunTxResult }[] = [];
  const pendingFees = pendingBlockFees(builder, vm.common);
  // The open checkpoints when the running transaction started (its own is the next one).
  let txStartDepth: number | undefined;
  vm.events.on("beforeTx", () => {
    txStartDepth = state.checkpointDepth - 1;
  });
  const candidates = decodeTransactions(input.txs, vm.common, sources.txs);
  // The transactions' logger: the trace's (counting too), or the counter alone.
  const tracer =
    input.trace === undefined
      ? counter
      : new OpcodeTraceLogger(
          vm.evm,
          vm.common,
          input.trace.options ?? {},
          input.trace.sink,
          ubt,
          input.opcodeCounts,
        );
  for (let index = 0; index < candidates.length; index++) {
    const candidate = candidates[index]!;
    const json = typeof input.txs === "string" ? undefined : input.txs[index];
    const type =
      "error" in candidate
        ? (candidate.type ?? Number(optionalQuantity(json?.type, "type") ?? 0n))
        : candidate.tx.type;
    // geth's t8n has no blob base fee then, and turns blob transactions away first.
    if (type === 3 && !blobGasKnown(env)) {
      rejected.push({ index, error: "blob tx used but field env.ExcessBlobGas missing" });
      continue;
    }
    // Before EIP-155 (Spurious Dragon) geth's signer recovers nothing from a V other than 27 or
    // 28, and geth's t8n signs a `secretKey` transaction with EIP-155's chain id unless it says
    // `"protected": false` (a signed one met the fork's signer while it was decoded).
    if (
      !("error" in candidate) &&
      candidate.tx.type === 0 &&
      !vm.common.gteHardfork(Hardfork.SpuriousDragon) &&
      json !== undefined &&
      keySigns(json) &&
      json.protected !== false
    ) {
      rejected.push({ index, error: INVALID_SIGNATURE_VALUES });
      continue;
    }
    // Refused as geth decodes it, recovers its sender or makes it a message: before the block's
    // blob gas and the pre-check.
    if ("error" in candidate && candidate.final) {
      rejected.push({ index, error: candidate.error });
      continue;
    }
    // geth recovers the sender before its pre-check (TransactionToMessage).
    const unrecovered = "error" in candidate ? undefined : senderRecoveryFault(candidate.tx);
    if (unrecovered !== undefined) {
      rejected.push({ index, error: unrecovered });
      continue;
    }
    const block = preCheckBlock(builder, vm.common, pendingFees);
    if ("error" in candidate) {
      // The library refused to build it; geth builds it and may fail an earlier check first:
      // the block's blob gas, then its pre-check's nonce, gas cap, sender and fee caps.
      const fields = candidate.fields ?? (json === undefined ? undefined : decodedFields(json));
      const blobs = type === 3 ? (fields?.blobVersionedHashes?.length ?? 0) : 0;
      const blobGasOver = blockBlobGasOver(block.blobGas, blobs, vm.common.param("blobGasPerBlob"));
      // geth's pre-check runs inside the transaction's execution: its trace (empty) has a
      // file; the library built no transaction, so no hash names it here (counted, not written).
      if (tracer !== undefined && blobGasOver === undefined) {
        tracer.begin(undefined);
        tracer.end();
      }
      const first =
        blobGasOver ??
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
    txStartDepth = undefined;
    // geth checks the block's blob gas before the transaction executes (no trace for it).
    const traced =
      tracer !== undefined &&
      blockBlobGasOver(
        block.blobGas,
        candidate.tx.type === 3 ? (candidate.tx as Blob4844Tx).blobVersionedHashes.length : 0,
        vm.common.param("blobGasPerBlob"),
      ) === undefined;
    if (traced) {
      tracer.begin(candidate.tx, await authorizationRefund(candidate.tx, state));
    }
    let ran: { readonly result: RunTxResult } | { readonly cause: unknown };
    try {
      ran = { result: await builder.addTransaction(candidate.tx, { allowNoBlobs: true }) };
    } catch (cause) {
      ran = { cause };
    }
    // Outside the try: a trace that cannot be written ends the transition (exit 11), it does
    // not reject the transaction.
    if (traced) tracer.end();
    if ("result" in ran) {
      applied.push({ tx: candidate.tx, result: ran.result });
    } else {
      const cause = ran.cause;
      if (cause instanceof TestnetError && cause.code === "GAS_RETURNED_OVER_LIMIT") {
        // geth panics on it: no result, its exit code.
        throw new TestnetError(cause.code, `${sources.txs}: tx ${index}: ${cause.message}`, {
          file: sources.txs,
          gethExitCode: T8N_EXIT_EVM,
        });
      }
      // An error the EVM did not expect (not a refusal) leaves its frames' checkpoints open:
      // close them, so the transaction leaves no state behind.
      if (txStartDepth !== undefined) {
        while (state.checkpointDepth > txStartDepth) await vm.evm.journal.revert();
      }
      rejected.push({
        index,
        error: await gethRejectReason(candidate.tx, cause as Error, state, block),
      });
      continue;
    }
    // geth looks at a BLOCKHASH it could not answer (also one a system call asked) only once
    // a transaction is included.
    if (missingHash !== undefined) throw missingBlockHash(missingHash, index, env, sources.env);
  }
  // geth's t8n reads its gas pool once the transactions have run.
  refuseNegativeBlockGas(builder, sources.txs, { file: sources.txs, gethExitCode: T8N_EXIT_EVM });
  // geth meets a request contract without code when the block's requests are processed (the
  // state's account: of an address the alloc spells twice, the last spelling, as geth reads it).
  const codeless = await requestContractWithoutCode(vm);
  if (codeless !== undefined) {
    fail(
      sources.alloc,
      `account ${codeless.address}`,
      `empty system contract: no code for the EIP-${codeless.eip} ${codeless.queue}, which every ${common.hardfork()} block calls`,
      T8N_EXIT_EVM,
    );
  }
  if (ubtNetwork !== undefined) await intermediateRoot(vm, builder, state);
  await payBlockReward(vm, headerData.coinbase as Uint8Array, input.reward ?? 0n, {
    env,
    source: sources.env,
  });
  // geth's t8n pays the withdrawals here on any fork, before the request queue calls.
  await payWithdrawals(
    vm,
    (withdrawals ?? []).map((w) => ({
      address: createAddressFromString(w.address),
      amount: w.amount,
    })),
  );
  // The request queue calls run as the block is built.
  counter?.begin(undefined);
  const { block, requests } = await builder.build().finally(() => counter?.end());
  const queueFailure = systemCalls.takeQueueFailure();
  if (queueFailure !== undefined) {
    throw new TestnetError(
      "SYSTEM_CALL_FAILED",
      `failed to process post-execution: ${queueFailure} (the queue contract of ${sources.alloc})`,
      { file: sources.alloc, gethExitCode: T8N_EXIT_EVM },
    );
  }
  // geth commits the state last.
  if (deleted !== undefined)
    refuseStorageWiping(deleted, input.alloc as FixtureAlloc, sources.alloc);
  const header = block.header;
  // geth prints the root of the env's withdrawals whenever it gives them (any fork).
  const withdrawalsRoot =
    header.withdrawalsRoot ??
    (withdrawals === undefined
      ? undefined
      : await genWithdrawalsTrieRoot(withdrawals.map((w) => createWithdrawal(w))));
  // Before Byzantium a receipt holds the MPT state root after its transaction: the applied
  // transactions run again on an MPT state of the alloc, which gives them (and so geth's
  // receipts root). The state root printed stays the binary one.
  const mpt =
    ubtNetwork === undefined && MptReceiptShadow.needed(vm.common)
      ? await (
          await MptReceiptShadow.create(vm.common, input.alloc as FixtureAlloc, blockchain)
        ).run(block, { validate: false })
      : undefined;
  let logIndex = logsBeforeTxs.length;
  const receipts: T8nReceipt[] = applied.map(({ tx, result }, i) => ({
    // geth's receipt JSON omits the type of a legacy transaction.
    ...(tx.type === 0 ? {} : { type: intToHex(tx.type) }),
    root: mpt === undefined ? "0x" : bytesToHex(mpt.receiptRoots[i]!),
    // geth sets the status on every fork, before Byzantium (whose receipts carry a root) too.
    status: result.execResult.exceptionError === undefined ? "0x1" : "0x0",
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
  const logs = [
    ...logsBeforeTxs,
    ...applied.flatMap(({ result }) => result.receipt.logs),
    ...systemCalls.takeLogs(),
  ];
  const result: T8nResult = {
    stateRoot: bytesToHex(header.stateRoot),
    txRoot: bytesToHex(header.transactionsTrie),
    receiptsRoot: bytesToHex(mpt?.receiptsRoot ?? header.receiptTrie),
    logsHash: bytesToHex(keccak_256(RLP.encode(logs))),
    logsBloom: bytesToHex(header.logsBloom),
    receipts,
    ...(rejected.length > 0 ? { rejected } : {}),
    // geth prints the env's difficulty before the merge, and none after it.
    currentDifficulty: vm.common.gteHardfork(Hardfork.Paris) ? null : bigIntToHex(difficulty),
    gasUsed: bigIntToHex(header.gasUsed),
    // geth prints a given currentBaseFee before London too (its block context keeps it).
    ...(header.baseFeePerGas !== undefined || !isAbsent(env.currentBaseFee)
      ? {
          currentBaseFee: bigIntToHex(
            header.baseFeePerGas ?? parseQuantity(env.currentBaseFee, "env.currentBaseFee"),
          ),
        }
      : {}),
    ...(withdrawalsRoot !== undefined ? { withdrawalsRoot: bytesToHex(withdrawalsRoot) } : {}),
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
 * geth t8n's reward step (before the withdrawals; none with a negative reward): each ommer gets
 * (8 − delta) / 8 of the reward and the coinbase the reward plus 1/32 of it per ommer, through
 * `AddBalance`, so a reward of 0 still touches them all (see creditAccounts).
 */
async function payBlockReward(
  vm: VM,
  coinbase: Uint8Array,
  reward: bigint,
  { env, source }: { env: T8nEnv; source: string },
): Promise<void> {
  if (reward < 0n) return;
  const credits: { address: Address; wei: bigint }[] = [];
  let minerReward = reward;
  for (const [i, ommer] of (env.ommers ?? []).entries()) {
    minerReward += reward >> 5n;
    const share = ((8n - BigInt(ommer.delta)) * reward) >> 3n;
    if (share < 0n) {
      throw new TestnetError(
        "INVALID_INPUT",
        `${source}: ommers[${i}].delta: ${ommer.delta} is over 8, which makes the ommer's reward negative`,
        { file: source, field: `ommers[${i}].delta` },
      );
    }
    const address = hexToBytesLoose(ommer.address, `env.ommers[${i}].address`);
    credits.push({ address: new Address(address), wei: share });
  }
  credits.push({ address: new Address(coinbase), wei: minerReward });
  await creditAccounts(vm, credits);
}

function blockHashes(env: T8nEnv): Map<bigint, Uint8Array> {
  const map = new Map<bigint, Uint8Array>();
  for (const [n, hash] of Object.entries(env.blockHashes ?? {})) {
    map.set(
      parseQuantity(n, "env.blockHashes key"),
      padLeft(hexToBytesLoose(hash, "block hash"), 32, "block hash"),
    );
  }
  // geth's t8n has no `previousHash`: the parent's hash comes from blockHashes alone.
  return map;
}

function optionalQuantity(value: unknown, what: string): bigint | undefined {
  return value === undefined || value === null ? undefined : parseQuantity(value as string, what);
}

function bytes32(value: string | null | undefined, what: string): Uint8Array | undefined {
  if (value === undefined || value === null) return undefined;
  // geth reads currentRandom as a quantity, whose prefix may be upper case.
  if (value.startsWith("0X")) return bytes32(`0x${value.slice(2)}`, what);
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
  // The library builds no header with more gas used than its limit; the parent's gas only
  // derives the base fee, which derivedBaseFee does from the env as given.
  const gasUsed = optionalQuantity(env.parentGasUsed, "env.parentGasUsed") ?? 0n;
  const header: Record<string, unknown> = {
    number: number > 0n ? number - 1n : 0n,
    timestamp: optionalQuantity(env.parentTimestamp, "env.parentTimestamp") ?? 0n,
    gasLimit,
    gasUsed: gasUsed > gasLimit ? gasLimit : gasUsed,
    difficulty: optionalQuantity(env.parentDifficulty, "env.parentDifficulty") ?? 0n,
  };
  // As for the current header (currentHeader): the library wants the DAO fork's marker.
  if (needsDaoExtraData(common, header.number as bigint)) header.extraData = DAO_EXTRA_DATA;
  if (common.isActivatedEIP(1559) && londonAt(common, header.number as bigint)) {
    header.baseFeePerGas =
      optionalQuantity(env.parentBaseFee, "env.parentBaseFee") ??
      optionalQuantity(env.currentBaseFee, "env.currentBaseFee");
    // The library builds London's first block (of a transition network) only with the initial
    // base fee. The parent's is never read: the current one is given or derived from the env.
    if (header.number === common.hardforkBlock(Hardfork.London) && header.number !== 0n) {
      header.baseFeePerGas = INITIAL_BASE_FEE;
    }
  }
  if (
    blobGasAtParent(common, {
      number: header.number as bigint,
      timestamp: header.timestamp as bigint,
    })
  ) {
    header.excessBlobGas =
      optionalQuantity(env.parentExcessBlobGas, "env.parentExcessBlobGas") ?? 0n;
    header.blobGasUsed = optionalQuantity(env.parentBlobGasUsed, "env.parentBlobGasUsed") ?? 0n;
    refuseReservePriceWithoutParentBaseFee(env, header, common, source);
  }
  return header;
}

/**
 * EIP-7918 (Osaka on) derives the excess blob gas, above the target, by comparing the blob price
 * with the parent's base fee. geth's t8n takes that from parentBaseFee alone and panics without
 * it; the library would take the current base fee instead: a guess, so the input is refused.
 */
function refuseReservePriceWithoutParentBaseFee(
  env: T8nEnv,
  parent: Record<string, unknown>,
  common: Common,
  source: string,
): void {
  if (!common.isActivatedEIP(7918) || !isAbsent(env.parentBaseFee)) return;
  // Derived only when the env gives the parent's two fields and not the current value.
  if (!isAbsent(env.currentExcessBlobGas) || !blobGasKnown(env)) return;
  const excess = (parent.excessBlobGas as bigint) + (parent.blobGasUsed as bigint);
  if (excess < common.getBlobGasSchedule().targetBlobGasPerBlock) return;
  throw new TestnetError(
    "INVALID_INPUT",
    `${source}: parentBaseFee: missing, and EIP-7918 needs it to derive the excess blob gas from parentExcessBlobGas and parentBlobGasUsed (give parentBaseFee, or currentExcessBlobGas)`,
    { file: source, field: "parentBaseFee" },
  );
}

/** The header fields of the block being built. */
function currentHeader(
  env: T8nEnv,
  number: bigint,
  hashes: Map<bigint, Uint8Array>,
  common: Common,
  source: string,
  difficulty: bigint,
  /** Whether the parent header carries blob gas fields (parentHeader: its fork has them). */
  parentHasBlobGas: boolean,
): Record<string, unknown> {
  const header: Record<string, unknown> = {
    coinbase: padLeft(hexToBytesLoose(env.currentCoinbase, "env.currentCoinbase"), 20, "coinbase"),
    number,
    timestamp: parseQuantity(env.currentTimestamp, "env.currentTimestamp"),
    gasLimit: parseQuantity(env.currentGasLimit, "env.currentGasLimit"),
    // geth's header holds any size; DIFFICULTY reads its low 256 bits (uint256 SetFromBig).
    difficulty: BigInt.asUintN(256, difficulty),
    // geth's uint64 arithmetic: block 0's parent is number 2^64 − 1.
    parentHash: hashes.get(BigInt.asUintN(64, number - 1n)) ?? ZERO_HASH,
  };
  const random = bytes32(env.currentRandom, "env.currentRandom");
  if (random !== undefined) {
    header.mixHash = random;
    // geth's t8n takes a given currentRandom as the merge from London on (its rules' IsMerge
    // is `Random != nil && IsLondon`), so on London too DIFFICULTY reads currentRandom: the
    // header the EVM sees carries it (the result still prints the env's difficulty).
    if (common.isActivatedEIP(1559) && !common.isActivatedEIP(4399)) {
      header.difficulty = bytesToBigInt(random);
    }
  }
  if (common.isActivatedEIP(1559)) {
    header.baseFeePerGas =
      optionalQuantity(env.currentBaseFee, "env.currentBaseFee") ??
      derivedBaseFee(env, number, common, source);
  }
  const excess = optionalQuantity(env.currentExcessBlobGas, "env.currentExcessBlobGas");
  if (excess !== undefined && common.isActivatedEIP(4844)) header.excessBlobGas = excess;
  else if (common.isActivatedEIP(4844) && blobGasKnown(env) && !parentHasBlobGas) {
    // Cancun's first block (ShanghaiToCancunAtTime15k): its parent carries no blob gas fields
    // for the library to derive from; geth's formula takes the env's parent fields as given.
    header.excessBlobGas = BlockHeader.prototype.calcNextExcessBlobGas.call(
      {
        excessBlobGas: optionalQuantity(env.parentExcessBlobGas, "env.parentExcessBlobGas") ?? 0n,
        blobGasUsed: optionalQuantity(env.parentBlobGasUsed, "env.parentBlobGasUsed") ?? 0n,
        baseFeePerGas: optionalQuantity(env.parentBaseFee, "env.parentBaseFee"),
      },
      common,
    );
  }
  if (common.isActivatedEIP(4788)) {
    header.parentBeaconBlockRoot =
      bytes32(env.parentBeaconBlockRoot, "env.parentBeaconBlockRoot") ?? ZERO_HASH;
  }
  // The env has no extra data; the library builds none of the DAO fork's first ten blocks
  // without its marker (geth's t8n checks no header).
  if (needsDaoExtraData(common, number)) header.extraData = DAO_EXTRA_DATA;
  return header;
}

/**
 * The base fee geth's t8n derives from the parent fields (eip1559.CalcBaseFee; the checks
 * have made sure there is a parentBaseFee and a parent): absent gas fields are 0, and gas used
 * over the limit is taken as given (a zero gas target with gas used makes geth divide by zero:
 * refused).
 */
function derivedBaseFee(env: T8nEnv, number: bigint, common: Common, source: string): bigint {
  // The London block itself starts at the EIP's initial base fee (a parent before London).
  if (!londonAt(common, number - 1n)) return INITIAL_BASE_FEE;
  const baseFee = parseQuantity(env.parentBaseFee, "env.parentBaseFee");
  const gasLimit = optionalQuantity(env.parentGasLimit, "env.parentGasLimit") ?? 0n;
  const gasUsed = optionalQuantity(env.parentGasUsed, "env.parentGasUsed") ?? 0n;
  const target = gasLimit / ELASTICITY_MULTIPLIER;
  if (gasUsed === target) return baseFee;
  if (target === 0n) {
    throw new TestnetError(
      "INVALID_INPUT",
      `${source}: parentGasUsed: ${gasUsed} with a zero gas target (parentGasLimit ${gasLimit}), from which the base fee is to be derived (give currentBaseFee)`,
      { file: source, field: "parentGasUsed" },
    );
  }
  if (gasUsed > target) {
    const delta = (baseFee * (gasUsed - target)) / target / BASE_FEE_CHANGE_DENOMINATOR;
    return baseFee + (delta > 1n ? delta : 1n);
  }
  const delta = (baseFee * (target - gasUsed)) / target / BASE_FEE_CHANGE_DENOMINATOR;
  return baseFee > delta ? baseFee - delta : 0n;
}

/** Whether a (parent) header's fork has blob gas fields, by its number and timestamp. */
function blobGasAtParent(
  common: Common,
  parent: { readonly number: bigint; readonly timestamp: bigint },
): boolean {
  const atParent = common.copy();
  atParent.setHardforkBy({ blockNumber: parent.number, timestamp: parent.timestamp });
  return atParent.isActivatedEIP(4844);
}

/** Whether block `number` is London's or later's (a transition network can start before it). */
function londonAt(common: Common, number: bigint): boolean {
  const london = common.hardforkBlock(Hardfork.London);
  return london === null || number >= london;
}

/**
 * The difficulty geth's t8n derives before the merge when the env gives none (t8ntool
 * calcDifficulty: ethash's rule for the fork, from the parent's difficulty, time and uncle hash,
 * a zero uncle hash meaning none; the checks have refused block 0 and a parent time not before
 * the block's).
 */
function derivedDifficulty(env: T8nEnv, number: bigint, timestamp: bigint, common: Common): bigint {
  const uncleHash = bytes32(env.parentUncleHash, "env.parentUncleHash");
  return ethashDifficulty(common, number, timestamp, {
    difficulty: parseQuantity(env.parentDifficulty, "env.parentDifficulty"),
    timestamp: optionalQuantity(env.parentTimestamp, "env.parentTimestamp") ?? 0n,
    hasUncles:
      uncleHash !== undefined &&
      !uncleHash.every((b) => b === 0) &&
      !equalsBytes(uncleHash, KECCAK256_RLP_ARRAY),
  });
}

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
    // Read as geth's t8n reads it: a transaction it fails to decode changes what follows.
    const geth = readTxListAsGeth(hexToBytesLoose(txs, source));
    if ("malformed" in geth) {
      throw new TestnetError(
        "INVALID_INPUT",
        `${source}: must hold one RLP list of transactions (${geth.malformed})`,
        { file: source, gethExitCode: T8N_EXIT_RLP },
      );
    }
    if (geth.stuck !== undefined) {
      throw new TestnetError(
        "INVALID_INPUT",
        `${source}: transaction ${geth.stuck}: geth's t8n refuses this value and reads it again, without end (a one-byte value, or a header it cannot read, with more after it in its list)`,
        { file: source, gethExitCode: T8N_EXIT_RLP },
      );
    }
    return geth.items.map((item) => rlpTxCandidate(item, common));
  }
  return txs.map((json, index): Candidate => {
    // geth's signer first: the fork's types (also for a transaction it signs), then for a signed
    // one its chain id and signature values, and (where ethereumjs will not build it) the sender
    // its pre-check names.
    const type = isLegacy(json) ? 0 : Number(json.type);
    if (!forkHasTxType(type, common)) return { error: TX_TYPE_NOT_SUPPORTED, type, final: true };
    const signed = keySigns(json)
      ? undefined
      : type === 0
        ? legacyJsonSigner(json, common)
        : typedJsonSigner(json, common);
    if (typeof signed === "string") return { error: signed, type, final: true };
    try {
      return { tx: transactionFromJson(json, common) };
    } catch (cause) {
      const message = (cause as Error).message;
      const fields = signed?.() ?? decodedFields(json);
      if (typeof fields === "string") return { error: fields, type, final: true };
      const reason = gethDecodeRejectReason(message, common.chainId(), fields);
      const error = reason !== message ? reason : `tx ${index}: ${message}`;
      return signed === undefined || fields === undefined ? { error } : { error, type, fields };
    }
  });
}

/** Whether a txs.json entry is a legacy transaction (no type, or type 0). */
function isLegacy(json: T8nTxJson): boolean {
  return isAbsent(json.type) || BigInt(json.type as string) === 0n;
}

/**
 * geth's signer over a signed typed txs.json entry of a type the fork has: its words for another
 * chain id or signature values out of range, else what recovers the fields its pre-check reads
 * (undefined where the entry cannot be encoded as geth would).
 */
function typedJsonSigner(
  json: T8nTxJson,
  common: Common,
): string | (() => DecodedFields | string | undefined) {
  // The input check allowed S in the upper half, as geth's JSON decoding does: its signer does not.
  const quantity = (value: unknown) => BigInt(value as string);
  const valid = typedSignatureValid(
    quantity(isAbsent(json.v) ? json.yParity : json.v),
    quantity(json.r),
    quantity(json.s),
  );
  const fault = typedSignerFault(quantity(json.chainId), valid, common);
  if (fault !== undefined) return fault;
  return () => {
    const envelope = typedJsonEnvelope(json);
    return envelope === undefined ? undefined : (typedTxFields(envelope) ?? NO_CURVE_POINT);
  };
}

/**
 * geth's signer over a signed legacy txs.json entry: its words for another chain id or
 * signature values out of range, else what recovers the fields its pre-check reads.
 */
function legacyJsonSigner(
  json: T8nTxJson,
  common: Common,
): string | (() => DecodedFields | string) {
  const { values, numbers } = legacyJsonTx(json);
  const signature = legacySignature(values, numbers, common);
  if ("error" in signature) return signature.error;
  return () => legacyTxFields(numbers, signature);
}

/** The fields geth's reasons name, read from a transaction ethereumjs would not build. */
export function decodedFields(json: T8nTxJson): DecodedFields | undefined {
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
  const legacy = isLegacy(json);
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
  // Before EIP-155 the fork's own signer makes that signature (and a Frontier chain has no
  // Homestead to switch to); from Spurious Dragon on, Homestead's signer makes it.
  let signer = common;
  if (common.gteHardfork(Hardfork.SpuriousDragon)) {
    signer = common.copy();
    signer.setHardfork(Hardfork.Homestead);
  }
  const signed = createTx(data as TypedTxData, { common: signer }).sign(key);
  return createTx({ ...data, v: signed.v, r: signed.r, s: signed.s } as TypedTxData, { common });
}

/** A t8n `secretKey` as the 32 bytes it signs with (short hex left-padded). */
function secretKeyBytes(key: string): Uint8Array {
  return padLeft(hexToBytesLoose(key, "secretKey"), 32, "secretKey");
}
