import type { KeyScheme } from "@bintrie/core";
import { TestnetError } from "../../chain/testnet-error.js";
import { genesisHeaderFailures } from "../../fixtures/genesis-header-check.js";
import { collectFixtures } from "../../fixtures/load-fixtures.js";
import type { TestResult } from "../../runner/run-blockchain-test.js";
import type { TraceRequest } from "../../trace/opcode-trace.js";
import { TraceStream } from "../../trace/trace-stream.js";
import type { CliIO } from "../cli-io.js";
import { EXIT_FAILURE, EXIT_OK, type ExitCode } from "../exit-codes.js";
import {
  crashed,
  formatRate,
  jsonInvalid,
  jsonResult,
  round,
  textInvalid,
  textResult,
} from "../test-report.js";
import { type TraceFlags, traceOptionsOf } from "../trace-flags.js";

/** With `--trace`, every transaction's trace on stderr (geth's blocktest `--trace`). */
export interface RunFlags extends TraceFlags {
  readonly json?: boolean;
  readonly filter?: string;
  readonly scheme?: string;
}

/**
 * `run`: every test under `paths` (those whose `file :: name` matches --filter), one line each;
 * an unusable fixture is one failed test and the run goes on. Exit 1 if any failed; a filter
 * that matches nothing (or folders holding no test) is a usage error, not a pass.
 */
export async function runTests(
  paths: readonly string[],
  flags: RunFlags,
  io: CliIO,
): Promise<ExitCode> {
  const { entries, total } = await collectFixtures(paths, flags.filter);
  if (entries.length === 0) {
    const where = paths.join(", ");
    throw new TestnetError(
      "NO_MATCHING_TESTS",
      flags.filter === undefined
        ? `no blockchain tests under ${where}`
        : `--filter ${JSON.stringify(flags.filter)} matches none of the ${total} ${total === 1 ? "test" : "tests"} under ${where} (it is a regular expression over "file :: name")`,
    );
  }
  // The EVM loads only once there is something to run (a bad filter fails fast).
  const { runBlockchainTest } = await import("../../runner/run-blockchain-test.js");
  const json = flags.json === true;
  const trace: TraceRequest | undefined =
    flags.trace === true
      ? { sink: new TraceStream(io.stderr), options: traceOptionsOf(flags) }
      : undefined;
  let passed = 0;
  let failed = 0;
  let blocks = 0;
  let gas = 0n;
  let blockMs = 0;
  const started = performance.now();
  for (const entry of entries) {
    if (entry.error !== undefined) {
      failed++;
      io.stdout.write(
        json
          ? `${JSON.stringify(jsonInvalid(entry.file, entry.name, entry.error))}\n`
          : textInvalid(entry.file, entry.name, entry.error),
      );
      continue;
    }
    let result: TestResult;
    try {
      result = await runBlockchainTest(entry, {
        scheme: flags.scheme as KeyScheme | undefined,
        ...(trace === undefined ? {} : { trace }),
      });
      const header = genesisHeaderFailures(entry.test, result.genesisRoot);
      if (header.length > 0) {
        result = { ...result, passed: false, failures: [...header, ...result.failures] };
      }
    } catch (cause) {
      result = crashed(entry.file, entry.name, entry.test.network, cause);
    }
    if (result.passed) passed++;
    else failed++;
    blocks += result.blocks;
    gas += result.gasUsed;
    blockMs += result.blockMilliseconds;
    io.stdout.write(json ? `${JSON.stringify(jsonResult(result))}\n` : textResult(result));
  }
  const seconds = (performance.now() - started) / 1000;
  const stats = {
    tests: entries.length,
    blocks,
    gasUsed: gas.toString(),
    seconds: round(seconds, 3),
    blocksPerSecond: round(blocks / seconds, 1),
    gasPerSecond: Math.round(Number(gas) / seconds),
    blockExecutionSeconds: round(blockMs / 1000, 3),
  };
  if (json) io.stdout.write(`${JSON.stringify({ summary: { passed, failed, ...stats } })}\n`);
  else {
    io.stdout.write(
      `${blocks} blocks, ${gas} gas in ${stats.seconds} s: ${stats.blocksPerSecond} blocks/s, ${formatRate(stats.gasPerSecond)} gas/s (runBlock alone: ${stats.blockExecutionSeconds} s)\n`,
    );
  }
  // With --json, stdout stays pure JSON lines; the plain summary goes to stderr, unless the
  // trace has it (the summary object on stdout says the same).
  if (!json) io.stdout.write(`${passed} passed, ${failed} failed\n`);
  else if (trace === undefined) io.stderr.write(`${passed} passed, ${failed} failed\n`);
  return failed > 0 ? EXIT_FAILURE : EXIT_OK;
}
