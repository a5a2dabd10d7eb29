import { assertKnownOptions } from "@bintrie/codec";
import type { Block } from "@ethereumjs/block";
import { bytesToHex } from "@ethereumjs/util";
import { TestnetError } from "../chain/testnet-error.js";
import { allocFromDump, comparePostState, type StateMismatch } from "../fixtures/alloc.js";
import type {
  BinaryFixtureInfo,
  BlockchainTest,
  FixtureBlock,
  FixtureHeader,
  NamedTest,
} from "../fixtures/blockchain-test.js";
import { bytesQuantityHex } from "../fixtures/hex.js";
import { type ChainExecution, type ExecuteOptions, executeChain } from "../runner/execute-chain.js";
import { runBlockchainTest, type TestResult } from "../runner/run-blockchain-test.js";

export const BINARY_FIXTURE_FORMAT = "bintrie-testnet/1";

export interface FillResult {
  readonly name: string;
  /** The binary fixture, or undefined when the source test failed or could not be rebuilt. */
  readonly fixture: BlockchainTest | undefined;
  /** The run of the source test (which must pass before anything is filled). */
  readonly source: TestResult;
  readonly failures: readonly string[];
}

const FILL_TEST_OPTION_KEYS = ["scheme", "groupDepth", "sourceFile"] as const;

/**
 * Fills one binary-tree fixture from a blockchain test. The source test must pass `run` first.
 * Then the chain is rebuilt on binary roots: the genesis header gets the binary root of `pre`,
 * and every block header gets its binary post-state root and its rebuilt parent's hash (all
 * other header fields, the transactions and withdrawals are byte-identical). `postState` is
 * the rebuilt chain's state, which may differ from the source's only where the source stored a
 * block hash (BLOCKHASH results, the EIP-2935 history contract): each such slot must hold the
 * rebuilt hash of the same block, or filling fails.
 */
export async function fillBlockchainTest(
  named: NamedTest,
  options: Omit<ExecuteOptions, "rebuild"> & {
    /** How `_bintrie.source.file` names the source (default: the path it was read from). */
    readonly sourceFile?: string;
  } = {},
): Promise<FillResult> {
  assertKnownOptions(options, FILL_TEST_OPTION_KEYS, "fillBlockchainTest", TestnetError);
  // (Only the execution options go on: sourceFile is not theirs.)
  const execute = { scheme: options.scheme, groupDepth: options.groupDepth };
  const source = await runBlockchainTest(named, execute);
  if (!source.passed) {
    return {
      name: named.name,
      fixture: undefined,
      source,
      failures: ["the source test does not pass", ...source.failures],
    };
  }
  const rebuilt = await executeChain(named.test, { ...execute, rebuild: true });
  const failures = [...rebuilt.failures];
  const dump = await rebuilt.state.dumpState();
  if (named.test.postState !== undefined) {
    const substitutions = hashSubstitutions(source.execution, rebuilt);
    for (const m of comparePostState(named.test.postState, dump)) {
      if (!isHashSubstitution(m, substitutions)) {
        failures.push(
          `rebuilt post state ${m.address} ${m.field}${m.slot === undefined ? "" : ` ${m.slot}`}: source ${m.expected}, rebuilt ${m.actual} (not a block-hash substitution)`,
        );
      }
    }
  }
  if (failures.length > 0) {
    return { name: named.name, fixture: undefined, source, failures };
  }
  const test = named.test;
  const info: BinaryFixtureInfo = {
    format: BINARY_FIXTURE_FORMAT,
    scheme: rebuilt.state.scheme,
    groupDepth: rebuilt.state.groupDepth,
    genesisRoot: bytesToHex(rebuilt.genesisRoot),
    blockRoots: rebuilt.blocks.map((b) => bytesToHex(b.root)),
    source: {
      file: options.sourceFile ?? named.file,
      test: named.name,
      lastblockhash: test.lastblockhash,
    },
  };
  const blocks: FixtureBlock[] = [];
  let next = 0;
  for (let i = 0; i < test.blocks.length; i++) {
    const original = test.blocks[i]!;
    const executed = rebuilt.blocks[next];
    if (executed === undefined || executed.fixtureIndex !== i) {
      blocks.push(original); // a block expected to fail stays as it is
      continue;
    }
    next++;
    blocks.push({
      ...original,
      rlp: bytesToHex(executed.block.serialize()),
      blockHeader: headerJson(executed.block, original.blockHeader),
    });
  }
  const fixture: BlockchainTest = {
    ...test,
    genesisBlockHeader: headerJson(rebuilt.genesis, test.genesisBlockHeader),
    genesisRLP: bytesToHex(rebuilt.genesis.serialize()),
    blocks,
    postState: allocFromDump(dump),
    lastblockhash: bytesToHex(rebuilt.head.hash()),
    _bintrie: info,
  };
  return { name: named.name, fixture, source, failures: [] };
}

/** Source block hash → rebuilt block hash, as numbers in fixture quantity hex. */
function hashSubstitutions(source: ChainExecution, rebuilt: ChainExecution): Map<string, string> {
  const map = new Map<string, string>();
  map.set(bytesQuantityHex(source.genesis.hash()), bytesQuantityHex(rebuilt.genesis.hash()));
  for (let i = 0; i < source.blocks.length && i < rebuilt.blocks.length; i++) {
    map.set(
      bytesQuantityHex(source.blocks[i]!.block.hash()),
      bytesQuantityHex(rebuilt.blocks[i]!.block.hash()),
    );
  }
  return map;
}

function isHashSubstitution(m: StateMismatch, substitutions: Map<string, string>): boolean {
  return m.field === "storage" && substitutions.get(m.expected) === m.actual;
}

/** The source header JSON with the rebuilt parentHash, stateRoot and hash. */
function headerJson(block: Block, original: FixtureHeader | undefined): FixtureHeader {
  const header = block.header;
  const base: Record<string, string> =
    original !== undefined ? { ...original } : (header.toJSON() as Record<string, string>);
  base.parentHash = bytesToHex(header.parentHash);
  base.stateRoot = bytesToHex(header.stateRoot);
  base.hash = bytesToHex(block.hash());
  return base;
}
