export { BintrieError } from "@bintrie/core";
export { commonForNetwork, ethereumjsForkName, parseNetwork } from "./chain/common-for-network.js";
export { getKzg } from "./chain/kzg.js";
export {
  TestnetError,
  type TestnetErrorCode,
  type TestnetErrorContext,
} from "./chain/testnet-error.js";
export { type CliIO, type CliOutput, runCli } from "./cli/run-cli.js";
export { type DevAccount, devAccount, devAccounts } from "./devnet/dev-accounts.js";
export {
  DevnetChain,
  type DevnetChainOptions,
  type MinedBlock,
  type MinedTransaction,
  type TransactionPlace,
} from "./devnet/devnet-chain.js";
export {
  DEFAULT_DEVNET_GENESIS,
  type DevnetGenesis,
  parseDevnetGenesis,
  readDevnetGenesis,
} from "./devnet/devnet-genesis.js";
export { EthApi, type EthApiOptions } from "./devnet/rpc/eth-api.js";
export { JsonRpcError, type JsonRpcErrorCode } from "./devnet/rpc/json-rpc-error.js";
export { JsonRpcServer, type JsonRpcServerOptions } from "./devnet/rpc/json-rpc-server.js";
export type { RpcSession } from "./devnet/rpc/subscriptions.js";
export {
  type DevnetOptions,
  type DevnetResult,
  type ProducedBlock,
  produceDevnet,
} from "./devnet/run-devnet.js";
export { TransactionRefused } from "./devnet/transaction-refused.js";
export {
  BINARY_FIXTURE_FORMAT,
  type FillResult,
  fillBlockchainTest,
} from "./fill/fill-blockchain-test.js";
export { type FillFilesOptions, type FillSummary, fillFiles } from "./fill/fill-files.js";
export {
  fillUbtChain,
  type UbtChainDescription,
  type UbtChainFill,
} from "./fill/fill-ubt-chain.js";
export {
  allocFromDump,
  applyAlloc,
  comparePostState,
  type StateMismatch,
} from "./fixtures/alloc.js";
export type {
  BinaryFixtureInfo,
  BlockchainTest,
  FixtureAccount,
  FixtureAlloc,
  FixtureBlock,
  NamedTest,
} from "./fixtures/blockchain-test.js";
export { genesisHeaderFailures } from "./fixtures/genesis-header-check.js";
export {
  type CollectedFixtures,
  collectFixtures,
  type FixtureEntry,
  findFixtureFiles,
  loadFixtures,
  readFixtureEntries,
  readFixtureFile,
  WHOLE_FILE,
} from "./fixtures/load-fixtures.js";
export { compileTestFilter, matchesTestFilter, testLabel } from "./fixtures/test-filter.js";
export { assertBlockchainTest } from "./fixtures/validate-fixture.js";
export { type ChainExecution, type ExecuteOptions, executeChain } from "./runner/execute-chain.js";
export { runBlockchainTest, type TestResult } from "./runner/run-blockchain-test.js";
export {
  BinaryStateManager,
  type BinaryStateManagerOptions,
  type DumpedAccount,
  NON_EMPTY_STORAGE_MARKER,
  type OpenStateOptions,
  type WritePolicy,
} from "./state/binary-state-manager.js";
export { StateManagerError, type StateManagerErrorCode } from "./state/state-manager-error.js";
export { type GethAllocAccount, gethAllocFromDump } from "./t8n/geth-alloc.js";
export {
  readT8nInput,
  STDERR,
  STDIN,
  STDOUT,
  type T8nInputFiles,
  type T8nInputNames,
  type T8nOutputNames,
  type T8nWritten,
  writeT8nOutput,
} from "./t8n/t8n-io.js";
export { parseT8nRequest, type T8nRequest } from "./t8n/t8n-request.js";
export {
  answerT8nRequest,
  type T8nAnswer,
  T8nServer,
  type T8nServerAddress,
  type T8nServerOptions,
} from "./t8n/t8n-server.js";
export {
  type T8nAccount,
  type T8nEnv,
  type T8nInput,
  type T8nOutput,
  type T8nReceipt,
  type T8nResult,
  transition,
} from "./t8n/transition.js";
export { AccessEvents, storageIndex } from "./ubt/access-events.js";
export {
  createExecutionVM,
  type ExecutionVM,
  type ExecutionVMOptions,
} from "./ubt/create-ubt-vm.js";
export { isUbtCommon, UbtCommon } from "./ubt/ubt-common.js";
export { UbtContext } from "./ubt/ubt-context.js";
export { UbtEVM } from "./ubt/ubt-evm.js";
export { type UbtNetwork, ubtNetworkOf } from "./ubt/ubt-network.js";
