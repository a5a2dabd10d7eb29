import { mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { parseArgs } from "node:util";
import type { KeyScheme } from "@bintrie/core";
import { TestnetError } from "../chain/testnet-error.js";
import { produceDevnet } from "../devnet/run-devnet.js";
import { fillFiles } from "../fill/fill-files.js";
import { loadFixtures } from "../fixtures/load-fixtures.js";
import { runBlockchainTest, type TestResult } from "../runner/run-blockchain-test.js";
import { transition } from "../t8n/transition.js";
import { ProgressBar } from "./progress-bar.js";

/** Where the CLI writes; `isTTY` turns the progress bar's redraws on. */
export interface CliIO {
  readonly stdout: { write(text: string): unknown; isTTY?: boolean };
  readonly stderr: { write(text: string): unknown; isTTY?: boolean };
}

const USAGE = `usage:
  bintrie-testnet run PATH… [--json] [--filter TEXT] [--scheme S]
  bintrie-testnet fill IN… --out DIR [--filter TEXT] [--scheme S]
  bintrie-testnet t8n --input.alloc A --input.env E --input.txs T
                      --output.result R --output.alloc P [--output.body B]
                      [--output.basedir D] [--state.fork F] [--state.chainid N]
  bintrie-testnet devnet [--genesis FILE] [--blocks N] [--seed N] [--out FILE]
`;

/** The version in this package's package.json (dist/cli/ → ../../package.json). */
async function packageVersion(): Promise<string> {
  const manifest = JSON.parse(
    await readFile(new URL("../../package.json", import.meta.url), "utf8"),
  );
  return String(manifest.version);
}

/** Runs one CLI command; resolves to the process exit code (0 ok, 1 failures, 2 usage). */
export async function runCli(argv: readonly string[], io: CliIO): Promise<number> {
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case "run":
        return await runCommand(rest, io);
      case "fill":
        return await fillCommand(rest, io);
      case "t8n":
        return await t8nCommand(rest, io);
      case "devnet":
        return await devnetCommand(rest, io);
      case undefined:
      case "help":
      case "--help":
      case "-h":
        io.stdout.write(USAGE);
        return command === undefined ? 2 : 0;
      case "--version":
      case "-V":
        io.stdout.write(`${await packageVersion()}\n`);
        return 0;
      default:
        io.stderr.write(`unknown command '${command}'\n${USAGE}`);
        return 2;
    }
  } catch (cause) {
    const error = cause as Error;
    const usage = error instanceof TypeError && "code" in error;
    io.stderr.write(`bintrie-testnet ${command}: ${error.message}\n${usage ? USAGE : ""}`);
    return usage ? 2 : 1;
  }
}

async function runCommand(args: readonly string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseArgs({
    args: [...args],
    allowPositionals: true,
    options: {
      json: { type: "boolean", default: false },
      filter: { type: "string" },
      scheme: { type: "string" },
    },
  });
  if (positionals.length === 0)
    throw new TestnetError("INVALID_INPUT", "run needs at least one PATH");
  const tests = await loadFixtures(positionals, values.filter);
  let passed = 0;
  let failed = 0;
  let blocks = 0;
  let gas = 0n;
  let blockMs = 0;
  const started = performance.now();
  for (const named of tests) {
    let result: TestResult;
    try {
      result = await runBlockchainTest(named, { scheme: values.scheme as KeyScheme | undefined });
    } catch (cause) {
      result = crashed(named.file, named.name, named.test.network, cause as Error);
    }
    if (result.passed) passed++;
    else failed++;
    blocks += result.blocks;
    gas += result.gasUsed;
    blockMs += result.blockMilliseconds;
    io.stdout.write(values.json ? `${JSON.stringify(jsonResult(result))}\n` : textResult(result));
  }
  const seconds = (performance.now() - started) / 1000;
  const stats = {
    tests: tests.length,
    blocks,
    gasUsed: gas.toString(),
    seconds: round(seconds, 3),
    blocksPerSecond: round(blocks / seconds, 1),
    gasPerSecond: Math.round(Number(gas) / seconds),
    blockExecutionSeconds: round(blockMs / 1000, 3),
  };
  if (values.json)
    io.stdout.write(`${JSON.stringify({ summary: { passed, failed, ...stats } })}\n`);
  else {
    io.stdout.write(
      `${blocks} blocks, ${gas} gas in ${stats.seconds} s: ${stats.blocksPerSecond} blocks/s, ${formatRate(stats.gasPerSecond)} gas/s (runBlock alone: ${stats.blockExecutionSeconds} s)\n`,
    );
  }
  // With --json, stdout stays pure JSON lines; the plain summary goes to stderr.
  (values.json ? io.stderr : io.stdout).write(`${passed} passed, ${failed} failed\n`);
  return failed > 0 || tests.length === 0 ? 1 : 0;
}

async function fillCommand(args: readonly string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseArgs({
    args: [...args],
    allowPositionals: true,
    options: {
      out: { type: "string" },
      filter: { type: "string" },
      scheme: { type: "string" },
    },
  });
  if (values.out === undefined) throw new TestnetError("INVALID_INPUT", "fill needs --out DIR");
  if (positionals.length === 0)
    throw new TestnetError("INVALID_INPUT", "fill needs at least one IN");
  const summary = await fillFiles(positionals, values.out, {
    filter: values.filter,
    scheme: values.scheme as KeyScheme | undefined,
    onResult: (result, file) => {
      if (result.fixture !== undefined) {
        const roots = result.fixture._bintrie!;
        io.stdout.write(
          `FILLED ${file} :: ${result.name}  genesis ${roots.genesisRoot}  final ${roots.blockRoots.at(-1) ?? roots.genesisRoot}\n`,
        );
      } else {
        io.stdout.write(`FAILED ${file} :: ${result.name}\n`);
        for (const f of result.failures) io.stdout.write(`    ${f}\n`);
      }
    },
  });
  for (const file of summary.files) io.stdout.write(`wrote ${file}\n`);
  io.stdout.write(`${summary.filled} filled, ${summary.failed} failed\n`);
  return summary.failed > 0 ? 1 : 0;
}

async function t8nCommand(args: readonly string[], io: CliIO): Promise<number> {
  const { values } = parseArgs({
    args: [...args],
    options: {
      "input.alloc": { type: "string", default: "alloc.json" },
      "input.env": { type: "string", default: "env.json" },
      "input.txs": { type: "string", default: "txs.json" },
      "output.result": { type: "string", default: "result.json" },
      "output.alloc": { type: "string", default: "alloc.json" },
      "output.body": { type: "string" },
      "output.basedir": { type: "string", default: "" },
      "state.fork": { type: "string", default: "Prague" },
      "state.chainid": { type: "string", default: "1" },
      scheme: { type: "string" },
    },
  });
  const readJson = async (path: string): Promise<unknown> => {
    try {
      return JSON.parse(await readFile(path, "utf8"));
    } catch (cause) {
      throw new TestnetError("INVALID_INPUT", `${path}: ${(cause as Error).message}`);
    }
  };
  const txsPath = values["input.txs"];
  const txs = await readJson(txsPath);
  if (txsPath.endsWith(".rlp") && typeof txs !== "string") {
    throw new TestnetError("INVALID_INPUT", `${txsPath}: expected a JSON string of hex RLP`);
  }
  const output = await transition({
    alloc: (await readJson(values["input.alloc"])) as never,
    env: (await readJson(values["input.env"])) as never,
    txs: txs as never,
    fork: values["state.fork"],
    chainId: Number(values["state.chainid"]),
    scheme: values.scheme as KeyScheme | undefined,
  });
  const write = async (name: string, data: unknown): Promise<void> => {
    const path = join(values["output.basedir"], name);
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, `${JSON.stringify(data, null, 2)}\n`);
  };
  await write(values["output.result"], output.result);
  await write(values["output.alloc"], output.alloc);
  if (values["output.body"] !== undefined) await write(values["output.body"], output.body);
  io.stderr.write(
    `t8n ${values["state.fork"]}: ${output.result.receipts.length} applied, ${output.result.rejected?.length ?? 0} rejected, binary stateRoot ${output.result.stateRoot}\n`,
  );
  return 0;
}

async function devnetCommand(args: readonly string[], io: CliIO): Promise<number> {
  const { values } = parseArgs({
    args: [...args],
    options: {
      genesis: { type: "string" },
      blocks: { type: "string", default: "32" },
      seed: { type: "string", default: "7864" },
      out: { type: "string", default: ".reports/devnet.fixture.json" },
    },
  });
  const count = Number(values.blocks);
  if (!Number.isInteger(count) || count < 1) {
    throw new TestnetError(
      "INVALID_INPUT",
      `--blocks must be a positive integer, got ${values.blocks}`,
    );
  }
  const bar = new ProgressBar(io.stderr, count);
  io.stdout.write(
    `devnet: ${count} blocks from ${values.genesis ?? "the shipped genesis/devnet.json"}\n`,
  );
  const devnet = await produceDevnet({
    genesisPath: values.genesis,
    blocks: count,
    seed: Number(values.seed),
    onBlock: (block) => {
      bar.update(block.number, `block ${block.number} root ${block.root}`);
      if (!bar.interactive) {
        io.stdout.write(
          `block ${block.number}  txs ${block.transactions}  gas ${block.gasUsed}  root ${block.root}\n`,
        );
      }
    },
  });
  bar.done();
  if (bar.interactive) {
    for (const block of devnet.blocks) {
      io.stdout.write(
        `block ${block.number}  txs ${block.transactions}  gas ${block.gasUsed}  root ${block.root}\n`,
      );
    }
  }
  const seconds = devnet.milliseconds / 1000;
  io.stdout.write(
    `genesis root ${devnet.genesisRoot}\nproduced ${count} blocks, ${devnet.transactions} txs, ${devnet.gasUsed} gas in ${round(seconds, 2)} s (${round(count / seconds, 1)} blocks/s, ${formatRate(Math.round(Number(devnet.gasUsed) / seconds))} gas/s)\n`,
  );
  await mkdir(dirname(values.out), { recursive: true });
  await writeFile(values.out, `${JSON.stringify({ devnet: devnet.fixture }, null, 2)}\n`);
  io.stdout.write(`wrote ${values.out}\nre-executing it:\n`);
  return runCommand([values.out], io);
}

function crashed(file: string, name: string, network: string, error: Error): TestResult {
  return {
    file,
    name,
    network,
    passed: false,
    binaryFixture: false,
    failures: [`crashed: ${error.message}`],
    mismatches: [],
    genesisRoot: "",
    finalRoot: "",
    blockRoots: [],
    blocks: 0,
    gasUsed: 0n,
    milliseconds: 0,
    blockMilliseconds: 0,
  };
}

function textResult(r: TestResult): string {
  const head = `${r.passed ? "PASS" : "FAIL"}  ${r.file} :: ${r.name}  [${r.network}${r.binaryFixture ? ", binary roots checked" : ""}]  genesis ${r.genesisRoot}  final ${r.finalRoot}  ${r.blocks} blocks  ${round(r.milliseconds, 1)} ms\n`;
  return head + r.failures.map((f) => `    ${f}\n`).join("");
}

function jsonResult(r: TestResult): Record<string, unknown> {
  return {
    file: r.file,
    name: r.name,
    network: r.network,
    passed: r.passed,
    binaryFixture: r.binaryFixture,
    genesisRoot: r.genesisRoot,
    finalRoot: r.finalRoot,
    blockRoots: r.blockRoots,
    blocks: r.blocks,
    gasUsed: r.gasUsed.toString(),
    milliseconds: round(r.milliseconds, 3),
    failures: r.failures,
  };
}

function round(value: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

function formatRate(value: number): string {
  if (value >= 1e6) return `${round(value / 1e6, 2)} M`;
  if (value >= 1e3) return `${round(value / 1e3, 1)} k`;
  return String(value);
}
