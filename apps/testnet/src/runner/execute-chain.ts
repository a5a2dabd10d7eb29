import { assertKnownOptions } from "@bintrie/codec";
import type { KeyScheme } from "@bintrie/core";
import { type Block, createBlockFromBytesArray, createBlockFromRLP } from "@ethereumjs/block";
import { type Blockchain, createBlockchain } from "@ethereumjs/blockchain";
import type { Common } from "@ethereumjs/common";
import { RLP } from "@ethereumjs/rlp";
import { bigIntToUnpaddedBytes, bytesToHex, equalsBytes } from "@ethereumjs/util";
import type { createVM, runBlock } from "@ethereumjs/vm";
import { commonForNetwork } from "../chain/common-for-network.js";
import { gethBlockTxFault } from "../chain/geth-tx-decoding.js";
import { KnownBlocks } from "../chain/known-blocks.js";
import { type SystemCallContext, systemCallContextOf } from "../chain/system-call-context.js";
import { TestnetError } from "../chain/testnet-error.js";
import { applyAlloc } from "../fixtures/alloc.js";
import type { BlockchainTest } from "../fixtures/blockchain-test.js";
import { hexToBytesLoose, parseQuantity } from "../fixtures/hex.js";
import { BinaryStateManager } from "../state/binary-state-manager.js";
import type { TraceRequest } from "../trace/opcode-trace.js";
import { createExecutionVM, runBlockAsGeth } from "../ubt/create-ubt-vm.js";
import { isUbtCommon } from "../ubt/ubt-common.js";
import type { UbtContext } from "../ubt/ubt-context.js";
import { BlockTransactionTrace } from "./block-transaction-trace.js";
import { type MptBlockRoots, MptReceiptShadow } from "./mpt-receipt-shadow.js";

/** Header field positions in a block header's RLP list. */
const PARENT_HASH = 0;
const STATE_ROOT = 3;
const RECEIPT_TRIE = 5;
const LOGS_BLOOM = 6;
const GAS_USED = 10;

export interface ExecuteOptions {
  /** Key scheme of the binary state. Default: the fixture's (`_bintrie.scheme`) or 'sha256-be'. */
  readonly scheme?: KeyScheme;
  /** Group depth of stored nodes. Default: the fixture's or 5. */
  readonly groupDepth?: number;
  /**
   * Rebuild the chain on binary roots: every header gets the binary post-state root and the
   * rebuilt parent's hash (used by `fill`). Without it, the fixture's blocks run as they are.
   */
  readonly rebuild?: boolean;
  /**
   * geth's `evm blocktest --trace`: the JSON opcode trace of every transaction the blocks run
   * (see BlockTransactionTrace), into `trace.sink`.
   */
  readonly trace?: TraceRequest;
}

export const EXECUTE_OPTION_KEYS: readonly (keyof ExecuteOptions)[] = [
  "scheme",
  "groupDepth",
  "rebuild",
  "trace",
];

/** One executed block. */
export interface ExecutedBlock {
  /** The block as it went into the chain (rebuilt when `rebuild` is set). */
  readonly block: Block;
  /** Binary post-state root. */
  readonly root: Uint8Array;
  readonly gasUsed: bigint;
  /** Index of the fixture block it came from. */
  readonly fixtureIndex: number;
}

export interface ChainExecution {
  readonly common: Common;
  readonly state: BinaryStateManager;
  readonly blockchain: Blockchain;
  readonly genesis: Block;
  readonly genesisRoot: Uint8Array;
  readonly blocks: readonly ExecutedBlock[];
  /** Blocks with `expectException` that were rejected as expected (fixture indices). */
  readonly rejected: readonly number[];
  readonly head: Block;
  /** Wall time spent in `runBlock`. */
  readonly blockMilliseconds: number;
  /** Every check that failed, in words; empty when the chain executed as the fixture says. */
  readonly failures: readonly string[];
}

/**
 * Runs a blockchain test on binary-tree state: `pre` written as the genesis state, every block
 * through `runBlock` (header, body, gas, receipts, bloom and requests checked against the
 * block; MPT state roots are not comparable and are skipped unless the fixture is binary),
 * each block put into the chain so BLOCKHASH and header validation see its ancestors.
 */
export async function executeChain(
  test: BlockchainTest,
  options: ExecuteOptions = {},
): Promise<ChainExecution> {
  assertKnownOptions(options, EXECUTE_OPTION_KEYS, "executeChain", TestnetError);
  const failures: string[] = [];
  const binary = test._bintrie;
  const rebuild = options.rebuild === true;
  const chainId = test.config?.chainid;
  const common = commonForNetwork(test.network, {
    chainId:
      typeof chainId === "string" ? Number(parseQuantity(chainId, "config.chainid")) : undefined,
    config: test.config,
  });
  // A UBT network's headers carry geth's binary roots: each is checked (unless rebuilding).
  const ubt = isUbtCommon(common);
  const checkRoots = (binary !== undefined || ubt) && !rebuild;
  const state = new BinaryStateManager({
    scheme: options.scheme ?? (binary?.scheme as KeyScheme | undefined),
    groupDepth: options.groupDepth ?? binary?.groupDepth,
    writePolicy: ubt ? "geth-ubt" : "mpt-compatible",
  });

  const fixtureGenesis = genesisFromRLP(hexToBytesLoose(test.genesisRLP, "genesisRLP"), common);
  const expectedGenesisHash = test.genesisBlockHeader?.hash;
  if (expectedGenesisHash !== undefined && !sameHex(fixtureGenesis.hash(), expectedGenesisHash)) {
    failures.push(
      `genesisRLP hashes to ${bytesToHex(fixtureGenesis.hash())}, genesisBlockHeader.hash is ${expectedGenesisHash}`,
    );
  }
  const { root: genesisRoot } = await applyAlloc(state, test.pre);
  if (checkRoots) {
    if (!equalsBytes(fixtureGenesis.header.stateRoot, genesisRoot)) {
      failures.push(
        `binary genesis root ${bytesToHex(genesisRoot)} differs from the genesis header's ${bytesToHex(fixtureGenesis.header.stateRoot)}`,
      );
    }
    if (binary !== undefined && !sameHex(genesisRoot, binary.genesisRoot)) {
      failures.push(
        `binary genesis root ${bytesToHex(genesisRoot)} differs from _bintrie.genesisRoot ${binary.genesisRoot}`,
      );
    }
  }
  const genesis = rebuild
    ? withHeaderFields(fixtureGenesis, common, { stateRoot: genesisRoot })
    : fixtureGenesis;
  const blockchain = await createBlockchain({
    common,
    genesisBlock: genesis,
    validateConsensus: false,
  });
  const known = new KnownBlocks(blockchain);
  known.add(genesis);
  const { vm, ubt: ubtRules } = await createExecutionVM({
    common,
    blockchain,
    stateManager: state,
  });
  // Every VM createExecutionVM makes carries one.
  const systemCalls = systemCallContextOf(vm)!;
  const tracing =
    options.trace === undefined
      ? undefined
      : new BlockTransactionTrace(vm, ubtRules, options.trace);
  // An MPT execution of the same blocks beside the binary one, on MPT fixtures: before
  // Byzantium a receipt holds the MPT root after its transaction, so the receipts root needs it;
  // and where a block is expected to fail, its MPT state root may be what is wrong (geth's
  // import refuses it), so every block's is checked then.
  const checksMptRoots =
    !ubt && binary === undefined && test.blocks.some((b) => b.expectException !== undefined);
  let shadow =
    !ubt && (checksMptRoots || MptReceiptShadow.needed(fixtureGenesis.common))
      ? await MptReceiptShadow.create(common, test.pre, blockchain)
      : undefined;
  if (
    shadow !== undefined &&
    binary === undefined &&
    !equalsBytes(shadow.genesisRoot, fixtureGenesis.header.stateRoot)
  ) {
    failures.push(
      `MPT genesis root ${bytesToHex(shadow.genesisRoot)} differs from the genesis header's ${bytesToHex(fixtureGenesis.header.stateRoot)}`,
    );
  }

  const blocks: ExecutedBlock[] = [];
  const rejected: number[] = [];
  let blockMilliseconds = 0;
  let parent = genesis;
  for (let i = 0; i < test.blocks.length; i++) {
    const fixtureBlock = test.blocks[i]!;
    const label = `block ${i + 1}`;
    if (fixtureBlock.expectException !== undefined) {
      const refused = await rejects(vm, ubtRules, systemCalls, fixtureBlock.rlp, {
        checkStateRoot: checkRoots,
        shadow,
        checkMptRoot: binary === undefined,
      });
      tracing?.settle();
      if (refused) rejected.push(i);
      else failures.push(`${label} should fail (${fixtureBlock.expectException}) but ran`);
      continue;
    }
    const rlp = hexToBytesLoose(fixtureBlock.rlp, `${label} rlp`);
    const original = createBlockFromRLP(rlp, { common: vm.common, setHardfork: true });
    // geth's import decodes the transactions more strictly than ethereumjs.
    const txFault = gethBlockTxFault(rlp);
    if (txFault !== undefined) {
      failures.push(`${label}: ${txFault}`);
      break;
    }
    const block = rebuild
      ? withHeaderFields(original, vm.common, { parentHash: parent.hash() })
      : original;
    let result: Awaited<ReturnType<typeof runBlock>>;
    const started = performance.now();
    try {
      result = await runBlockAsGeth(vm, ubtRules, { block, generate: true, setHardfork: true });
    } catch (cause) {
      failures.push(`${label}: ${(cause as Error).message}`);
      break;
    } finally {
      blockMilliseconds += performance.now() - started;
      tracing?.settle();
    }
    const queueFailure = systemCalls.takeQueueFailure();
    if (queueFailure !== undefined) {
      // geth refuses the block (its PostExecution fails).
      failures.push(`${label}: ${queueFailure}`);
      break;
    }
    // From Byzantium on receipts carry a status: the MPT execution is needed no longer, unless
    // it checks the state roots.
    if (shadow !== undefined && !checksMptRoots && !MptReceiptShadow.needed(block.common)) {
      shadow = undefined;
    }
    let mpt: MptBlockRoots | undefined;
    if (shadow !== undefined) {
      try {
        mpt = await shadow.run(block);
      } catch (cause) {
        failures.push(`${label}: on MPT state: ${(cause as Error).message}`);
        break;
      }
    }
    failures.push(
      ...headerMismatches(label, result, block.header, {
        checkStateRoot: checkRoots,
        mpt,
        checkMptRoot: binary === undefined,
        rebuilt: rebuild,
      }),
    );
    if (checkRoots) {
      const recorded = binary?.blockRoots[i];
      if (
        binary !== undefined &&
        (recorded === undefined || !sameHex(result.stateRoot, recorded))
      ) {
        failures.push(
          `${label}: binary root ${bytesToHex(result.stateRoot)}, _bintrie.blockRoots has ${recorded ?? "nothing"}`,
        );
      }
    }
    // The rebuilt chain's headers carry what its execution computed: its block hashes differ,
    // so what BLOCKHASH put in the state (and in receipts before Byzantium, logs, gas) may too.
    const final = rebuild
      ? withHeaderFields(original, vm.common, {
          parentHash: parent.hash(),
          stateRoot: result.stateRoot,
          receiptTrie: mpt?.receiptsRoot ?? result.receiptsRoot,
          logsBloom: result.logsBloom,
          gasUsed: result.gasUsed,
        })
      : original;
    try {
      await blockchain.putBlock(final);
    } catch (cause) {
      failures.push(`${label}: the chain rejected it: ${(cause as Error).message}`);
      break;
    }
    known.add(final);
    blocks.push({ block: final, root: result.stateRoot, gasUsed: result.gasUsed, fixtureIndex: i });
    parent = final;
  }
  tracing?.close();
  const head = await blockchain.getCanonicalHeadBlock();
  if (!rebuild && failures.length === 0 && !sameHex(head.hash(), test.lastblockhash)) {
    failures.push(`chain head ${bytesToHex(head.hash())}, lastblockhash is ${test.lastblockhash}`);
  }
  return {
    common,
    state,
    blockchain,
    genesis,
    genesisRoot,
    blocks,
    rejected,
    head,
    blockMilliseconds,
    failures,
  };
}

/**
 * The genesis block of a fixture. geth writes a Shanghai-or-later genesis without a withdrawals
 * list in its body (the header has the empty withdrawals root); ethereumjs requires one.
 */
function genesisFromRLP(rlp: Uint8Array, common: Common): Block {
  const decoded = RLP.decode(rlp) as unknown as Uint8Array[][];
  if (Array.isArray(decoded) && decoded.length === 3 && common.isActivatedEIP(4895)) {
    return createBlockFromBytesArray([...decoded, []] as never, { common, setHardfork: true });
  }
  return createBlockFromRLP(rlp, { common, setHardfork: true });
}

/** A copy of `block` with some header fields replaced (the rest is byte-identical). */
export function withHeaderFields(
  block: Block,
  common: Common,
  fields: {
    parentHash?: Uint8Array;
    stateRoot?: Uint8Array;
    receiptTrie?: Uint8Array;
    logsBloom?: Uint8Array;
    gasUsed?: bigint;
  },
): Block {
  const raw = block.raw();
  const header = [...raw[0]];
  if (fields.parentHash !== undefined) header[PARENT_HASH] = fields.parentHash;
  if (fields.stateRoot !== undefined) header[STATE_ROOT] = fields.stateRoot;
  if (fields.receiptTrie !== undefined) header[RECEIPT_TRIE] = fields.receiptTrie;
  if (fields.logsBloom !== undefined) header[LOGS_BLOOM] = fields.logsBloom;
  if (fields.gasUsed !== undefined) header[GAS_USED] = bigIntToUnpaddedBytes(fields.gasUsed);
  const values = [header, ...raw.slice(1)] as typeof raw;
  return createBlockFromBytesArray(values, { common, setHardfork: true });
}

/**
 * Whether a block the fixture expects to fail is refused: its execution throws, or what it
 * computes differs from its header (receipts root, bloom, gas used, requests hash, and the state
 * root: binary where the fixture's are, else the MPT execution's), or a request queue's system
 * call fails, as geth's import refuses it. A refused block leaves the state as it was before it
 * (its changes are reverted, on the MPT execution too), so later blocks run on its parent's state.
 */
async function rejects(
  vm: Awaited<ReturnType<typeof createVM>>,
  ubt: UbtContext | undefined,
  systemCalls: SystemCallContext,
  rlp: string,
  checks: Omit<RootChecks, "mpt"> & { readonly shadow?: MptReceiptShadow },
): Promise<boolean> {
  let block: Block;
  try {
    const bytes = hexToBytesLoose(rlp, "rlp");
    block = createBlockFromRLP(bytes, { common: vm.common, setHardfork: true });
    // A transaction geth's decoding refuses (ethereumjs may take it): geth refuses the block.
    if (gethBlockTxFault(bytes) !== undefined) return true;
  } catch {
    return true;
  }
  await vm.evm.journal.checkpoint();
  const shadow = checks.shadow;
  let refused: boolean;
  let shadowRan = false;
  try {
    const result = await runBlockAsGeth(vm, ubt, { block, generate: true, setHardfork: true });
    refused = systemCalls.takeQueueFailure() !== undefined;
    let mpt: MptBlockRoots | undefined;
    if (!refused && shadow !== undefined) {
      shadowRan = true;
      mpt = await shadow.run(block, { keep: false });
    }
    refused ||= headerMismatches("", result, block.header, { ...checks, mpt }).length > 0;
  } catch {
    systemCalls.takeQueueFailure();
    refused = true;
  }
  if (refused) await vm.evm.journal.revert();
  else await vm.evm.journal.commit();
  if (shadowRan) await shadow!.settle(!refused);
  return refused;
}

/** Which of a header's roots a block's execution is compared with. */
interface RootChecks {
  /** The header's state root is binary: compare the binary root. */
  readonly checkStateRoot: boolean;
  /** The MPT execution's roots, where it ran (before Byzantium, or with a failing block). */
  readonly mpt?: MptBlockRoots;
  /** The header's state root is MPT: compare the MPT execution's, where there is one. */
  readonly checkMptRoot: boolean;
}

/** What a block's execution computed that its header does not say, one message each. */
function headerMismatches(
  label: string,
  result: Awaited<ReturnType<typeof runBlock>>,
  header: Block["header"],
  checks: RootChecks & {
    /**
     * A rebuild (fill, whose source test has passed): the rebuilt header takes the receipts root,
     * bloom, gas used and state root its execution computed, so only the rest is compared.
     */
    readonly rebuilt?: boolean;
  },
): string[] {
  const mismatches =
    checks.rebuilt === true ? [] : executionMismatches(label, result, header, checks);
  if (
    header.requestsHash !== undefined &&
    (result.requestsHash === undefined || !equalsBytes(result.requestsHash, header.requestsHash))
  ) {
    mismatches.push(
      `${label}: requests hash ${result.requestsHash === undefined ? "none" : bytesToHex(result.requestsHash)}, header has ${bytesToHex(header.requestsHash)}`,
    );
  }
  return mismatches;
}

/** The header fields a block's execution derives from the state: receipts, bloom, gas, roots. */
function executionMismatches(
  label: string,
  result: Awaited<ReturnType<typeof runBlock>>,
  header: Block["header"],
  checks: RootChecks,
): string[] {
  const mismatches: string[] = [];
  const { checkStateRoot, mpt } = checks;
  const receiptsRoot = mpt?.receiptsRoot ?? result.receiptsRoot;
  if (!equalsBytes(receiptsRoot, header.receiptTrie)) {
    mismatches.push(
      `${label}: receipts root ${bytesToHex(receiptsRoot)}${mpt === undefined ? "" : " (receipts with MPT roots)"}, header has ${bytesToHex(header.receiptTrie)}`,
    );
  }
  if (mpt !== undefined && checks.checkMptRoot && !equalsBytes(mpt.stateRoot, header.stateRoot)) {
    mismatches.push(
      `${label}: MPT state root ${bytesToHex(mpt.stateRoot)}, header has ${bytesToHex(header.stateRoot)}`,
    );
  }
  if (!equalsBytes(result.logsBloom, header.logsBloom)) {
    mismatches.push(`${label}: logs bloom differs from the header's`);
  }
  if (result.gasUsed !== header.gasUsed) {
    mismatches.push(`${label}: gas used ${result.gasUsed}, header has ${header.gasUsed}`);
  }
  if (checkStateRoot && !equalsBytes(result.stateRoot, header.stateRoot)) {
    mismatches.push(
      `${label}: binary root ${bytesToHex(result.stateRoot)}, header has ${bytesToHex(header.stateRoot)}`,
    );
  }
  return mismatches;
}

/** Compares bytes with a fixture hash, with or without its 0x (geth's lastblockhash has none). */
function sameHex(bytes: Uint8Array, hex: string): boolean {
  const lower = hex.toLowerCase();
  return bytesToHex(bytes) === (lower.startsWith("0x") ? lower : `0x${lower}`);
}
