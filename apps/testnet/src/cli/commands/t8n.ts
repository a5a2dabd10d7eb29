import type { KeyScheme } from "@bintrie/core";
import { TestnetError } from "../../chain/testnet-error.js";
import { T8N_EXIT_IO } from "../../t8n/t8n-exit-codes.js";
import {
  prepareT8nOutput,
  readT8nInput,
  STDIN,
  type T8nOutputNames,
  writeOpcodeCounts,
  writeT8nOutput,
} from "../../t8n/t8n-io.js";
import { TraceFiles } from "../../t8n/trace-files.js";
import { OpcodeCounts } from "../../trace/opcode-counts.js";
import { type CliIO, readAllText } from "../cli-io.js";
import { EXIT_OK, type ExitCode } from "../exit-codes.js";
import { type TraceFlags, traceOptionsOf } from "../trace-flags.js";

/**
 * The t8n flags, named as geth's `evm t8n` names them; with `--trace`, a JSON opcode trace file
 * per executed transaction.
 */
export interface T8nFlags extends TraceFlags {
  readonly "input.alloc": string;
  readonly "input.env": string;
  readonly "input.txs": string;
  readonly "output.result": string;
  readonly "output.alloc": string;
  readonly "output.body"?: string;
  readonly "output.basedir"?: string;
  readonly "state.fork": string;
  readonly "state.chainid": number;
  /** geth's `--state.reward` in wei; negative: no reward step (no coinbase touch). */
  readonly "state.reward"?: bigint;
  readonly scheme?: string;
  /** geth's `--opcode.count FILE`: the transition's opcode counts, written under --output.basedir. */
  readonly "opcode.count"?: string;
}

/**
 * `t8n`: geth's `evm t8n` I/O around `transition()` (inputs from files or the combined stdin
 * object, outputs to files under --output.basedir or one JSON object per stream). A one-line
 * summary goes to stderr unless stderr carries an output object.
 */
export async function runT8n(flags: T8nFlags, io: CliIO): Promise<ExitCode> {
  const outputs: T8nOutputNames = {
    alloc: flags["output.alloc"],
    result: flags["output.result"],
    body: flags["output.body"],
    basedir: flags["output.basedir"],
    opcodeCount: flags["opcode.count"],
  };
  await prepareT8nOutput(outputs);
  const names = { alloc: flags["input.alloc"], env: flags["input.env"], txs: flags["input.txs"] };
  const input = await readT8nInput(names, async () => {
    if (io.stdin === undefined) {
      throw new TestnetError("INVALID_INPUT", "stdin: this caller gives no standard input", {
        gethExitCode: T8N_EXIT_IO,
      });
    }
    return readAllText(io.stdin);
  });
  // The EVM loads only once the inputs are read (bad input fails fast).
  const { transition } = await import("../../t8n/transition.js");
  const traceFiles = flags.trace === true ? new TraceFiles(outputs.basedir ?? "") : undefined;
  const counted = outputs.opcodeCount !== undefined && outputs.opcodeCount !== "";
  const opcodeCounts = counted ? new OpcodeCounts() : undefined;
  const output = await transition({
    ...input,
    fork: flags["state.fork"],
    chainId: flags["state.chainid"],
    reward: flags["state.reward"] ?? 0n,
    scheme: flags.scheme as KeyScheme | undefined,
    sources: {
      alloc: names.alloc === STDIN ? `${STDIN}.alloc` : names.alloc,
      env: names.env === STDIN ? `${STDIN}.env` : names.env,
      txs: names.txs === STDIN ? `${STDIN}.txs` : names.txs,
    },
    ...(opcodeCounts === undefined ? {} : { opcodeCounts }),
    ...(traceFiles === undefined
      ? {}
      : {
          trace: {
            sink: traceFiles,
            options: traceOptionsOf(flags),
          },
        }),
  });
  const countsPath =
    opcodeCounts === undefined
      ? undefined
      : await writeOpcodeCounts(outputs, opcodeCounts.toJson());
  const written = await writeT8nOutput(output, outputs, io);
  const files = countsPath === undefined ? written.files : [countsPath, ...written.files];
  if (!written.stderr) {
    io.stderr.write(
      `t8n ${flags["state.fork"]}: ${output.result.receipts.length} applied, ${output.result.rejected?.length ?? 0} rejected, binary stateRoot ${output.result.stateRoot}${files.length > 0 ? `; wrote ${files.join(", ")}` : ""}\n`,
    );
  }
  return EXIT_OK;
}
