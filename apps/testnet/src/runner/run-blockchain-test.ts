import { assertKnownOptions } from "@bintrie/codec";
import { bytesToHex } from "@ethereumjs/util";
import { TestnetError } from "../chain/testnet-error.js";
import { allocFromDump, comparePostState, type StateMismatch } from "../fixtures/alloc.js";
import type { FixtureAccount, NamedTest } from "../fixtures/blockchain-test.js";
import {
  type ChainExecution,
  EXECUTE_OPTION_KEYS,
  type ExecuteOptions,
  executeChain,
} from "./execute-chain.js";

/** The outcome of one blockchain test. */
export interface TestResult {
  readonly file: string;
  readonly name: string;
  readonly network: string;
  readonly passed: boolean;
  /** Whether the fixture is a binary one (every block's binary root was checked). */
  readonly binaryFixture: boolean;
  /** Failed checks in words (chain checks first, then post-state mismatches). */
  readonly failures: readonly string[];
  readonly mismatches: readonly StateMismatch[];
  readonly genesisRoot: string;
  readonly finalRoot: string;
  readonly blockRoots: readonly string[];
  readonly blocks: number;
  readonly gasUsed: bigint;
  /** Wall time of the whole test: state, blocks and comparison. */
  readonly milliseconds: number;
  /** Wall time inside `runBlock` calls only. */
  readonly blockMilliseconds: number;
}

/** How many mismatches a result lists in words (the rest are counted). */
const MISMATCHES_SHOWN = 10;

/**
 * Runs one test: binary genesis from `pre`, every block, `lastblockhash`, and the post state
 * account by account (balance, nonce, code, every storage slot, no extra accounts or slots).
 */
export async function runBlockchainTest(
  named: NamedTest,
  options: ExecuteOptions = {},
): Promise<TestResult & { readonly execution: ChainExecution }> {
  assertKnownOptions(options, EXECUTE_OPTION_KEYS, "runBlockchainTest", TestnetError);
  const started = performance.now();
  const execution = await executeChain(named.test, { ...options, rebuild: false });
  const failures = [...execution.failures];
  let mismatches: StateMismatch[] = [];
  const dump = await execution.state.dumpState();
  if (named.test.postState !== undefined) {
    mismatches = comparePostState(named.test.postState, dump);
    for (const m of mismatches.slice(0, MISMATCHES_SHOWN)) {
      failures.push(
        `post state ${m.address} ${m.field}${m.slot === undefined ? "" : ` ${m.slot}`}: expected ${m.expected}, got ${m.actual}`,
      );
    }
    if (mismatches.length > MISMATCHES_SHOWN) {
      failures.push(`… and ${mismatches.length - MISMATCHES_SHOWN} more post-state mismatches`);
    }
  } else {
    failures.push("the fixture has no postState (postStateHash alone cannot be checked)");
  }
  const blocks = execution.blocks;
  return {
    file: named.file,
    name: named.name,
    network: named.test.network,
    passed: failures.length === 0,
    binaryFixture: named.test._bintrie !== undefined,
    failures,
    mismatches,
    genesisRoot: bytesToHex(execution.genesisRoot),
    finalRoot: bytesToHex(await execution.state.getStateRoot()),
    blockRoots: blocks.map((b) => bytesToHex(b.root)),
    blocks: blocks.length,
    gasUsed: blocks.reduce((sum, b) => sum + b.gasUsed, 0n),
    milliseconds: performance.now() - started,
    blockMilliseconds: execution.blockMilliseconds,
    execution,
  };
}

/** The executed post state in fixture alloc format. */
export async function postStateOf(
  execution: ChainExecution,
): Promise<Record<string, FixtureAccount>> {
  return allocFromDump(await execution.state.dumpState());
}
