import { produceDevnet } from "../../devnet/run-devnet.js";
import { prepareOutputFile, writeOutputFile } from "../../io/output-files.js";
import type { CliIO } from "../cli-io.js";
import type { ExitCode } from "../exit-codes.js";
import { ProgressBar } from "../progress-bar.js";
import { formatRate, round } from "../test-report.js";
import { runTests } from "./run.js";

export interface DevnetFlags {
  readonly genesis?: string;
  readonly blocks: number;
  readonly seed: number;
  readonly out: string;
}

/** `devnet`: produces blocks on binary-tree state, writes them as a fixture, re-executes it. */
export async function runDevnet(flags: DevnetFlags, io: CliIO): Promise<ExitCode> {
  const count = flags.blocks;
  await prepareOutputFile(flags.out, "--out");
  const bar = new ProgressBar(io.stderr, count);
  io.stdout.write(
    `devnet: ${count} blocks from ${flags.genesis ?? "the shipped genesis/devnet.json"}\n`,
  );
  const devnet = await produceDevnet({
    genesisPath: flags.genesis,
    blocks: count,
    seed: flags.seed,
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
  await writeOutputFile(
    flags.out,
    `${JSON.stringify({ devnet: devnet.fixture }, null, 2)}\n`,
    "--out",
  );
  io.stdout.write(`wrote ${flags.out}\nre-executing it:\n`);
  return runTests([flags.out], {}, io);
}
